import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite
import SaveGames
import Testing

/// Conversations go into a save and come back byte for byte in Apple's JSON, whatever their entries hold.
@Suite struct RoundTripTests {
    /// The kinds of entry, for the per-kind test.
    static let kinds = ["instructions", "prompt", "toolCalls", "toolOutput", "reasoning", "response"]

    @Test("Every kind of entry survives a full save byte for byte", arguments: kinds)
    func everyKindSurvivesAFullSave(_ kind: String) throws {
        let entries = SampleTranscripts.entries("k").filter { Self.kind(of: $0) == kind }
        try #require(!entries.isEmpty)
        let conversation = AnnotatedTranscript(transcript: Transcript(entries: entries), annotations: ["npc": "mira"])
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(
                SaveSnapshot(state: SaveTestWorld.pack().initialState, conversations: ["mira": conversation]))
            let loaded = try #require(try save.transcript(npc: "mira"))
            #expect(loaded.transcript.jsonString() == conversation.transcript.jsonString())
            #expect(loaded == conversation)
            // The file holds each entry's Apple JSON exactly as the entry encodes.
            let stored = try Self.storedJSON(save.url, npc: "mira")
            #expect(stored == entries.map { $0.jsonString() })
        }
    }

    @Test("A conversation saved by autosaves, turn after turn, reads back as the same transcript and annotations")
    func autosavedTurnsRoundTrip() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            let state = SaveTestWorld.pack().initialState
            try save.writeFull(SaveSnapshot(state: state))
            var conversation = SampleTranscripts.conversation("mira")
            var summary = try save.autosave(
                SaveDelta(state: state, conversations: ["mira": conversation], playTime: .seconds(1)))
            #expect(summary.entriesAppended == 7)
            for turn in 1...5 {
                conversation = SampleTranscripts.continuing(conversation, npc: "mira", turn: turn)
                summary = try save.autosave(
                    SaveDelta(state: state, conversations: ["mira": conversation], playTime: .seconds(turn + 1)))
                #expect(summary.entriesAppended == 6)
                #expect(summary.rewrittenConversations == [])
            }
            let loaded = try #require(try save.transcript(npc: "mira"))
            #expect(loaded.transcript.jsonString() == conversation.transcript.jsonString())
            #expect(loaded.jsonString() == conversation.jsonString())
            #expect(try save.conversationLengths() == ["mira": 37])
        }
    }

    @Test("Saving on the save's own thread (asyncWriteFull, asyncAutosave) writes exactly what the synchronous calls do")
    func asyncSavesWriteTheSame() async throws {
        try await withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let blocking = try store.open(slot: "blocking")
            let async = try store.open(slot: "async")
            let state = SaveTestWorld.pack().initialState
            try blocking.writeFull(SaveSnapshot(state: state))
            try await async.asyncWriteFull(SaveSnapshot(state: state))
            var conversation = SampleTranscripts.conversation("mira")
            for turn in 0...4 {
                if turn > 0 { conversation = SampleTranscripts.continuing(conversation, npc: "mira", turn: turn) }
                let delta = SaveDelta(state: state, conversations: ["mira": conversation], playTime: .seconds(turn + 1))
                let expected = try blocking.autosave(delta)
                let summary = try await async.asyncAutosave(delta)
                #expect(summary == expected)
                #expect(summary.entriesAppended > 0)
            }
            #expect(try async.transcript(npc: "mira")?.jsonString() == conversation.jsonString())
            #expect(try async.conversationLengths() == blocking.conversationLengths())
            #expect(try Self.storedJSON(async.url, npc: "mira") == Self.storedJSON(blocking.url, npc: "mira"))
            #expect(try async.metadata().playTime == blocking.metadata().playTime)
        }
    }

    @Test(
        "Transcripts that Apple's framework wrote survive a save byte for byte",
        arguments: ["apple-plain-chat", "apple-structured-response", "apple-tool-call", "apple-tool-definitions",
            "apple-27-tools-and-attachments", "apple-26-flat-options",
        ])
    func appleTranscripts(_ name: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/LanguageModelsTests/Fixtures/\(name).json")
        let transcript = try Transcript(jsonData: try Data(contentsOf: url))
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder).open(slot: "apple")
            try save.writeFull(
                SaveSnapshot(
                    state: SaveTestWorld.pack().initialState,
                    conversations: ["mira": AnnotatedTranscript(transcript: transcript)]))
            let loaded = try #require(try save.transcript(npc: "mira"))
            // Every entry, byte for byte, including what this version does not know (docs/transcript-format.md).
            #expect(loaded.transcript.map { $0.jsonString() } == transcript.map { $0.jsonString() })
            #expect(loaded.transcript == transcript)
            // The wrapper is written anew, at version 1; an Apple file of version 1 comes back the same bytes.
            if try JSONValue(parsing: transcript.jsonString())["version"] == 1 {
                #expect(loaded.transcript.jsonString() == transcript.jsonString())
            }
        }
    }

    @Test("One entry encodes to the same object a whole transcript holds, and decodes back to the same bytes")
    func entryJSON() throws {
        let entries = SampleTranscripts.entries("e")
        let transcript = Transcript(entries: entries)
        let whole = try JSONValueParsing.entries(of: transcript.jsonString())
        #expect(whole == entries.map { $0.jsonString() })
        for entry in entries {
            let again = try Transcript.Entry(json: entry.jsonString())
            #expect(again == entry)
            #expect(again.jsonString() == entry.jsonString())
        }
        #expect(throws: DecodingError.self) { try Transcript.Entry(json: #"{"id": "x", "role": "tool"}"#) }
        #expect(throws: DecodingError.self) { try Transcript.Entry(json: "not json") }
    }

    // MARK: - Helpers

    static func kind(of entry: Transcript.Entry) -> String {
        switch entry {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .toolCalls: "toolCalls"
        case .toolOutput: "toolOutput"
        case .response: "response"
        case .reasoning: "reasoning"
        case .unknown: "unknown"
        }
    }

    /// The `json` column of an NPC's entries, in order, read with plain SQLite.
    static func storedJSON(_ url: URL, npc: String) throws -> [String] {
        let db = try Database(path: url.path, options: DatabaseOptions(access: .readOnly))
        return try db.query("SELECT json FROM transcript_entries WHERE npc = ? ORDER BY position", [npc]).map {
            try $0.get(0)
        }
    }
}
