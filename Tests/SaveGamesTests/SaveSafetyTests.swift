import Foundation
import GameWorld
import LanguageModels
import ParleyJSON
import ParleySQLite
import SyntheticWorlds
import Testing

@testable import SaveGames

#if canImport(Glibc)
import Glibc
#endif

/// What the issue "nothing lost, ever" asks of the save layer: no write through a symbolic link, no two names
/// sharing one file, read-only opening that changes nothing beside the file, values checked against their ranges,
/// clear words for a tampered schema, reports saved with their turns, and shared recording parts stored once.
@Suite struct SaveSafetyTests {
    /// A save holding the fixture's game, closed, in `folder` as `slot`.
    @discardableResult
    func writeSave(in folder: URL, slot: String = "slot") throws -> URL {
        let store = SaveGameStore(folder: folder, now: fixedNow)
        let save = try store.open(slot: slot)
        try save.writeFull(
            SaveSnapshot(
                state: try SaveFixtures.state(), conversations: SaveFixtures.conversations,
                pendingOffers: ["mira": SaveFixtures.offer], label: "Safety"))
        try save.addFeedback(id: "f1", npc: "mira", json: #"{"sentiment":"negative"}"#)
        save.close()
        return try store.slotURL(slot)
    }

    /// The names of the files in a folder, sorted, without the folder lock.
    /// The files in a folder but the folder's lock and its listing index (`.parley-index.json`, which a listing
    /// writes beside the saves, never in them).
    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0 != SaveFolderLock.fileName && $0 != ".parley-index.json"
        }
        .sorted()
    }

    // MARK: - Symbolic links

    @Test("A slot that is a symbolic link (dangling or not) is refused, and the file it points to is never written")
    func symbolicLinkSlots() throws {
        try withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("saves")
            let elsewhere = root.appendingPathComponent("elsewhere.txt")
            try Data("precious".utf8).write(to: elsewhere)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = SaveGameStore(folder: folder, now: fixedNow)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("linked.parley"), withDestinationURL: elsewhere)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("dangling.parley"),
                withDestinationURL: root.appendingPathComponent("nothing-here.parley"))
            for slot in ["linked", "dangling"] {
                for access in [SaveFile.Access.readWrite, .readOnly] {
                    let error = try #require(throws: SaveGameError.self) { try store.open(slot: slot, access: access) }
                    #expect(error.code == .unsafePath, "\(slot) \(access): \(error)")
                    #expect(error.description.contains("symbolic link"), "\(error)")
                }
            }
            #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "precious")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("nothing-here.parley").path))
            #expect(store.list().allSatisfy { $0.error?.code == .unsafePath })
            // Deleting the slot removes the link, never what it points to.
            try store.delete(slot: "linked")
            #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "precious")
            #expect(SaveGameStore.fileType(folder.appendingPathComponent("linked.parley").path) == .missing)
        }
    }

    @Test("A write-ahead log that is a symbolic link beside a save is refused before SQLite writes through it")
    func symbolicLinkBesideASave() throws {
        try withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("saves")
            let url = try writeSave(in: folder)
            let elsewhere = root.appendingPathComponent("elsewhere.log")
            try Data("precious".utf8).write(to: elsewhere)
            try FileManager.default.createSymbolicLink(
                atPath: url.path + "-wal", withDestinationPath: elsewhere.path)
            let error = try #require(throws: SaveGameError.self) {
                try SaveGameStore(folder: folder).open(slot: "slot")
            }
            #expect(error.code == .unsafePath)
            #expect(error.description.contains("-wal"))
            #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "precious")
        }
    }

    @Test("A FIFO where a save belongs is named as one and never opened (which would block)")
    func fifoSlot() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("pipe.parley")
            #expect(mkfifo(url.path, 0o644) == 0)
            let error = try #require(throws: SaveGameError.self) {
                try SaveGameStore(folder: folder).open(slot: "pipe", access: .readOnly)
            }
            #expect(error.code == .unsafePath)
            #expect(error.description.contains("FIFO"))
        }
    }

    // MARK: - Slot names

    @Test(
        "Two names that make one file are refused, never silently share it",
        arguments: [
            ("a/b", "a\u{202E}b"), ("a/b", "a b"), ("Slot: one", "slot one"),
            (String(repeating: "x", count: 64) + "-first", String(repeating: "x", count: 64) + "-second"),
        ])
    func collidingNames(first: String, second: String) throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            #expect(try store.slotURL(first) == store.slotURL(second))
            try store.open(slot: first).writeFull(SaveSnapshot(state: try SaveFixtures.state(), label: "First"))
            let before = try Data(contentsOf: try store.slotURL(first))
            let error = try #require(throws: SaveGameError.self) { try store.open(slot: second) }
            #expect(error.code == .nameTaken, "\(error)")
            #expect(error.description.contains(first), "\(error)")
            #expect(try Data(contentsOf: try store.slotURL(first)) == before)
            // The first name, and the file's own name as `saves` lists it, still write it.
            _ = try store.open(slot: first)
            let own = try store.slotURL(first).deletingPathExtension().lastPathComponent
            _ = try store.open(slot: own)
            // Reading by the other name reads the one save there is: nothing is shared by reading.
            #expect(try store.open(slot: second, access: .readOnly).metadata().label == "First")
        }
    }

    @Test("Names that differ only in case or runs of spaces are one slot, as before")
    func sameNameInOtherCase() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            try store.open(slot: "My Save").writeFull(SaveSnapshot(state: try SaveFixtures.state(), label: "One"))
            try store.open(slot: "my  SAVE").writeFull(SaveSnapshot(state: try SaveFixtures.state(), label: "Two"))
            #expect(try store.open(slot: "my-save", access: .readOnly).metadata().label == "Two")
        }
    }

    // MARK: - Reading changes nothing; closing leaves one file

    @Test("Reading a save (list, load, transcripts, reports, export) creates no -wal or -shm and changes no byte")
    func readingLeavesNoSideFiles() throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            #expect(try files(in: folder) == ["slot.parley"])
            let before = try Data(contentsOf: url)
            let store = SaveGameStore(folder: folder)
            _ = store.list()
            let save = try store.open(slot: "slot", access: .readOnly)
            _ = try save.load(pack: SaveTestWorld.pack())
            _ = try save.transcript(npc: "mira")
            _ = try save.feedback()
            _ = try save.recordings()
            _ = try save.export()
            #expect(try files(in: folder) == ["slot.parley"])
            save.close()
            #expect(try files(in: folder) == ["slot.parley"])
            #expect(try Data(contentsOf: url) == before)
            // The journal mode stays what the file had: the header's write and read versions say WAL (2).
            let header = [UInt8](try Data(contentsOf: url).prefix(20))
            #expect(header[18] == 2 && header[19] == 2)
        }
    }

    @Test("Inspecting a damaged save read-only creates nothing beside it")
    func inspectingADamagedSaveLeavesNoSideFiles() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.copyItem(
                at: TestPaths.fixtures.appendingPathComponent("corrupt.sqlite"),
                to: folder.appendingPathComponent("slot.parley"))
            let store = SaveGameStore(folder: folder)
            #expect(throws: SaveGameError.self) { try store.open(slot: "slot", access: .readOnly) }
            #expect(store.list().first?.error?.code == .corrupt)
            #expect(try files(in: folder) == ["slot.parley"])
        }
    }

    @Test("A save open for writing keeps a log beside it; closing folds it in and leaves one file")
    func closingLeavesOneFile() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let save = try store.open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: try SaveFixtures.state()))
            #expect(try files(in: folder).contains("slot.parley-wal"))
            save.close()
            #expect(try files(in: folder) == ["slot.parley"])
            #expect(throws: SaveGameError.self) { try save.metadata() }
            #expect(
                try store.open(slot: "slot", access: .readOnly).load(pack: SaveTestWorld.pack()).state
                    == (try SaveFixtures.state()))
        }
    }

    // MARK: - The folder lock

    @Test("Claiming a folder tidies it: interrupted copies are removed, a log left by a killed game is folded in")
    func claimingTidies() throws {
        try withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("saves")
            let store = SaveGameStore(folder: folder, now: fixedNow)
            // A game killed while saving: its file and log, copied while open.
            let save = try store.open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: try SaveFixtures.state(), label: "In the log"))
            let killed = root.appendingPathComponent("killed")
            try FileManager.default.createDirectory(at: killed, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(
                    atPath: save.url.path + suffix, toPath: killed.appendingPathComponent("slot.parley").path + suffix)
            }
            save.close()
            try Data("half a copy".utf8).write(to: killed.appendingPathComponent(".autosave.parley.1234.partial"))
            let lock = try SaveGameStore(folder: killed).lockFolder()
            defer { lock.release() }
            #expect(try files(in: killed) == ["slot.parley"])
            let recovered = try SaveGameStore(folder: killed).open(slot: "slot", access: .readOnly)
            #expect(try recovered.metadata().label == "In the log")
        }
    }

    @Test("Claims of one process on one folder share the lock; released, the folder is free again")
    func claimsInOneProcess() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder)
            let first = try store.lockFolder()
            let second = try SaveGameStore(folder: folder.appendingPathComponent("../\(folder.lastPathComponent)"))
                .lockFolder()
            #expect(first.isHeld && second.isHeld)
            first.release()
            second.release()
            second.release()
            #expect(!second.isHeld)
            let again = try store.lockFolder()
            #expect(again.isHeld)
        }
    }

    @Test("A lock a starting child still shares a moment after its release is waited for; another process's is not")
    func aChildsCopyOfTheLockIsWaitedFor() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder)
            try store.lockFolder().release()
            // What a child between posix_spawn and exec holds: another open file description of the lock file,
            // locked, in a file naming this process.
            let path = folder.appendingPathComponent(SaveFolderLock.fileName).path
            let copy = open(path, O_RDWR)
            #expect(flock(copy, LOCK_EX | LOCK_NB) == 0)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                usleep(100_000)
                close(copy)
                done.signal()
            }
            let lock = try store.lockFolder()
            #expect(lock.isHeld)
            done.wait()
            lock.release()

            // Another process's pid in the file: refused at once, naming it.
            let other = open(path, O_RDWR)
            defer { close(other) }
            #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
            let pid = Array("1\n".utf8)
            _ = ftruncate(other, 0)
            _ = pid.withUnsafeBytes { pwrite(other, $0.baseAddress, $0.count, 0) }
            #expect {
                _ = try store.lockFolder()
            } throws: { error in
                (error as? SaveGameError)?.code == .inUse && "\(error)".contains("pid 1")
            }
        }
    }

    // MARK: - Tampered values

    /// A change made to a save outside Parley, with the words its error must hold.
    struct Tampering: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: String
        let words: String
        var testDescription: String { name }
    }

    static let tamperings: [Tampering] = [
        .init(name: "gold stored as text", sql: "UPDATE player SET gold = 'lots'", words: "wrong type"),
        .init(name: "gold at Int.max", sql: "UPDATE player SET gold = \(Int.max)", words: "the player's gold"),
        .init(name: "negative gold", sql: "UPDATE npcs SET gold = -5", words: "the gold of"),
        .init(
            name: "a quantity at Int.max", sql: "UPDATE player_items SET quantity = \(Int.max)",
            words: "the quantity of"),
        .init(
            name: "a quantity of zero", sql: "PRAGMA ignore_check_constraints = ON; UPDATE npc_items SET quantity = 0",
            words: "the quantity of"),
        .init(name: "a missing player row", sql: "DELETE FROM player", words: "no player row"),
        .init(
            name: "a pending offer of Int.max gold",
            sql: #"UPDATE pending_offers SET offer_json = '{"npc":"mira","playerGives":{"gold":\#(Int.max)}}'"#,
            words: "the pending offer of mira"),
        .init(
            name: "a pending offer that does not decode", sql: "UPDATE pending_offers SET offer_json = '{\"npc\":1}'",
            words: "does not decode"),
        .init(
            name: "a counter past its range", sql: "UPDATE counters SET value = \(Int.max)", words: "the counter"),
        .init(
            name: "a dropped table", sql: "DROP TABLE player_items", words: "player_items is missing"),
        .init(
            name: "a dropped column",
            sql: "ALTER TABLE npcs DROP COLUMN gold", words: "missing"),
        .init(
            name: "a dealing of Int.max gold", sql: "UPDATE dealings SET gold = \(Int.max)",
            words: "the gold of the dealing 0 with brannoc"),
        .init(
            name: "a dealing of no quantity",
            sql: "PRAGMA ignore_check_constraints = ON; UPDATE dealings SET quantity = 0",
            words: "the quantity of the dealing 0 with brannoc"),
        .init(
            name: "a dealing of an unknown kind",
            sql: "PRAGMA ignore_check_constraints = ON; UPDATE dealings SET kind = 'stole'",
            words: "of the kind \"stole\""),
        .init(
            name: "a gap in the dealings", sql: "UPDATE dealings SET position = 3 WHERE npc = 'brannoc'",
            words: "no dealing at position 0"),
    ]

    @Test("A tampered save is refused as damaged, saying what is wrong, and is not changed", arguments: tamperings)
    func tamperedSaves(_ tampering: Tampering) throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            do {
                let db = try Database(path: url.path, options: DatabaseOptions(foreignKeys: false))
                try db.execute(sql: tampering.sql)
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            let before = try Data(contentsOf: url)
            let store = SaveGameStore(folder: folder)
            let error = try #require(throws: SaveGameError.self) {
                try store.open(slot: "slot", access: .readOnly).load(pack: SaveTestWorld.pack())
            }
            #expect(error.code == .corrupt, "\(error)")
            #expect(error.description.contains(tampering.words), "\(error)")
            #expect(error.description.contains("is damaged"), "\(error)")
            #expect(!error.description.contains("Check the disk"), "\(error)")
            #expect(try Data(contentsOf: url) == before)
            #expect(try files(in: folder) == ["slot.parley"])
        }
    }

    // MARK: - Attachments with their turns

    @Test("A delta's reports and recordings are written with it, and not at all when it fails")
    func attachmentsInTheSameTransaction() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let save = try store.open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: try SaveFixtures.state()))
            var delta = SaveDelta(state: try SaveFixtures.state(), playTime: .seconds(1))
            delta.feedback = [SavedAttachment(id: "f2", npc: "mira", createdAt: fixedNow(), json: "{}")]
            delta.recordings = [SavedAttachment(id: "r2", npc: "mira", createdAt: fixedNow(), json: "{}")]
            // A delta of another world fails as a whole: its attachments are not kept either.
            var foreign = delta
            foreign.state = SyntheticWorld.generate(seed: 1, locations: 1, npcs: 1, items: 2).initialState
            #expect(throws: SaveGameError.self) { try save.autosave(foreign) }
            #expect(try save.feedback().isEmpty && save.recordings().isEmpty)
            try save.autosave(delta)
            #expect(try save.feedback().map(\.id) == ["f2"])
            #expect(try save.recordings().map(\.id) == ["r2"])
        }
    }

    @Test("Copying a save over another keeps the reports and recordings given, and records the slot's name")
    func copyKeepsAttachments() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let source = try store.open(slot: "source")
            try source.writeFull(SaveSnapshot(state: try SaveFixtures.state(), label: "Source"))
            try source.addFeedback(id: "from-source", npc: nil, json: "{}")
            let kept = SavedAttachment(id: "from-autosave", npc: nil, createdAt: fixedNow(), json: "{}")
            try source.copy(to: try store.slotURL("autosave"), keeping: ([kept], [kept]))
            let copy = try store.open(slot: "autosave", access: .readOnly)
            #expect(try copy.metadata().label == "Source")
            #expect(try copy.feedback().map(\.id).sorted() == ["from-autosave", "from-source"])
            #expect(try copy.recordings().map(\.id) == ["from-autosave"])
            let name = try copy.reading { db in
                try db.scalar("SELECT value FROM metadata WHERE key = 'slot_name'", as: String.self)
            }
            #expect(name == "autosave")
            #expect(!(try files(in: folder)).contains { $0.hasSuffix(".partial") })
        }
    }

    // MARK: - Shared recording parts

    @Test("Recordings that share their instructions store them once and read back whole")
    func sharedInstructionsAreStoredOnce() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let save = try store.open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: try SaveFixtures.state()))
            let summary = String(repeating: "The player bought a lantern for 20 gold. ", count: 200)
            let instructions: JSONValue = [
                "id": "i-1", "role": "instructions", "contents": [["text": ["value": .string(summary)]]],
            ]
            var written: [String] = []
            for turn in 0..<50 {
                let recording: JSONValue = [
                    "type": "Parley.TurnRecording", "id": .string("r\(turn)"), "instructions": instructions,
                    "input": ["id": .string("p\(turn)")],
                ]
                written.append(recording.jsonString())
                try save.addRecording(id: "r\(turn)", npc: "mira", json: recording.jsonString())
            }
            let read = try save.recordings()
            #expect(try read.map { try JSONValue(parsing: $0.json) } == written.map { try JSONValue(parsing: $0) })
            let (parts, stored) = try save.reading { db in
                (
                    try db.scalar("SELECT count(*) FROM recording_parts", as: Int.self),
                    try db.scalar("SELECT sum(length(json)) FROM recordings", as: Int.self)
                )
            }
            #expect(parts == 1)
            // Fifty turns store the 8 KB of instructions once, not fifty times.
            #expect((stored ?? .max) < summary.utf8.count)
        }
    }

    @Test("Two different parts whose ids collide are both kept")
    func partIDCollision() throws {
        try withTemporaryDirectory { folder in
            let save = try SaveGameStore(folder: folder, now: fixedNow).open(slot: "slot")
            try save.writeFull(SaveSnapshot(state: try SaveFixtures.state()))
            let long = String(repeating: "x", count: 400)
            let first = #"{"id":"a","instructions":{"value":"\#(long)1"}}"#
            let second = #"{"id":"b","instructions":{"value":"\#(long)2"}}"#
            // A part stored under the id the first one's content hashes to, as a colliding content would be.
            try save.writing { writer in
                let id = RecordingParts.baseID(of: #"{"value":"\#(long)1"}"#)
                try writer.write("INSERT INTO recording_parts(id, json) VALUES (?, ?)", [id, #"{"value":"other"}"#])
            }
            try save.addRecording(id: "a", npc: nil, json: first)
            try save.addRecording(id: "b", npc: nil, json: second)
            let read = try save.recordings()
            #expect(
                try read.map { try JSONValue(parsing: $0.json) } == [
                    try JSONValue(parsing: first), try JSONValue(parsing: second),
                ])
        }
    }
}
