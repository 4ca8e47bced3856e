// The public request methods: text, schema and typed answers, each awaited (`respond`) or streamed
// (`streamResponse`), each taking a `Prompt`, a `String` or a prompt builder, as Apple's API does.

// MARK: - Text

extension LanguageModelSession {
    /// Answers a prompt with text.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - options: How to generate.
    /// - Returns: The answer and the entries the turn added.
    /// - Throws: `LanguageModelSession.Error.concurrentRequests` when a request is in progress,
    ///   `LanguageModelError` for the model's conditions (context window, rate limit, ...), `ToolCallError` when a
    ///   tool throws, `ToolRoundLimitExceeded`, `CancellationError`, or the backend's own errors. On any error the
    ///   transcript is unchanged. Built with the `FoundationModels26Errors` trait, an error with an Apple 26 form
    ///   is thrown as `LanguageModelSession.GenerationError` instead (docs/porting.md).
    @discardableResult
    public func respond(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions()
    ) async throws
        -> Response<String>
    {
        try await awaitedTurn(textRequest(prompt, options)) { try String($0) }
    }

    /// Answers a prompt with text, giving the backend values besides the conversation.
    ///
    /// Every request of the turn carries `context` (see `GenerationContext`); backends that read nothing from it
    /// answer as `respond(to:options:)` would.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - context: Values for backends that read them, such as the game state for the scripted model.
    ///   - options: How to generate.
    /// - Returns: The answer and the entries the turn added.
    /// - Throws: See `respond(to:options:)` taking a `Prompt`.
    @discardableResult
    public func respond(
        to prompt: Prompt, context: GenerationContext, options: GenerationOptions = GenerationOptions()
    ) async throws
        -> Response<String>
    {
        var request = textRequest(prompt, options)
        request.context = context
        return try await awaitedTurn(request) { try String($0) }
    }

    /// Answers a prompt with text.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - options: How to generate.
    /// - Returns: The answer and the entries the turn added.
    /// - Throws: See `respond(to:options:)` taking a `Prompt`.
    @discardableResult @_disfavoredOverload
    public func respond(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) async throws
        -> Response<String>
    {
        try await respond(to: Prompt(prompt), options: options)
    }

