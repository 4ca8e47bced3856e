import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Testing

/// Transcripts a newer framework wrote: what this version does not know is kept and written back, never an error.
@Suite struct TranscriptToleranceTests {
    static let fixtures = ["apple-27-tools-and-attachments", "apple-26-flat-options"] + TranscriptFormatTests.fixtures

    @Test("Every fixture reads, writes back the same JSON, and writes the same bytes from then on", arguments: fixtures)
    func byteStableRoundTrip(_ name: String) throws {
        let text = try fixture(name)
        let first = try Transcript(json: text).jsonString()
        #expect(try JSONValue(parsing: first) == JSONValue(parsing: text))
        let second = try Transcript(json: first).jsonString()
        #expect(second == first)
        // The Codable path writes the same.
        let coded = try JSONEncoder().encode(try JSONDecoder().decode(Transcript.self, from: Data(text.utf8)))
        #expect(try JSONValue(parsing: Array(coded)) == JSONValue(parsing: text))
    }

    @Test("An unknown role and an unknown segment type are visible as .unknown, with their JSON")
    func unknownCasesAreVisible() throws {
        let transcript = try Transcript(json: try fixture("apple-27-tools-and-attachments"))
        let unknownRoles = transcript.compactMap { entry -> String? in
            if case .unknown(let unknown) = entry { return unknown.role }
            return nil
        }
        #expect(unknownRoles == ["summary"])
        guard case .unknown(let summary) = transcript[6] else { Issue.record("entry 6 is not unknown"); return }
        #expect(summary.id == "27000000-0000-4000-8000-00000000000b")
        #expect(summary.json["coveredEntries"]?.arrayValue?.count == 1)

        guard case .prompt(let prompt) = transcript[1] else { Issue.record("entry 1 is not a prompt"); return }
        #expect(prompt.segments.count == 2)
        guard case .unknown(let attachment) = prompt.segments[1] else { Issue.record("no unknown segment"); return }
        #expect(attachment.type == "attachment")
        #expect(attachment.id == "27000000-0000-4000-8000-000000000005")
        #expect(attachment.json["label"]?.stringValue == "broken hatchet")
        #expect(attachment.description == "[attachment]")
        // The model is not shown the attachment as text.
        #expect(prompt.segments.map(\.description) == ["What would two hatchets cost? Here is the one I broke.", ""])
    }

    @Test("Several tool calls in one entry, a structured tool output and a reasoning entry decode")
    func toolsAndReasoning() throws {
        let transcript = try Transcript(json: try fixture("apple-27-tools-and-attachments"))
        guard case .instructions(let instructions) = transcript[0] else { Issue.record("no instructions"); return }
        #expect(instructions.toolDefinitions.map(\.name) == ["lookUpStock", "quotePrice"])
        guard case .toolCalls(let calls) = transcript[2] else { Issue.record("no tool calls"); return }
        #expect(calls.map(\.id) == ["call-stock", "call-price"])
        #expect(calls[1].arguments == GeneratedContent(properties: ["item": "hatchet", "quantity": 2]))
        guard case .toolOutput(let output) = transcript[4], case .structure(let structure) = output.segments.first
        else { Issue.record("no structured tool output"); return }
        #expect(output.id == "call-price")
        #expect(structure.source == "quotePrice")
        #expect(try structure.content.value(Int.self, forProperty: "gold") == 18)
        guard case .reasoning(let reasoning) = transcript[5] else { Issue.record("no reasoning"); return }
        #expect(reasoning.metadata["effort"] == GeneratedContent("light"))
    }

