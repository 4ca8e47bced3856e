import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Testing

@Suite struct TranscriptFormatTests {
    static let fixtures = [
        "apple-plain-chat", "apple-tool-definitions", "apple-tool-call", "apple-structured-response",
    ]

    @Test(arguments: fixtures)
    func appleFixturesDecodeAndReencodeToEqualJSON(_ name: String) throws {
        let text = try fixture(name)
        let transcript = try JSONDecoder().decode(Transcript.self, from: Data(text.utf8))
        let reencoded = try JSONEncoder().encode(transcript)
        #expect(try JSONValue(parsing: Array(reencoded)) == JSONValue(parsing: text))
        // Parley's own writer gives the same JSON, byte-stable from one run to the next.
        let written = transcript.jsonString()
        #expect(try JSONValue(parsing: written) == JSONValue(parsing: text))
        #expect(try Transcript(json: written).jsonString() == written)
    }

    @Test(arguments: fixtures)
    func appleFixturesRestoreIntoASessionAndContinue(_ name: String) async throws {
        let transcript = try Transcript(json: try fixture(name))
        let model = MockLanguageModel(replies: [.text("Anything else?")])
        let session = LanguageModelSession(model: model, tools: [LookUpStock()], transcript: transcript)
        let response = try await session.respond(to: "Thanks!")
        #expect(response.content == "Anything else?")
        #expect(Array(session.transcript.prefix(transcript.count)) == Array(transcript))
        #expect(session.transcript.count == transcript.count + 2)
        // The model saw the whole restored conversation.
        #expect(Array(try #require(model.requests.first).transcript.prefix(transcript.count)) == Array(transcript))
    }

