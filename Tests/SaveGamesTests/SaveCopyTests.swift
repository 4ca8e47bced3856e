import Dispatch
import Foundation
import GameWorld
import LanguageModels
import ParleyBasics
import ParleySQLite
import Testing

@testable import SaveGames

/// A save continued in another slot (`openCopy(of:as:keeping:)`, an in-game `load` of a slot outside the autosave
/// family) gets its copy on a thread of its own: until it is made, conversations come from the source and the slot
/// keeps what it held; writes, to it, to the source or to the slot, wait for it; a copy that fails changes nothing and
/// is tried again. Copies are held back or failed at a gate, not by timing.
@Suite struct SaveCopyTests {
    let pack = SaveTestWorld.pack()

    /// A gate a copy's thread stops at: `reached` tells the test it is there, `open()` lets it go on.
    final class Gate: Sendable {
        private let arrived = DispatchSemaphore(value: 0)
        private let passage = DispatchSemaphore(value: 0)

        /// Holds back every copy to `destination` at this gate, for as long as the test runs.
        init(holdingCopiesTo destination: URL) {
            SaveCopy.attemptHooks.withLock {
                $0[destination.standardizedFileURL.path] = { [arrived, passage] _ in
                    arrived.signal()
                    passage.wait()
                    passage.signal()
                }
            }
        }

        /// Waits until a copy is held at the gate.
        func reached() { arrived.wait() }

        /// Lets every copy through, now and from now on.
        func open() { passage.signal() }
    }

    /// A folder with `source` (the fixtures' game, closed) and `autosave` (another game, with a report to keep).
    func makeFolder(_ folder: URL) throws -> SaveGameStore {
        let store = SaveGameStore(folder: folder, now: fixedNow)
        let source = try store.open(slot: "source")
        try source.writeFull(
            SaveSnapshot(
                state: try SaveFixtures.state(), conversations: SaveFixtures.conversations, label: "The source"))
        try source.addFeedback(id: "from-source", npc: "mira", json: "{}")
        source.close()
        let autosave = try store.open(slot: "autosave")
        try autosave.writeFull(SaveSnapshot(state: pack.initialState, label: "The game before the load"))
        autosave.close()
        return store
    }

    /// The source, opened read-only and loaded, as a game checks it before continuing it.
    func checkedSource(_ store: SaveGameStore) throws -> SaveFile {
        let source = try store.open(slot: "source", access: .readOnly)
        _ = try source.load(pack: pack)
        return source
    }

    /// A report the autosave slot held, which the copy must keep.
    let kept = SavedAttachment(id: "from-autosave", npc: nil, createdAt: fixedNow(), json: "{}")

    /// The game after one more move, and its delta.
    func moved() throws -> (GameState, SaveDelta) {
        let state = try SaveFixtures.state().applying(.moved(from: "smithy", to: "square"))
        return (state, SaveDelta(state: state, playerChanged: true, playTime: .seconds(5)))
    }