    @Test("Options read in Apple 27's nested form and in the flat form mean the same, and are written nested")
    func optionsInBothForms() throws {
        let expected = GenerationOptions(
            samplingMode: .random(top: 40, seed: 7), temperature: 0.6, maximumResponseTokens: 120,
            toolCallingMode: .required)
        let nested = try Transcript(json: try fixture("apple-27-tools-and-attachments"))
        let flat = try Transcript(json: try fixture("apple-26-flat-options"))
        guard case .prompt(let nestedPrompt) = nested[1], case .prompt(let flatPrompt) = flat[1],
            case .prompt(let greedyPrompt) = flat[3]
        else { Issue.record("no prompts"); return }
        #expect(nestedPrompt.options == expected)
        #expect(flatPrompt.options == expected)
        #expect(greedyPrompt.options == GenerationOptions(samplingMode: .greedy))
        #expect(nestedPrompt.options.samplingMode == nestedPrompt.options.sampling)

        // Built in code, the same options are written in Apple 27's form.
        let built = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(content: "hi"))], options: expected))])
        let options = try #require(try JSONValue(parsing: built.jsonString())["transcript"]?["entries"]?[0]?["options"])
        #expect(
            options
                == [
                    "samplingMode": ["kind": "topK", "topK": 40, "randomSeed": 7], "temperature": 0.6,
                    "maximumResponseTokens": 120, "toolCallingMode": "required",
                ])
        // Older Parley saves wrote `sampling` with `mode`, `k` and `seed`; they still read.
        let old = try Transcript(
            json: #"{"transcript":{"entries":[{"id":"p","role":"user","contents":[],"options":{"sampling":{"mode":"topK","k":40,"seed":7},"temperature":0.6,"maximumResponseTokens":120}}]}}"#)
        guard case .prompt(let oldPrompt) = old[0] else { Issue.record("no prompt"); return }
        #expect(oldPrompt.options == GenerationOptions(samplingMode: .random(top: 40, seed: 7), temperature: 0.6, maximumResponseTokens: 120))
    }

    @Test("A sampling kind or tool calling mode a newer framework adds reads as the default and is written back")
    func unknownOptionValues() throws {
        let text =
            #"{"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[{"id":"p","role":"user","contents":[],"options":{"samplingMode":{"kind":"minP","minP":0.1},"toolCallingMode":"auto","seed":3}}]}}"#
        let transcript = try Transcript(json: text)
        guard case .prompt(let prompt) = transcript[0] else { Issue.record("no prompt"); return }
        #expect(prompt.options.sampling == nil)
        #expect(prompt.options.toolCallingMode == nil)
        #expect(try JSONValue(parsing: transcript.jsonString()) == JSONValue(parsing: text))
    }

    @Test("An entry changed in code keeps the members this version does not know: contextOptions, metadata")
    func changedEntriesKeepUnknownMembers() throws {
        var transcript = try Transcript(json: try fixture("apple-27-tools-and-attachments"))
        guard case .prompt(var prompt) = transcript[1] else { Issue.record("no prompt"); return }
        prompt.options.temperature = 0.2
        prompt.segments[0] = .text(.init(id: "27000000-0000-4000-8000-000000000004", content: "Just one hatchet."))
        var entries = Array(transcript)
        entries[1] = .prompt(prompt)
        transcript = Transcript(entries: entries)
        let written = try JSONValue(parsing: transcript.jsonString())
        let entry = try #require(written["transcript"]?["entries"]?[1])
        #expect(entry["contextOptions"] == ["reasoningLevel": "light"])
        #expect(entry["metadata"] == ["questStage": "smithy"])
        #expect(entry["options"]?["temperature"] == 0.2)
        #expect(entry["contents"]?[0]?["text"] == "Just one hatchet.")
        // The attachment is still there, unchanged.
        #expect(entry["contents"]?[1]?["type"] == "attachment")
        #expect(entry["contents"]?[1]?["attachment"]?["image"]?["format"] == "png")
    }

    @Test("The transcript's version and members it does not know are written back around its entries")
    func transcriptLevelMembers() throws {
        let text = #"{"version":"1.1","type":"FoundationModels.Transcript","future":{"a":1},"transcript":{"entries":[],"pages":2}}"#
        let transcript = try Transcript(json: text)
        let written = transcript.jsonString()
        #expect(try JSONValue(parsing: written) == JSONValue(parsing: text))
        #expect(written.hasPrefix(#"{"version":"1.1","type":"FoundationModels.Transcript","transcript":{"entries":[]"#))
        // A transcript built in code writes version 1.
        #expect(Transcript().jsonString().hasPrefix(#"{"version":1,"#))
    }

    @Test("A restored transcript with unknown entries continues; the model is not sent them")
    func unknownEntriesAreNotSentToModels() async throws {
        let transcript = try Transcript(json: try fixture("apple-27-tools-and-attachments"))
        let model = MockLanguageModel(replies: [.text("Anything else?")])
        let session = LanguageModelSession(model: model, transcript: transcript)
        _ = try await session.respond(to: "Thanks!")
        #expect(session.transcript.count == transcript.count + 2)
        guard case .unknown = session.transcript[6] else { Issue.record("the unknown entry was lost"); return }
        #expect(try JSONValue(parsing: session.transcript.jsonString())["transcript"]?["entries"]?[6]
            == JSONValue(parsing: try fixture("apple-27-tools-and-attachments"))["transcript"]?["entries"]?[6])
    }
}