    @Test func decodedEntriesHaveTheRightShapes() throws {
        let transcript = try Transcript(json: try fixture("apple-tool-call"))
        guard case .instructions(let instructions) = transcript[0] else { Issue.record("not instructions"); return }
        #expect(instructions.toolDefinitions.map(\.name) == ["lookUpStock"])
        #expect(instructions.toolDefinitions[0].parameters.name == "Arguments")
        guard case .toolCalls(let calls) = transcript[2] else { Issue.record("not tool calls"); return }
        #expect(calls.first?.toolName == "lookUpStock")
        #expect(calls.first?.arguments == GeneratedContent(properties: ["item": "hatchet"]))
        guard case .toolOutput(let output) = transcript[3] else { Issue.record("not a tool output"); return }
        #expect(output.id == calls.first?.id)
        #expect(transcript.history.count == 4)

        let structured = try Transcript(json: try fixture("apple-structured-response"))
        guard case .prompt(let prompt) = structured[0], case .response(let response) = structured[1] else {
            Issue.record("unexpected entries"); return
        }
        #expect(prompt.responseFormat?.name == "TradeOffer")
        guard case .structure(let segment) = response.segments.first else { Issue.record("not structured"); return }
        #expect(segment.source == "TradeOffer")
        #expect(
            try TradeOffer(segment.content)
                == TradeOffer(
                    item: "lantern", price: 12,
                    remarks: [
                        "It burns for a whole night.", "Oil not included.",
                    ]))
        // Parley's reader keeps the property order of the document.
        #expect(segment.content.orderedKeys == ["remarks", "item", "price"])
    }

    @Test func everyEntryTypeRoundTripsLosslessly() throws {
        let schema = TradeOffer.generationSchema
        let transcript = Transcript(entries: [
            .instructions(
                .init(
                    segments: [.text(.init(content: "Be Mira."))],
                    toolDefinitions: [
                        Transcript.ToolDefinition(tool: LookUpStock())
                    ])),
            .prompt(
                .init(
                    segments: [.text(.init(content: "Offer?"))],
                    options: GenerationOptions(
                        sampling: .random(top: 40, seed: 18_446_744_073_709_551_615), temperature: 0.7,
                        maximumResponseTokens: 120),
                    responseFormat: .init(schema: schema))),
            .reasoning(
                .init(
                    metadata: ["effort": GeneratedContent(kind: .string("low"))],
                    segments: [
                        .text(.init(content: "They want the lantern."))
                    ], signature: Data([1, 2, 3]))),
            .toolCalls(
                .init([
                    Transcript.ToolCall(
                        id: "c1", toolName: "lookUpStock", arguments: GeneratedContent(properties: ["item": "lantern"]))
                ])),
            .toolOutput(
                .init(
                    id: "c1", toolName: "lookUpStock",
                    segments: [
                        .structure(
                            .init(
                                source: "lookUpStock",
                                content: GeneratedContent(properties: ["price": 12, "note": "ok"])))
                    ])),
            .response(
                .init(
                    assetIDs: ["mock@1"],
                    segments: [
                        .structure(
                            .init(
                                source: "TradeOffer",
                                content: TradeOffer(item: "lantern", price: 12, remarks: []).generatedContent))
                    ])),
            .prompt(.init(segments: [.text(.init(content: "and?"))], options: GenerationOptions(sampling: .greedy))),
            .prompt(.init(segments: [], options: GenerationOptions(sampling: .random(probabilityThreshold: 0.9)))),
        ])
        let json = transcript.jsonString(prettyPrinted: true)
        let decoded = try Transcript(json: json)
        #expect(decoded == transcript)
        #expect(decoded.jsonString(prettyPrinted: true) == json)
        let viaFoundation = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
        #expect(viaFoundation == transcript)
    }

    @Test func unknownKeysAreIgnored() throws {
        let text = #"""
            {"version":"1.1","type":"FoundationModels.Transcript","future":true,"transcript":{"entries":[
             {"id":"a","role":"user","contents":[{"type":"text","id":"b","text":"hi","mood":"glad"}],"options":{},
              "contextOptions":{"reasoningLevel":"light"}}]}}
            """#
        let transcript = try Transcript(json: text)
        #expect(transcript.count == 1)
    }

    @Test(arguments: [
        (
            #"{"version":1,"transcript":{"entries":[{"id":"a","role":"user","contents":[]},{"id":"b"}]}}"#,
            #"Entry 1: "role" is missing (expected instructions, user, response or tool)."#,
            "transcript/entries/1/role"
        ),
        (
            #"{"transcript":{"entries":[{"id":"t","role":"tool","contents":[]}]}}"#,
            #"Entry 0 (role "tool"): "toolName" is missing."#, "transcript/entries/0/toolName"
        ),
        (
            #"{"transcript":{"entries":[{"role":"user"}]}}"#, #"Entry 0 (role "user"): "id" is missing."#,
            "transcript/entries/0/id"
        ),
        (
            #"{"transcript":{"entries":[{"id":"r","role":"response","toolCalls":[{"id":"c","name":"x","arguments":"{\"a\":"}]}]}}"#,
            #"Entry 0 (role "response"): "arguments" is not a complete JSON document: {"a":"#,
            "transcript/entries/0/toolCalls/0/arguments"
        ),
        (
            #"{"transcript":{"entries":[{"id":"r","role":"response","contents":[{"id":"i"}]}]}}"#,
            #"Entry 0 (role "response"): "type" is missing (expected text, structure or a newer type)."#,
            "transcript/entries/0/contents/0/type"
        ),
        (
            #"{"version":2,"transcript":{"entries":[]}}"#,
            "The transcript has format version 2.0, newer than the version 1 Parley reads. Update Parley to read it.",
            "version"
        ),
        (#"{"version":1}"#, #"The transcript has no "entries" array."#, "transcript/entries"),
        // Found by `parley-bench fuzz`: a version too large for an Int crashed the decoder.
        (
            #"{"version":1e300,"transcript":{"entries":[]}}"#,
            "The transcript has format version 1e+300, newer than the version 1 Parley reads. Update Parley to read it.",
            "version"
        ),
        (
            #"{"version":"inf","transcript":{"entries":[]}}"#,
            "The transcript has format version inf, newer than the version 1 Parley reads. Update Parley to read it.",
            "version"
        ),
    ])
    func malformedTranscriptsNameTheEntryAndTheProblem(_ text: String, _ message: String, _ path: String) {
        do {
            _ = try JSONDecoder().decode(Transcript.self, from: Data(text.utf8))
            Issue.record("decoded a malformed transcript")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == message)
            #expect(context.codingPath.map(\.stringValue).joined(separator: "/") == path)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func notJSONSaysWhere() {
        #expect {
            try Transcript(json: "{\"transcript\": [1,}")
        } throws: { error in
            "\(error)".contains("line 1, column 19")
        }
    }

    @Test func descriptionsAreReadable() throws {
        let transcript = try Transcript(json: try fixture("apple-tool-call"))
        #expect(transcript[2].description == #"Tool calls: lookUpStock({"item":"hatchet"})"#)
        #expect(transcript[3].description == "Tool output (lookUpStock): hatchet: 2 in stock, 18 gold each")
        #expect(transcript[4].description == "Response: Eighteen gold, and I have two left.")
        #expect(transcript[0].description.hasSuffix("[tools: lookUpStock]"))
    }
}