    /// Answers a prompt built with a builder with text.
    ///
    /// - Parameters:
    ///   - options: How to generate.
    ///   - prompt: Statements that build the prompt.
    /// - Returns: The answer and the entries the turn added.
    /// - Throws: See `respond(to:options:)` taking a `Prompt`, and what `prompt` throws.
    @discardableResult
    public func respond(
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<String> {
        try await respond(to: try prompt(), options: options)
    }

    /// Streams a text answer.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the text so far; `collect()` gives the whole response.
    public func streamResponse(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions()
    )
        -> ResponseStream<String>
    {
        stream(
            textRequest(prompt, options),
            snapshot: { text, _ in .init(content: text, rawContent: GeneratedContent(kind: .string(text))) },
            content: { try String($0) })
    }

    /// Streams a text answer, giving the backend values besides the conversation.
    ///
    /// Every request of the turn carries `context` (see `GenerationContext`).
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - context: Values for backends that read them, such as the game state for the scripted model.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the text so far; `collect()` gives the whole response.
    public func streamResponse(
        to prompt: Prompt, context: GenerationContext, options: GenerationOptions = GenerationOptions()
    )
        -> ResponseStream<String>
    {
        var request = textRequest(prompt, options)
        request.context = context
        return stream(
            request,
            snapshot: { text, _ in .init(content: text, rawContent: GeneratedContent(kind: .string(text))) },
            content: { try String($0) })
    }

    /// Streams a text answer.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the text so far; `collect()` gives the whole response.
    @_disfavoredOverload
    public func streamResponse(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    )
        -> ResponseStream<String>
    {
        streamResponse(to: Prompt(prompt), options: options)
    }

    /// Streams a text answer to a prompt built with a builder.
    ///
    /// - Parameters:
    ///   - options: How to generate.
    ///   - prompt: Statements that build the prompt.
    /// - Returns: Snapshots of the text so far; `collect()` gives the whole response.
    /// - Throws: What `prompt` throws.
    public func streamResponse(
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<String> {
        streamResponse(to: try prompt(), options: options)
    }

    private func textRequest(_ prompt: Prompt, _ options: GenerationOptions) -> TurnRequest {
        TurnRequest(prompt: prompt, schema: nil, responseFormat: nil, includeSchemaInPrompt: false, options: options)
    }
}

// MARK: - Schema

extension LanguageModelSession {
    /// Answers a prompt with content that follows a schema.
    ///
    /// The answer must be complete JSON that follows the schema; otherwise the turn fails with
    /// `GeneratedContent.ParsingError` and is rolled back.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - schema: The structure of the answer.
    ///   - includeSchemaInPrompt: Whether to describe the schema to the model, besides constraining its output.
    ///   - options: How to generate.
    /// - Returns: The structured answer and the entries the turn added.
    /// - Throws: See `respond(to:options:)`, and `GeneratedContent.ParsingError` for output that breaks the schema.
    @discardableResult
    public func respond(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<GeneratedContent> {
        try await awaitedTurn(schemaRequest(prompt, schema, includeSchemaInPrompt, options)) { $0 }
    }

    /// Answers a prompt with content that follows a schema.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - schema: The structure of the answer.
    ///   - includeSchemaInPrompt: Whether to describe the schema to the model.
    ///   - options: How to generate.
    /// - Returns: The structured answer and the entries the turn added.
    /// - Throws: See `respond(to:schema:includeSchemaInPrompt:options:)` taking a `Prompt`.
    @discardableResult @_disfavoredOverload
    public func respond(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<GeneratedContent> {
        try await respond(
            to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Answers a prompt built with a builder with content that follows a schema.
    ///
    /// - Parameters:
    ///   - schema: The structure of the answer.
    ///   - includeSchemaInPrompt: Whether to describe the schema to the model.
    ///   - options: How to generate.
    ///   - prompt: Statements that build the prompt.
    /// - Returns: The structured answer and the entries the turn added.
    /// - Throws: See `respond(to:schema:includeSchemaInPrompt:options:)`, and what `prompt` throws.
    @discardableResult
    public func respond(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<GeneratedContent> {
        try await respond(
            to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams content that follows a schema; snapshots hold the partial JSON parsed so far.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - schema: The structure of the answer.
    ///   - includeSchemaInPrompt: Whether to describe the schema to the model.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the content so far; `collect()` gives the whole response.
    public func streamResponse(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<GeneratedContent> {
        stream(
            schemaRequest(prompt, schema, includeSchemaInPrompt, options),
            snapshot: { text, id in
                guard var content = try? GeneratedContent(json: text) else { return nil }
                content.id = id
                return .init(content: content, rawContent: content)
            },
            content: { $0 })
    }

    /// Streams content that follows a schema.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - schema: The structure of the answer.
    ///   - includeSchemaInPrompt: Whether to describe the schema to the model.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the content so far; `collect()` gives the whole response.
    @_disfavoredOverload
    public func streamResponse(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<GeneratedContent> {
        streamResponse(
            to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams content that follows a schema, for a prompt built with a builder.
    ///
    /// - Parameters:
    ///   - schema: The structure of the answer.
    ///   - includeSchemaInPrompt: Whether to describe the schema to the model.
    ///   - options: How to generate.
    ///   - prompt: Statements that build the prompt.
    /// - Returns: Snapshots of the content so far; `collect()` gives the whole response.
    /// - Throws: What `prompt` throws.
    public func streamResponse(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<GeneratedContent> {
        streamResponse(
            to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    private func schemaRequest(
        _ prompt: Prompt, _ schema: GenerationSchema, _ includeSchemaInPrompt: Bool, _ options: GenerationOptions
    ) -> TurnRequest {
        TurnRequest(
            prompt: prompt, schema: schema, responseFormat: Transcript.ResponseFormat(schema: schema),
            includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}

// MARK: - Generable types

extension LanguageModelSession {
    /// Answers a prompt with a value of a `Generable` type.
    ///
    /// ```swift
    /// let offer = try await session.respond(to: "Make me an offer", generating: Offer.self).content
    /// ```
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - type: The type to generate.
    ///   - includeSchemaInPrompt: Whether to describe the type's schema to the model.
    ///   - options: How to generate.
    /// - Returns: The value and the entries the turn added.
    /// - Throws: See `respond(to:options:)`, and `GeneratedContent.ParsingError` for output that does not follow
    ///   the type's schema or does not convert to it.
    @discardableResult
    public func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<Content> {
        try await awaitedTurn(typedRequest(prompt, type, includeSchemaInPrompt, options)) { try Content($0) }
    }

    /// Answers a prompt with a value of a `Generable` type.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - type: The type to generate.
    ///   - includeSchemaInPrompt: Whether to describe the type's schema to the model.
    ///   - options: How to generate.
    /// - Returns: The value and the entries the turn added.
    /// - Throws: See `respond(to:generating:includeSchemaInPrompt:options:)` taking a `Prompt`.
    @discardableResult @_disfavoredOverload
    public func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<Content> {
        try await respond(
            to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Answers a prompt built with a builder with a value of a `Generable` type.
    ///
    /// - Parameters:
    ///   - type: The type to generate.
    ///   - includeSchemaInPrompt: Whether to describe the type's schema to the model.
    ///   - options: How to generate.
    ///   - prompt: Statements that build the prompt.
    /// - Returns: The value and the entries the turn added.
    /// - Throws: See `respond(to:generating:includeSchemaInPrompt:options:)`, and what `prompt` throws.
    @discardableResult
    public func respond<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<Content> {
        try await respond(
            to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a value of a `Generable` type; a snapshot arrives whenever the partial JSON converts to
    /// `Content.PartiallyGenerated`.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - type: The type to generate.
    ///   - includeSchemaInPrompt: Whether to describe the type's schema to the model.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the value so far; `collect()` gives the whole response.
    public func streamResponse<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<Content> {
        stream(
            typedRequest(prompt, type, includeSchemaInPrompt, options),
            snapshot: { text, id in
                guard var raw = try? GeneratedContent(json: text) else { return nil }
                raw.id = id
                guard let partial = try? Content.PartiallyGenerated(raw) else { return nil }
                return .init(content: partial, rawContent: raw)
            },
            content: { try Content($0) })
    }

    /// Streams a value of a `Generable` type.
    ///
    /// - Parameters:
    ///   - prompt: What the user says.
    ///   - type: The type to generate.
    ///   - includeSchemaInPrompt: Whether to describe the type's schema to the model.
    ///   - options: How to generate.
    /// - Returns: Snapshots of the value so far; `collect()` gives the whole response.
    @_disfavoredOverload
    public func streamResponse<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream<Content> {
        streamResponse(
            to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a value of a `Generable` type, for a prompt built with a builder.
    ///
    /// - Parameters:
    ///   - type: The type to generate.
    ///   - includeSchemaInPrompt: Whether to describe the type's schema to the model.
    ///   - options: How to generate.
    ///   - prompt: Statements that build the prompt.
    /// - Returns: Snapshots of the value so far; `collect()` gives the whole response.
    /// - Throws: What `prompt` throws.
    public func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> ResponseStream<Content> {
        streamResponse(
            to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    private func typedRequest<Content: Generable>(
        _ prompt: Prompt, _ type: Content.Type, _ includeSchemaInPrompt: Bool, _ options: GenerationOptions
    ) -> TurnRequest {
        TurnRequest(
            prompt: prompt, schema: Content.generationSchema, responseFormat: Transcript.ResponseFormat(type: type),
            includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}
