// The turn loop: prompt → model → tools → model → ... → response, with rollback on any error.

import ParleyBasics

extension LanguageModelSession {
    /// What a turn asks for.
    struct TurnRequest: Sendable {
        var prompt: Prompt
        var schema: GenerationSchema?
        var responseFormat: Transcript.ResponseFormat?
        var includeSchemaInPrompt: Bool
        var options: GenerationOptions
        var context = GenerationContext()
    }

    /// What a turn produced.
    struct TurnResult: Sendable {
        var entries: ArraySlice<Transcript.Entry>
        var rawContent: GeneratedContent
        var usage: GenerationUsage?
        /// Whether the tool execution delegate stopped the turn after its tool calls (there is no answer).
        var stoppedAtToolCalls = false

        /// The response for `Content`, made by `convert` from the raw content; a stopped turn whose raw content
        /// does not convert throws `ToolExecutionStopped` instead.
        func response<Content: Generable>(
            _ convert: (GeneratedContent) throws -> Content
        ) throws -> Response<Content> {
            let content: Content
            do {
                content = try convert(rawContent)
            } catch where stoppedAtToolCalls {
                throw ToolExecutionStopped(transcriptEntries: entries)
            }
            return Response(content: content, rawContent: rawContent, transcriptEntries: entries, usage: usage)
        }
    }

    /// Runs a turn that `respond` awaits: claims the session, runs the turn and converts its answer to `Content`.
    ///
    /// What it throws has passed through `thrown(_:)`, as what a streamed turn throws has.
    ///
    /// - Parameters:
    ///   - request: What the turn asks.
    ///   - content: Converts the answer's raw content to `Content`.
    func awaitedTurn<Content: Generable>(
        _ request: TurnRequest, content: (GeneratedContent) throws -> Content
    ) async throws -> Response<Content> {
        do {
            let turn = try beginTurn()
            return try await runTurn(request, in: turn).response(content)
        } catch {
            throw Self.thrown(error)
        }
    }

    /// The error a session throws for what a turn (or its claim on the session) threw: the one place that picks the
    /// errors' era, for awaited turns (`awaitedTurn`) and streamed ones (`ResponseStream.AsyncIterator`).
    ///
    /// By default, `error` itself: Apple 27's types (`LanguageModelError`, `LanguageModelSession.Error`,
    /// `GeneratedContent.ParsingError`, a backend's `SystemLanguageModel.Error`). Built with the package trait
    /// `FoundationModels26Errors`, the `LanguageModelSession.GenerationError` an Xcode 26 build receives instead,
    /// for every error that has one (see `GenerationError(_:)`); others (`ToolCallError`, `CancellationError`, a
    /// backend's transport errors) are thrown as they are, as in Apple 26.
    ///
    /// - Parameter error: What the turn threw.
    static func thrown(_ error: any Swift.Error) -> any Swift.Error {
        #if FoundationModels26Errors
        GenerationError(error) ?? error
        #else
        error
        #endif
    }

    /// The Apple 27 form of an error a session threw, whichever era the build's sessions throw in: under the
    /// `FoundationModels26Errors` trait, the error a `GenerationError` was converted from; else `error` itself.
    ///
    /// For Parley's own modules (the engine, replays), whose recovery matches Apple 27's types
    /// (`LanguageModelError.contextSizeExceeded`) and must keep working when an app enables the trait for its own
    /// Apple-style code.
    ///
    /// - Parameter error: What a session threw.
    package static func apple27Form(of error: any Swift.Error) -> any Swift.Error {
        #if FoundationModels26Errors
        if let old = error as? GenerationError, let underlying = old.context.underlying { return underlying }
        #endif
        return error
    }

    /// Runs `body`, throwing what it throws in its Apple 27 form (`apple27Form(of:)`).
    ///
    /// - Parameter body: Work that uses sessions.
    /// - Returns: What `body` returns.
    package nonisolated(nonsending) static func withApple27Errors<T>(
        _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch {
            throw apple27Form(of: error)
        }
    }