    /// The names of the files in a folder, without the folder lock.
    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != SaveFolderLock.fileName }
            .sorted()
    }

    @Test("Until its copy is made, a continued save reads the source's conversations and the slot keeps what it held")
    func readsTheSourceUntilTheCopyIsMade() async throws {
        try await withTemporaryDirectory { folder in
            let store = try makeFolder(folder)
            let (sourceURL, autosaveURL) = (try store.slotURL("source"), try store.slotURL("autosave"))
            let sourceBefore = try Data(contentsOf: sourceURL)
            let autosaveBefore = try Data(contentsOf: autosaveURL)
            let gate = Gate(holdingCopiesTo: autosaveURL)
            let file = try store.openCopy(of: try checkedSource(store), as: "autosave", keeping: ([kept], []))
            gate.reached()
            #expect(file.isWaitingForItsCopy)
            #expect(try file.transcript(npc: "mira") == SaveFixtures.conversations["mira"])
            #expect(try file.transcript(npc: "oona") == nil)
            #expect(try Data(contentsOf: autosaveURL) == autosaveBefore)
            gate.open()
            await file.copyMade()
            #expect(!file.isWaitingForItsCopy)
            #expect(try file.transcript(npc: "mira") == SaveFixtures.conversations["mira"])
            let (state, delta) = try moved()
            try file.autosave(delta)
            file.close()

            #expect(try Data(contentsOf: sourceURL) == sourceBefore)
            let copy = try store.open(slot: "autosave", access: .readOnly)
            #expect(try copy.load(pack: pack).state == state)
            #expect(try copy.metadata().label == "The source")
            #expect(try copy.feedback().map(\.id).sorted() == ["from-autosave", "from-source"])
            let name = try copy.reading { db in
                try db.scalar("SELECT value FROM metadata WHERE key = 'slot_name'", as: String.self)
            }
            #expect(name == "autosave")
            #expect(try files(in: folder) == ["autosave.parley", "source.parley"])
        }
    }

    @Test("A write waits for the copy; so does a write to the source through the store, which the copy never sees")
    func writesWaitForTheCopy() async throws {
        try await withTemporaryDirectory { folder in
            let store = try makeFolder(folder)
            let gate = Gate(holdingCopiesTo: try store.slotURL("autosave"))
            let file = try store.openCopy(of: try checkedSource(store), as: "autosave", keeping: ([], []))
            gate.reached()
            let (state, delta) = try moved()
            // Both block until the gate opens: the autosave in the copy's wait, the save over the source in the
            // store's (nothing may change a file that is being copied or read).
            let autosaving = Task { try await offThePool { try file.autosave(delta) } }
            let overwriting = Task {
                try await offThePool {
                    let source = try store.open(slot: "source")
                    try source.writeFull(SaveSnapshot(state: self.pack.initialState, label: "Saved over"))
                    source.close()
                }
            }
            gate.open()
            _ = try await autosaving.value
            try await overwriting.value
            // The copy is of the source as it was, and now its reads come from the copy, not the changed source.
            #expect(try file.transcript(npc: "mira") == SaveFixtures.conversations["mira"])
            #expect(try file.load(pack: pack).state == state)
            file.close()
            #expect(try store.open(slot: "source", access: .readOnly).metadata().label == "Saved over")
            #expect(try store.open(slot: "autosave", access: .readOnly).metadata().label == "The source")
        }
    }

    @Test("A copy that fails changes neither file, is reported by the write waiting for it, and is tried again")
    func aFailedCopyIsTriedAgain() async throws {
        try await withTemporaryDirectory { folder in
            let store = try makeFolder(folder)
            let (sourceURL, autosaveURL) = (try store.slotURL("source"), try store.slotURL("autosave"))
            let sourceBefore = try Data(contentsOf: sourceURL)
            let autosaveBefore = try Data(contentsOf: autosaveURL)
            SaveCopy.attemptHooks.withLock {
                $0[autosaveURL.standardizedFileURL.path] = { attempt in
                    if attempt == 1 { throw SaveGameError(.diskFull, path: autosaveURL.path, detail: "as a test") }
                }
            }
            let file = try store.openCopy(of: try checkedSource(store), as: "autosave", keeping: ([kept], []))
            await file.copyMade()
            #expect(file.isWaitingForItsCopy)
            let (state, delta) = try moved()
            let error = try #require(throws: SaveGameError.self) { try file.autosave(delta) }
            #expect(error.code == .diskFull, "\(error)")
            #expect(try Data(contentsOf: sourceURL) == sourceBefore)
            #expect(try Data(contentsOf: autosaveURL) == autosaveBefore)
            #expect(try files(in: folder) == ["autosave.parley", "source.parley"])
            // Conversations are still read from the source meanwhile.
            #expect(try file.transcript(npc: "mira") == SaveFixtures.conversations["mira"])
            // The next write makes the copy, then writes to it.
            try file.autosave(delta)
            file.close()
            let copy = try store.open(slot: "autosave", access: .readOnly)
            #expect(try copy.load(pack: pack).state == state)
            #expect(try copy.feedback().map(\.id).sorted() == ["from-autosave", "from-source"])
        }
    }

    @Test("A copy that still fails when its save is closed is given up: no later write to the slot makes it")
    func aCopyGivenUpIsNotMadeLater() async throws {
        try await withTemporaryDirectory { folder in
            let store = try makeFolder(folder)
            let autosaveURL = try store.slotURL("autosave")
            let autosaveBefore = try Data(contentsOf: autosaveURL)
            // Closing tries twice; a third attempt would succeed.
            SaveCopy.attemptHooks.withLock {
                $0[autosaveURL.standardizedFileURL.path] = { attempt in
                    if attempt <= 2 { throw SaveGameError(.diskFull, path: autosaveURL.path, detail: "as a test") }
                }
            }
            let file = try store.openCopy(of: try checkedSource(store), as: "autosave", keeping: ([], []))
            await file.copyMade()
            file.close()
            #expect(try Data(contentsOf: autosaveURL) == autosaveBefore)
            // A later game writing to the slot finds it as it was, not replaced by the copy given up.
            let later = try store.open(slot: "autosave")
            #expect(try later.metadata().label == "The game before the load")
            later.close()
            #expect(try files(in: folder) == ["autosave.parley", "source.parley"])
        }
    }

    @Test("Closing a save whose copy is held back waits for it: the slot then holds the game that was loaded")
    func closingWaitsForTheCopy() async throws {
        try await withTemporaryDirectory { folder in
            let store = try makeFolder(folder)
            let gate = Gate(holdingCopiesTo: try store.slotURL("autosave"))
            let file = try store.openCopy(of: try checkedSource(store), as: "autosave", keeping: ([], []))
            gate.reached()
            let closing = Task { await offThePool { file.close() } }
            gate.open()
            await closing.value
            #expect(throws: SaveGameError.self) { try file.metadata() }
            let copy = try store.open(slot: "autosave", access: .readOnly)
            #expect(try copy.load(pack: pack).state == (try SaveFixtures.state()))
        }
    }

    @Test("A copy of a save open for writing holds its last write, still in the log")
    func copyOfAnOpenSave() throws {
        try withTemporaryDirectory { folder in
            let store = try makeFolder(folder)
            let open = try store.open(slot: "source")
            let (state, delta) = try moved()
            try open.autosave(delta)
            #expect(FileManager.default.fileExists(atPath: try store.slotURL("source").path + "-wal"))
            try open.copy(to: try store.slotURL("copy"))
            open.close()
            let copy = try store.open(slot: "copy", access: .readOnly)
            #expect(try copy.load(pack: pack).state == state)
            #expect(try copy.integrityCheck() == [])
            #expect(try files(in: folder) == ["autosave.parley", "copy.parley", "source.parley"])
        }
    }

    @Test("A save of an older version, read through its upgraded temporary copy, is copied at this version")
    func copyOfAnOlderSave() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.copyItem(
                at: SaveFixtures.schemaFixture(version: 1), to: folder.appendingPathComponent("old.parley"))
            let store = SaveGameStore(folder: folder, now: fixedNow)
            let before = try Data(contentsOf: try store.slotURL("old"))
            let old = try store.open(slot: "old", access: .readOnly)
            let file = try store.openCopy(of: old, as: "autosave", keeping: ([], []))
            try file.autosave(SaveDelta(state: try SaveFixtures.state(version: 1), playTime: .seconds(1)))
            file.close()
            #expect(try Data(contentsOf: try store.slotURL("old")) == before)
            let copy = try store.open(slot: "autosave", access: .readOnly)
            #expect(try copy.metadata().schemaVersion == SaveGameStore.schemaVersion)
            #expect(try copy.load(pack: pack).state == (try SaveFixtures.state(version: 1)))
            #expect(try copy.transcript(npc: "mira") == SaveFixtures.savedConversations["mira"])
        }
    }
}
