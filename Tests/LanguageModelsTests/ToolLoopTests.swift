import Foundation
import LanguageModels
import LanguageModelsTesting
import Testing

@Suite struct ToolLoopTests {
    @Test func severalCallsAreRunInOrderAndRecorded() async throws {
        let stock = LookUpStock()
        let model = MockLanguageModel(replies: [
            .toolCalls([
                .init(name: "lookUpStock", arguments: #"{"item":"lantern"}"#),
                .init(name: "lookUpStock", arguments: #"{"item":"rope"}"#),
            ]),
            .toolCall("appraise", arguments: #"{"item":"lantern"}"#),
            .text("Lantern 12, rope 3."),
        ])
        let session = LanguageModelSession(model: model, tools: [stock, Appraise()], instructions: "Merchant.")
        let response = try await session.respond(to: "Prices?")
        #expect(response.content == "Lantern 12, rope 3.")
        #expect(stock.log.items == ["lantern", "rope"])
        let kinds = response.transcriptEntries.map { entry -> String in
            switch entry {
            case .prompt: "prompt"
            case .toolCalls(let calls): "calls:\(calls.count)"
            case .toolOutput(let output): "output:\(output.toolName)"
            case .response: "response"
            default: "other"
            }
        }
        #expect(
            kinds == [
                "prompt", "calls:2", "output:lookUpStock", "output:lookUpStock", "calls:1", "output:appraise",
                "response",
            ])
        // Output ids are the call ids.
        let calls = response.transcriptEntries.compactMap {
            if case .toolCalls(let c) = $0 { return Array(c) } else { return nil }
        }.flatMap { $0 }
        let outputs = response.transcriptEntries.compactMap {
            if case .toolOutput(let o) = $0 { return o } else { return nil }
        }
        #expect(calls.map(\.id) == outputs.map(\.id))
        #expect(outputs[0].segments.map(\.description) == ["lantern: 12 gold"])
        // A structured tool output is recorded as structured content sourced from the tool.
        guard case .structure(let structure) = outputs[2].segments.first else { Issue.record("not structured"); return }
        #expect(structure.source == "appraise")
        #expect(structure.content.jsonString == #"{"item":"lantern","value":40}"#)
        // Each request after a tool round carried the outputs back to the model.
        #expect(model.requests.count == 3)
        #expect(model.requests[1].transcript.last?.description == "Tool output (lookUpStock): rope: 3 gold")
        #expect(model.requests[0].tools.map(\.name) == ["lookUpStock", "appraise"])
    }

    @Test func anUnknownToolGoesBackToTheModel() async throws {
        let model = MockLanguageModel(replies: [.toolCall("summonDragon"), .text("Sorry, I can't do that.")])
        let session = LanguageModelSession(model: model, tools: [LookUpStock()])
        let response = try await session.respond(to: "Summon a dragon")
        #expect(response.content == "Sorry, I can't do that.")
        let output = try #require(response.transcriptEntries.first { if case .toolOutput = $0 { true } else { false } })
        #expect(
            output.description
                == #"Tool output (summonDragon): There is no tool named "summonDragon". Available tools: lookUpStock."#)
    }

    @Test func invalidArgumentsGoBackToTheModel() async throws {
        let stock = LookUpStock()
        let model = MockLanguageModel(replies: [
            .toolCall("lookUpStock", arguments: #"{"thing": 3}"#), .text("Which item?"),
        ])
        let session = LanguageModelSession(model: model, tools: [stock])
        let response = try await session.respond(to: "Price?")
        #expect(response.content == "Which item?")
        #expect(stock.log.items.isEmpty)
        let output = try #require(response.transcriptEntries.first { if case .toolOutput = $0 { true } else { false } })
        #expect(output.description.contains(#"the property "item" is missing"#))
    }

    @Test func aThrowingToolEndsTheTurnWithToolCallErrorAndRollsBack() async throws {
        let model = MockLanguageModel(replies: [.toolCall("brokenTool"), .text("unreachable")])
        let session = LanguageModelSession(model: model, tools: [BrokenTool()], instructions: "x")
        let before = session.transcript
        do {
            try await session.respond(to: "Break it")
            Issue.record("no error")
        } catch let error as LanguageModelSession.ToolCallError {
            #expect(error.tool.name == "brokenTool")
            #expect(error.underlyingError is BrokenTool.Failure)
            #expect(error.description.contains("brokenTool"))
        }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
        #expect(session.rolledBackEntries.count == 2)  // the prompt and the tool calls
    }

    @Test func anEndlessLoopStopsAtTheRoundLimit() async throws {
        let model = MockLanguageModel { _ in .toolCall("lookUpStock", arguments: #"{"item":"rope"}"#) }
        let session = LanguageModelSession(model: model, tools: [LookUpStock()])
        session.maximumToolRounds = 5
        let before = session.transcript
        await #expect(throws: LanguageModelSession.ToolRoundLimitExceeded.self) {
            try await session.respond(to: "Loop")
        }
        #expect(model.requests.count == 6)
        #expect(session.transcript == before)
        // The session is usable afterwards.
        let fixed = LanguageModelSession(
            model: MockLanguageModel(replies: [.text("ok")]), transcript: session.transcript)
        #expect(try await fixed.respond(to: "again").content == "ok")
    }
}
