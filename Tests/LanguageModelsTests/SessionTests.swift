import Foundation
import LanguageModels
import LanguageModelsTesting
import Synchronization
import Testing

@Suite struct SessionTests {
    @Test func instructionsBecomeTheFirstEntryWithToolDefinitions() {
        let session = LanguageModelSession(model: MockLanguageModel(replies: []), tools: [LookUpStock()]) {
            "You are Mira."
            "Be brief."
        }
        guard case .instructions(let instructions) = session.transcript.first else {
            Issue.record("no instructions"); return
        }
        #expect(instructions.segments.map(\.description) == ["You are Mira.\nBe brief."])
        #expect(instructions.toolDefinitions.map(\.name) == ["lookUpStock"])
        #expect(instructions.toolDefinitions[0].parameters.jsonSchema["x-order"] == ["item"])
        #expect(LanguageModelSession(model: MockLanguageModel(replies: [])).transcript.isEmpty)
    }

    @Test func twoConcurrentRequestsExactlyOneWins() async throws {
        // The first request's generation waits at a gate, so the second certainly comes while it runs (timing
        // alone is not enough on a loaded machine: the first could finish before the second starts).
        let (gate, open) = AsyncStream<Void>.makeStream()
        let model = MockLanguageModel { _ in
            for await _ in gate { break }
            return .text("first")
        }
        let session = LanguageModelSession(model: model)
        let first = Task { try await session.respond(to: "A").content }
        while !session.isResponding { await Task.yield() }
        await #expect(throws: LanguageModelSession.Error.concurrentRequests) {
            try await session.respond(to: "B")
        }
        open.yield()
        #expect(try await first.value == "first")
        #expect(session.transcript.count == 2)
        #expect(session.transcript.description.contains("Prompt: A"))
        #expect(!session.transcript.description.contains("Prompt: B"))
        #expect(!session.isResponding)
    }

    @Test func isRespondingWhileATurnRuns() async throws {
        // The generation waits at a gate, so the turn is still running when it is checked (with a delay instead, a
        // loaded machine could end the turn before the check, and the check would wait for ever).
        let (gate, open) = AsyncStream<Void>.makeStream()
        let model = MockLanguageModel { _ in
            for await _ in gate { break }
            return .text("done")
        }
        let session = LanguageModelSession(model: model)
        #expect(!session.isResponding)
        let task = Task { try await session.respond(to: "slow") }
        while model.requests.isEmpty { await Task.yield() }
        #expect(session.isResponding)
        open.yield()
        _ = try await task.value
        #expect(!session.isResponding)
    }

    @Test func cancellationRollsTheTurnBack() async throws {
        let model = MockLanguageModel(
            replies: [.toolCall("lookUpStock", arguments: #"{"item":"rope"}"#), .text("never")], delay: .seconds(30))
        let session = LanguageModelSession(model: model, tools: [LookUpStock()], instructions: "x")
        let before = session.transcript
        let task = Task { try await session.respond(to: "slow") }
        while model.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test func aBackendErrorRollsBackAndCanBeRetried() async throws {
        struct ServerDown: Error {}
        let model = MockLanguageModel(replies: [.text("one"), .failure(ServerDown()), .text("two")])
        let session = LanguageModelSession(model: model, instructions: "x")
        try await session.respond(to: "1")
        let before = session.transcript
        await #expect(throws: ServerDown.self) { try await session.respond(to: "2") }
        #expect(session.transcript == before)
        #expect(try await session.respond(to: "2").content == "two")
        #expect(responseTexts(session.transcript) == ["one", "two"])
    }

    @Test func theContextIsCheckedBeforeTheBackendIsCalled() async throws {
        let model = MockLanguageModel(contextSize: 50, replies: [.text("never")])
        let session = LanguageModelSession(model: model, instructions: "Short.")
        let prompt = String(repeating: "x", count: 400)  // 100 tokens by the mock's rule
        do {
            try await session.respond(to: prompt)
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let info) {
            // instructions: 4 + 2; prompt: 4 + 100
            #expect(info.tokenCount == 110)
            #expect(info.contextSize == 50)
        }
        #expect(model.requests.isEmpty)
        #expect(session.transcript.count == 1)
    }

    @Test func maximumResponseTokensIsReservedInTheContextCheck() async throws {
        let model = MockLanguageModel(contextSize: 30, replies: [.text("ok"), .text("ok")])
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "hi", options: GenerationOptions(maximumResponseTokens: 10))
        await #expect(throws: LanguageModelError.self) {
            try await session.respond(to: "hi", options: GenerationOptions(maximumResponseTokens: 40))
        }
    }

    @Test func tokenCountOverloadsFollowTheDocumentedRule() async throws {
        let model = MockLanguageModel(replies: [])
        #expect(try await model.tokenCount(for: Prompt("12345678")) == 4 + 2)
        #expect(try await model.tokenCount(for: Instructions("1234")) == 4 + 1)
        let tools: [any Tool] = [LookUpStock()]
        let definition = Transcript.ToolDefinition(tool: LookUpStock())
        let toolBytes = (definition.name + definition.description + definition.parameters.jsonSchema.jsonString()).utf8
            .count
        #expect(try await model.tokenCount(for: tools) == 4 + (toolBytes + 3) / 4)
        #expect(try await model.tokenCount(for: TradeOffer.generationSchema) > 10)
    }

    @Test func responsesRecordTheModelIdentity() async throws {
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.text("hi")], id: "scripted", version: "abc"))
        let response = try await session.respond(to: "hello")
        guard case .response(let entry) = response.transcriptEntries.last else { Issue.record("no response"); return }
        #expect(entry.assetIDs == ["scripted@abc"])
    }

    @Test func reasoningIsRecordedBeforeTheResponse() async throws {
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.reasoning("They seem honest.", then: .text("Deal."))]))
        let response = try await session.respond(to: "Deal?")
        #expect(
            response.transcriptEntries.map(\.description) == [
                "Prompt: Deal?", "Reasoning: They seem honest.", "Response: Deal.",
            ])
    }

    @Test func optionsAreRecordedInThePromptEntry() async throws {
        let session = LanguageModelSession(model: MockLanguageModel(replies: [.text("ok")]))
        let options = GenerationOptions(sampling: .random(top: 5, seed: 9), temperature: 0.3)
        let response = try await session.respond(to: "hi", options: options)
        guard case .prompt(let prompt) = response.transcriptEntries.first else { Issue.record("no prompt"); return }
        #expect(prompt.options == options)
    }

    @Test func transcriptSetWhileRespondingKeepsTheTurn() async throws {
        // The second turn's generation waits at a gate until the transcript has been trimmed.
        let (gate, open) = AsyncStream<Void>.makeStream()
        let model = MockLanguageModel { request in
            guard case .prompt(let prompt)? = request.transcript.last else { return .text("no prompt") }
            let words = prompt.segments.map(\.description).joined()
            if words == "2" { for await _ in gate { break } }
            return .text(words == "1" ? "a" : "b")
        }
        let session = LanguageModelSession(model: model, instructions: "x")
        try await session.respond(to: "1")
        let task = Task { try await session.respond(to: "2") }
        while model.requests.count < 2 { await Task.yield() }
        session.transcript = Transcript(entries: session.transcript.prefix(1))  // trim while the turn runs
        open.yield()
        _ = try await task.value
        #expect(session.transcript.map(\.description) == ["Instructions: x", "Prompt: 2", "Response: b"])
    }

    @Test func usageAccumulates() async throws {
        struct Counting: LanguageModel {
            let id = "counting"
            let version = "1"
            var contextSize: Int { 1000 }
            func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int { entries.count }
            func tokenCount(for schema: GenerationSchema) async throws -> Int { 1 }
            func generate(_ request: GenerationRequest) async throws -> Generation {
                Generation(
                    output: .text("ok"),
                    usage: GenerationUsage(promptTokens: 10, cachedPromptTokens: 8, completionTokens: 2))
            }
        }
        let session = LanguageModelSession(model: Counting())
        let first = try await session.respond(to: "a")
        #expect(first.generationUsage == GenerationUsage(promptTokens: 10, cachedPromptTokens: 8, completionTokens: 2))
        #expect(first.usage.input == .init(totalTokenCount: 10, cachedTokenCount: 8))
        #expect(first.usage.output == .init(totalTokenCount: 2, reasoningTokenCount: 0))
        try await session.respond(to: "b")
        #expect(session.generationUsage == GenerationUsage(promptTokens: 20, cachedPromptTokens: 16, completionTokens: 4))
        #expect(session.usage.input.totalTokenCount == 20 && session.usage.input.cachedTokenCount == 16)
        #expect(session.usage.output.totalTokenCount == 4 && session.usage.totalTokenCount == 24)
        // A backend that only implements generate also streams, through the default.
        let streamed = try await session.streamResponse(to: "c").collect()
        #expect(streamed.content == "ok")
    }
}

@Suite struct ModelAvailabilityTests {
    @Test func theMockSaysWhatATestSetsAndAppleStyleChecksCompile() {
        let model = MockLanguageModel(contextSize: 512, replies: [])
        #expect(model.isAvailable)
        #expect(model.knownContextSize == 512)
        model.availability = .unavailable(.modelNotReady)
        let shown: String
        switch model.availability {
        case .available: shown = "ready"
        case .unavailable(let reason): shown = "\(reason)"
        }
        #expect(shown == "the model is not ready yet (loading); try again in a moment")
        #expect(!model.isAvailable)
        #expect(model.availability.description.hasPrefix("unavailable: "))
    }

    @Test func aBackendThatSaysNothingIsAvailableWithNoKnownContextSize() {
        struct Minimal: LanguageModel {
            let id = "minimal"
            let version = "1"
            var contextSize: Int { get async throws { 100 } }
            func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int { entries.count }
            func tokenCount(for schema: GenerationSchema) async throws -> Int { 1 }
            func generate(_ request: GenerationRequest) async throws -> Generation { Generation(output: .text("ok")) }
        }
        #expect(Minimal().availability == .available)
        #expect(Minimal().isAvailable)
        #expect(Minimal().knownContextSize == nil)
    }
}
