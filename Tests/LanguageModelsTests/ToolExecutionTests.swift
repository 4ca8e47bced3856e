import LanguageModels
import LanguageModelsTesting
import Synchronization
import Testing

/// The app's hook into the tool loop: each decision, what the model sees of it, and what the transcript keeps.
@Suite struct ToolExecutionTests {
    /// A delegate that answers from a table by tool name and records what it was asked.
    final class Recorder: ToolExecutionDelegate {
        let decisions: [String: ToolExecutionDecision]
        let asked = Mutex<[String]>([])

        init(_ decisions: [String: ToolExecutionDecision]) { self.decisions = decisions }

        func toolCallDecision(
            for toolCall: Transcript.ToolCall, in session: LanguageModelSession
        ) async
            -> ToolExecutionDecision
        {
            asked.withLock { $0.append("\(toolCall.toolName) \(toolCall.arguments.jsonString)") }
            return decisions[toolCall.toolName] ?? .run
        }
    }

    static func outputs(_ entries: some Sequence<Transcript.Entry>) -> [(id: String, text: String)] {
        entries.compactMap { entry in
            guard case .toolOutput(let output) = entry else { return nil }
            return (output.id, output.segments.map(\.description).joined())
        }
    }

    @Test func aRunDecisionRunsTheTool() async throws {
        let tool = LookUpStock()
        let model = MockLanguageModel(replies: [.toolCall("lookUpStock", arguments: #"{"item":"rope"}"#), .text("3.")])
        let session = LanguageModelSession(model: model, tools: [tool])
        let recorder = Recorder([:])
        session.toolExecutionDelegate = recorder
        let response = try await session.respond(to: "Rope?")
        #expect(response.content == "3.")
        #expect(tool.log.items == ["rope"])
        #expect(recorder.asked.withLock { $0 } == [#"lookUpStock {"item":"rope"}"#])
        #expect(Self.outputs(response.transcriptEntries).map(\.text) == ["rope: 3 gold"])
    }

    @Test func aDeniedCallDoesNotRunAndTheModelIsToldWhy() async throws {
        let tool = LookUpStock()
        let model = MockLanguageModel(replies: [
            .toolCalls([.init(name: "lookUpStock", arguments: #"{"item":"rope"}"#, id: "c1")]),
            .text("I cannot look that up."),
        ])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.toolExecutionDelegate = Recorder(["lookUpStock": .deny(reason: "The shop is closed.")])
        let response = try await session.respond(to: "Rope?")
        #expect(tool.log.items.isEmpty)
        let outputs = Self.outputs(response.transcriptEntries)
        #expect(outputs.map(\.id) == ["c1"])
        #expect(outputs.first?.text.contains("did not allow") == true)
        #expect(outputs.first?.text.hasSuffix("The shop is closed.") == true)
        // The model's second request ends with that output, so it could answer knowing the call was refused.
        guard case .toolOutput(let seen)? = model.requests.last?.transcript.last else {
            Issue.record("the model did not see the output"); return
        }
        #expect(seen.id == "c1")
        #expect(response.content == "I cannot look that up.")
        #expect(session.transcript.count == 5)  // instructions (tool definitions), prompt, calls, output, response
    }

    @Test func anOutputTheAppProvidesIsUsedInsteadOfTheTools() async throws {
        let tool = LookUpStock()
        let model = MockLanguageModel(replies: [.toolCall("lookUpStock", arguments: #"{"item":"sword"}"#), .text("OK")])
        let session = LanguageModelSession(model: model, tools: [tool])
        session.toolExecutionDelegate = ToolCallDecider { call in
            .provideOutput([.text(.init(content: "sword: 40 gold (from the app)"))])
        }
        let response = try await session.respond(to: "Sword?")
        #expect(tool.log.items.isEmpty)
        #expect(Self.outputs(response.transcriptEntries).map(\.text) == ["sword: 40 gold (from the app)"])
        #expect(Self.outputs(model.requests[1].transcript).map(\.text) == ["sword: 40 gold (from the app)"])
    }

    @Test func stopEndsTheTurnWithoutAskingTheModelAgain() async throws {
        let tool = LookUpStock()
        let model = MockLanguageModel(replies: [
            .toolCalls([
                .init(name: "lookUpStock", arguments: #"{"item":"rope"}"#, id: "c1"),
                .init(name: "appraise", arguments: #"{"item":"ring"}"#, id: "c2"),
                .init(name: "lookUpStock", arguments: #"{"item":"lantern"}"#, id: "c3"),
            ]),
            .text("never asked"),
        ])
        let session = LanguageModelSession(model: model, tools: [tool, Appraise()], instructions: "x")
        let recorder = Recorder(["appraise": .stop])
        session.toolExecutionDelegate = recorder
        let response = try await session.respond(to: "Rope and ring?")
        #expect(model.requests.count == 1)
        #expect(response.content == "")
        // The first call ran; the stop and every later call did not, and the delegate was not asked again.
        #expect(tool.log.items == ["rope"])
        #expect(recorder.asked.withLock { $0.count } == 2)
        let outputs = Self.outputs(response.transcriptEntries)
        #expect(outputs.map(\.id) == ["c1", "c2", "c3"])
        #expect(outputs[1].text.contains("stopped the turn") && outputs[2].text.contains("stopped the turn"))
        // The turn is kept: prompt, calls, outputs, and no response entry.
        #expect(session.transcript.count == 1 + response.transcriptEntries.count)
        guard case .toolOutput? = session.transcript.last else { Issue.record("\(session.transcript)"); return }
        #expect(!session.isResponding)
        // The session answers the next prompt as usual.
        let next = try await session.respond(to: "And now?")
        #expect(next.content == "never asked")
    }

    @Test func stopInAStreamAndInATypedTurn() async throws {
        let model = MockLanguageModel(replies: [
            .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#),
            .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#),
        ])
        let session = LanguageModelSession(model: model, tools: [LookUpStock()])
        session.toolExecutionDelegate = ToolCallDecider { _ in .stop }
        let streamed = try await session.streamResponse(to: "Rope?").collect()
        #expect(streamed.content == "")
        #expect(streamed.transcriptEntries.count == 3)
        do {
            _ = try await session.respond(to: "Offer?", generating: TradeOffer.self)
            Issue.record("a typed turn that stopped has no value")
        } catch let stopped as LanguageModelSession.ToolExecutionStopped {
            #expect(stopped.transcriptEntries.count == 3)
            #expect(Array(session.transcript.suffix(3)) == Array(stopped.transcriptEntries))
        }
        #expect(session.transcript.count == 7)  // instructions and two stopped turns
    }

    @Test func withoutADelegateEveryCallRuns() async throws {
        let tool = LookUpStock()
        let model = MockLanguageModel(replies: [.toolCall("lookUpStock", arguments: #"{"item":"rope"}"#), .text("ok")])
        let session = LanguageModelSession(model: model, tools: [tool])
        #expect(session.toolExecutionDelegate == nil)
        try await session.respond(to: "Rope?")
        #expect(tool.log.items == ["rope"])
    }
}