    /// Runs one turn: loops over model steps and tool calls, validates the answer, and appends the turn's
    /// entries, or rolls them back on any error or cancellation.
    ///
    /// - Parameters:
    ///   - request: What is asked.
    ///   - turn: The transcript and limits `beginTurn()` returned when it marked the session as responding.
    ///   - onText: Called with the answer's text so far while it streams; `nil` for a non-streaming turn.
    func runTurn(
        _ request: TurnRequest, in turn: BegunTurn, onText: (@Sendable (String) -> Void)? = nil
    )
        async throws -> TurnResult
    {
        let (base, maximumToolRounds) = (turn.transcript, turn.maximumToolRounds)
        var entries: [Transcript.Entry] = [
            .prompt(
                .init(
                    segments: request.prompt.segments, options: request.options, responseFormat: request.responseFormat)
            )
        ]
        // The transcript the requests see: `base` and the turn's entries so far, appended as they come (a copy of
        // the whole conversation per request would make every turn cost more than the one before).
        var working = base
        do {
            try checkGuides(request)
            var usage: GenerationUsage?
            var round = 0
            while true {
                try Task.checkCancellation()
                working.append(contentsOf: entries[(working.count - base.count)...])
                let generationRequest = GenerationRequest(
                    transcript: working,
                    tools: request.options.toolCallingMode?.kind == .disallowed ? [] : toolDefinitions,
                    schema: request.schema,
                    includeSchemaInPrompt: request.includeSchemaInPrompt, options: request.options,
                    context: request.context)
                try await checkContext(generationRequest)
                let generation = try await generate(generationRequest, onText: onText)
                try Task.checkCancellation()
                if let stepUsage = generation.usage { usage = usage.map { $0.adding(stepUsage) } ?? stepUsage }
                if let reasoning = generation.reasoning, !reasoning.isEmpty {
                    entries.append(.reasoning(.init(segments: [.text(.init(content: reasoning))])))
                }
                switch generation.output {
                case .toolCalls(let calls) where !calls.isEmpty:
                    guard round < maximumToolRounds else {
                        throw ToolRoundLimitExceeded(limit: maximumToolRounds, pendingCalls: calls)
                    }
                    round += 1
                    entries.append(.toolCalls(Transcript.ToolCalls(calls)))
                    var stopped = false
                    for call in calls {
                        try Task.checkCancellation()
                        // After a stop, the turn's later calls do not run either; the app is not asked again.
                        var decision = ToolExecutionDecision.stop
                        if !stopped, let delegate = turn.toolExecutionDelegate {
                            decision = await delegate.toolCallDecision(for: call, in: self)
                        } else if !stopped {
                            decision = .run
                        }
                        switch decision {
                        case .run:
                            entries.append(.toolOutput(try await runTool(call)))
                        case .deny(let reason):
                            entries.append(.toolOutput(textOutput(Self.deniedOutput(call, reason: reason), for: call)))
                        case .provideOutput(let segments):
                            entries.append(.toolOutput(.init(id: call.id, toolName: call.toolName, segments: segments)))
                        case .stop:
                            stopped = true
                            entries.append(.toolOutput(textOutput(Self.stoppedOutput(call), for: call)))
                        }
                    }
                    if stopped {
                        try Task.checkCancellation()
                        let raw = GeneratedContent(kind: request.schema == nil ? .string("") : .null)
                        return TurnResult(
                            entries: commitTurn(entries, usage: usage, base: base, working: working), rawContent: raw,
                            usage: usage, stoppedAtToolCalls: true)
                    }
                case .toolCalls:
                    throw GeneratedContent.ParsingError(
                        rawContent: "[]", debugDescription: "The model asked for an empty list of tool calls.")
                case .text(let text):
                    let (segment, raw) = try answerSegment(text: text, content: nil, schema: request.schema)
                    entries.append(.response(.init(assetIDs: [assetID] + generation.assetIDs, segments: [segment])))
                    return TurnResult(
                        entries: commitTurn(entries, usage: usage, base: base, working: working), rawContent: raw,
                        usage: usage)
                case .structure(let content):
                    let (segment, raw) = try answerSegment(text: nil, content: content, schema: request.schema)
                    entries.append(.response(.init(assetIDs: [assetID] + generation.assetIDs, segments: [segment])))
                    return TurnResult(
                        entries: commitTurn(entries, usage: usage, base: base, working: working), rawContent: raw,
                        usage: usage)
                }
            }
        } catch {
            rollBackTurn(entries)
            throw error
        }
    }

    /// Throws `unsupportedGenerationGuide` instead of asking the model for a schema, or offering a tool whose
    /// arguments' schema, has a guide no server can enforce (a `Regex` pattern with no ECMAScript form).
    private func checkGuides(_ request: TurnRequest) throws {
        if let schema = request.schema, let problem = schema.unsupportedGuide {
            throw LanguageModelError.unsupportedGenerationGuide(
                .init(schemaName: schema.name, debugDescription: problem))
        }
        for definition in toolDefinitions {
            if let problem = definition.parameters.unsupportedGuide {
                throw LanguageModelError.unsupportedGenerationGuide(
                    .init(
                        schemaName: definition.parameters.name,
                        debugDescription: "the arguments of the tool \(definition.name): \(problem)"))
            }
        }
    }

    /// The asset id recorded first on responses: the model's id and version, so a transcript says which model spoke.
    /// The backend's own `Generation.assetIDs` follow it.
    var assetID: String { "\(model.id)@\(model.version)" }

