import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite
import SaveGames
import Testing

/// Saves of every released schema load; unusable files give their clear error and are left as they were.
@Suite(.serialized) struct FixtureTests {
    @Test("Recording: missing fixtures are written when PARLEY_RECORD_FIXTURES=1")
    func record() throws {
        guard SaveFixtures.isRecording else { return }
        let current = SaveFixtures.schemaFixture(version: SaveGameStore.schemaVersion)
        if !FileManager.default.fileExists(atPath: current.path) {
            try withTemporaryDirectory { folder in
                let file = try SaveFixtures.generate(in: folder)
                #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
                try Data(contentsOf: file).write(to: current)
            }
        }
        try SaveFixtures.recordUnusable()
    }

    @Test("There is a fixture for every schema version", arguments: 1...SaveGameStore.schemaVersion)
    func everySchemaVersionHasAFixture(_ version: Int) {
        #expect(
            FileManager.default.fileExists(atPath: SaveFixtures.schemaFixture(version: version).path),
            "record it with PARLEY_RECORD_FIXTURES=1 when the version ships")
    }

    @Test(
        "A save of every released schema version opens (upgraded) and loads in full",
        arguments: 1...SaveGameStore.schemaVersion)
    func schemaVersionLoads(_ version: Int) throws {
        let fixture = SaveFixtures.schemaFixture(version: version)
        try withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("slot.parley")
            try FileManager.default.copyItem(at: fixture, to: copy)
            // Read-only first: upgraded in a private copy, the file untouched.
            let before = try Data(contentsOf: copy)
            let store = SaveGameStore(folder: folder)
            try check(try store.open(slot: "slot", access: .readOnly))
            #expect(try Data(contentsOf: copy) == before)
            // Then read-write: upgraded in place.
            let save = try store.open(slot: "slot")
            try check(save)
            #expect(try save.metadata().schemaVersion == SaveGameStore.schemaVersion)
            #expect(try save.integrityCheck() == [])
        }

        func check(_ save: SaveFile) throws {
            let loaded = try save.load(pack: SaveTestWorld.pack())
            #expect(loaded.state == (try SaveFixtures.state(version: version)))
            #expect(loaded.pendingOffers == ["mira": SaveFixtures.offer])
            #expect(loaded.missing == [])
            #expect(loaded.conversations == ["brannoc", "mira"])
            for (npc, conversation) in SaveFixtures.savedConversations {
                let saved = try #require(try save.transcript(npc: npc))
                // The same entries; each written back as the save holds it (an older Parley's option keys, say).
                #expect(try Transcript(json: saved.transcript.jsonString()) == conversation.transcript)
                #expect(saved == conversation)
            }
            let metadata = loaded.metadata
            #expect(metadata.label == "Fixture")
            #expect(metadata.parleyVersion == "0.1.0")
            #expect(metadata.createdAt == fixedNow())
            #expect(metadata.playTime == .milliseconds(800_000))
            #expect(metadata.worldID == "save_test")
            #expect(metadata.locationName == "Smithy")
            #expect(try save.feedback().map(\.id) == ["feedback-1"])
            let recordings = try save.recordings()
            guard version >= 3 else {
                #expect(recordings.map(\.id) == ["recording-1"])
                return
            }
            #expect(recordings.map(\.id) == ["recording-1", "recording-2", "recording-3"])
            // Each recording reads back whole, its shared instructions put back where they were.
            for (id, json) in SaveFixtures.sharingRecordings {
                let read = try #require(recordings.first { $0.id == id })
                #expect(try JSONValue(parsing: read.json) == JSONValue(parsing: json))
            }
        }
    }

    @Test("The generator, run with today's code, writes a save that loads like the current schema's fixture")
    func generatorMatchesFixture() throws {
        let fixture = SaveFixtures.schemaFixture(version: SaveGameStore.schemaVersion)
        try withTemporaryDirectory { folder in
            let fresh = try SaveFixtures.generate(in: folder)
            let copy = folder.appendingPathComponent("fixture.parley")
            try FileManager.default.copyItem(at: fixture, to: copy)
            let store = SaveGameStore(folder: folder)
            // The same save, but for the slot's name.
            func export(_ file: URL) throws -> JSONValue {
                guard case .object(var object) = try store.export(slot: file.deletingPathExtension().lastPathComponent),
                    case .object(var metadata)? = object["metadata"]
                else { return .null }
                metadata["slot"] = nil
                object["metadata"] = .object(metadata)
                // Transcripts are compared as transcripts: the fixture keeps each entry as the Parley of its day
                // wrote it (options in the older form), today's writes Apple 27's form of the same values.
                if case .object(var conversations)? = object["conversations"] {
                    for (npc, conversation) in conversations {
                        guard case .object(var body) = conversation, let transcript = body["transcript"] else { continue }
                        body["transcript"] = try TranscriptJSONForm.normalized(transcript)
                        conversations[npc] = .object(body)
                    }
                    object["conversations"] = .object(conversations)
                }
                return .object(object)
            }
            let expected = try export(copy)
            let actual = try export(fresh)
            #expect(actual.jsonString(.prettyPrinted) == expected.jsonString(.prettyPrinted))
        }
    }

    @Test("An unusable file gives its error, says what to do, and is not modified", arguments: SaveFixtures.unusable)
    func unusableFile(_ fixture: SaveFixtures.Unusable) throws {
        let source = TestPaths.fixtures.appendingPathComponent(fixture.name)
        try withTemporaryDirectory { folder in
            let copy = folder.appendingPathComponent("slot.parley")
            try FileManager.default.copyItem(at: source, to: copy)
            let before = try Data(contentsOf: copy)
            let store = SaveGameStore(folder: folder)
            for access in [SaveFile.Access.readWrite, .readOnly] {
                let error = try #require(throws: SaveGameError.self) { try store.open(slot: "slot", access: access) }
                #expect(error.code == fixture.code, "\(access): \(error)")
                #expect(error.description.contains(fixture.advice), "\(error)")
                #expect(error.description.contains("Nothing was changed"), "\(error)")
                #expect(error.description.contains(copy.path), "\(error)")
            }
            #expect(try #require(throws: SaveGameError.self) { try store.export(slot: "slot") }.code == fixture.code)
            #expect(store.list().first?.error?.code == fixture.code)
            #expect(try Data(contentsOf: copy) == before, "the file was modified")
        }
    }

    @Test("An empty file is an empty slot: opening it makes it a save")
    func emptyFile() throws {
        try withTemporaryDirectory { folder in
            try Data().write(to: folder.appendingPathComponent("slot.parley"))
            let store = SaveGameStore(folder: folder)
            #expect(store.list().first?.metadata == nil && store.list().first?.error == nil)
            let save = try store.open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: SaveTestWorld.pack().initialState))
            #expect(try save.load(pack: SaveTestWorld.pack()).state == SaveTestWorld.pack().initialState)
        }
    }

    @Test("A folder where the slot's file should be is not a save")
    func folderInsteadOfFile() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("slot.parley"), withIntermediateDirectories: false)
            let error = try #require(throws: SaveGameError.self) {
                try SaveGameStore(folder: folder).open(slot: "slot")
            }
            #expect(error.code == .notASave)
        }
    }
}

/// A transcript's JSON as today's Parley writes the same values, whatever form they were read in.
enum TranscriptJSONForm {
    static func normalized(_ json: JSONValue) throws -> JSONValue {
        let transcript = try Transcript(json: json.jsonString())
        // Rebuilt from its values, an entry has no source to write back.
        let rebuilt = Transcript(entries: transcript.map(\.normalized))
        return try JSONValue(parsing: rebuilt.jsonString())
    }
}