    /// Throws `contextSizeExceeded` instead of sending a request that cannot fit the model's context window, with
    /// room for the response when `maximumResponseTokens` is set.
    private func checkContext(_ request: GenerationRequest) async throws {
        let contextSize = try await model.contextSize
        // Saturating: a huge `maximumResponseTokens` (Int.max) is a request that cannot fit, not a crash.
        let tokens = try await model.tokenCount(for: request).saturatingAdding(
            max(request.options.maximumResponseTokens ?? 0, 0))
        if tokens > contextSize {
            throw LanguageModelError.contextSizeExceeded(.init(contextSize: contextSize, tokenCount: tokens))
        }
    }

    /// One model step, streamed when `onText` is given.
    private func generate(
        _ request: GenerationRequest, onText: (@Sendable (String) -> Void)?
    ) async throws
        -> Generation
    {
        guard let onText else { return try await model.generate(request) }
        var text = ""
        var reasoning = ""
        var toolCalls: [Transcript.ToolCall]?
        var usage: GenerationUsage?
        var assetIDs: [String] = []
        for try await update in model.streamGeneration(request) {
            switch update {
            case .text(let delta):
                text += delta
                if !delta.isEmpty { onText(text) }
            case .reasoning(let delta): reasoning += delta
            case .toolCalls(let calls): toolCalls = (toolCalls ?? []) + calls
            case .usage(let reported): usage = reported
            case .assetIDs(let ids): assetIDs += ids
            }
        }
        let output: Generation.Output = toolCalls.map { .toolCalls($0) } ?? .text(text)
        return Generation(
            output: output, reasoning: reasoning.isEmpty ? nil : reasoning, usage: usage, assetIDs: assetIDs)
    }

    /// Runs one tool call. An unknown tool or arguments that do not convert go back to the model as the call's
    /// output, so it can correct itself; a tool that throws ends the turn with `ToolCallError`.
    private func runTool(_ call: Transcript.ToolCall) async throws -> Transcript.ToolOutput {
        func output(_ text: String) -> Transcript.ToolOutput { textOutput(text, for: call) }
        guard let tool = tools.first(where: { $0.name == call.toolName }) else {
            let names = tools.map(\.name).joined(separator: ", ")
            return output(
                "There is no tool named \"\(call.toolName)\". "
                    + (tools.isEmpty ? "No tools are available." : "Available tools: \(names)."))
        }
        let prepared: ToolInvocation
        do {
            prepared = try ToolInvocation(tool: tool, arguments: call.arguments)
        } catch {
            return output(
                "The arguments for \(call.toolName) are not valid: \(error). Call it again with arguments that "
                    + "match its parameters.")
        }
        do {
            return .init(id: call.id, toolName: call.toolName, segments: try await prepared.run())
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ToolCallError(tool: tool, underlyingError: error)
        }
    }

    /// A tool output of one text segment answering `call`.
    private func textOutput(_ text: String, for call: Transcript.ToolCall) -> Transcript.ToolOutput {
        .init(id: call.id, toolName: call.toolName, segments: [.text(.init(content: text))])
    }

    /// The response segment for the model's answer: text, or for guided generation structured content that must
    /// be complete JSON following the schema.
    private func answerSegment(
        text: String?, content: GeneratedContent?, schema: GenerationSchema?
    ) throws -> (
        Transcript.Segment, GeneratedContent
    ) {
        guard let schema else {
            let answer = text ?? content?.jsonString ?? ""
            return (.text(.init(content: answer)), GeneratedContent(kind: .string(answer)))
        }
        var structured: GeneratedContent
        if let content {
            structured = content
        } else {
            let raw = text ?? ""
            structured = try GeneratedContent(json: raw)
            guard structured.isComplete else {
                throw GeneratedContent.ParsingError(
                    rawContent: raw, debugDescription: "The model's JSON ends before it is complete.")
            }
        }
        let problems = schema.validate(structured)
        guard problems.isEmpty else {
            throw GeneratedContent.ParsingError(
                rawContent: structured.jsonString,
                debugDescription: "The output does not follow the schema \(schema.name): "
                    + problems.map(\.description).joined(separator: "; ") + ".")
        }
        structured.id = GenerationID()
        return (.structure(.init(source: schema.name, content: structured)), structured)
    }
}

/// A tool call whose arguments have been converted, ready to run.
private struct ToolInvocation {
    let run: () async throws -> [Transcript.Segment]

    init(tool: some Tool, arguments: GeneratedContent) throws {
        let converted = try type(of: tool).Arguments(arguments)
        run = { try await tool.output(for: converted) }
    }
}

extension Tool {
    /// Calls the tool and turns its output into transcript segments: generated content (other than a plain
    /// string) becomes a structured segment whose source is the tool's name; anything else its prompt segments.
    fileprivate func output(for arguments: Arguments) async throws -> [Transcript.Segment] {
        let output = try await call(arguments: arguments)
        if !(output is String), let content = output as? any ConvertibleToGeneratedContent {
            return [.structure(Transcript.StructuredSegment(source: name, content: content.generatedContent))]
        }
        return output.promptRepresentation.segments
    }
}
