import Foundation
import GameWorld
import SaveGames
import Synchronization
import Testing

/// `--keep-autosaves N`: autosaves beyond the newest N are deleted oldest first, never one a game plays, never a
/// slot outside the family, and never a file that could not be read (it may be a game worth rescuing).
@Suite struct AutosavePruningTests {
    let pack = SaveTestWorld.pack()

    /// A store whose clock is a minute later at every call, so each save is newer than the one before.
    func store(in folder: URL) -> SaveGameStore {
        let minutes = Mutex(0)
        return SaveGameStore(folder: folder) {
            Date(
                timeIntervalSince1970: 1_750_000_000 + 60
                    * Double(
                        minutes.withLock {
                            $0 += 1; return $0
                        }))
        }
    }

    /// Saves the pack's initial state in each slot, in order (the first is the oldest).
    func save(_ slots: [String], in store: SaveGameStore) throws {
        for slot in slots {
            let file = try store.open(slot: slot)
            defer { file.close() }
            try file.writeFull(SaveSnapshot(state: pack.initialState, label: "Autosave"))
        }
    }

    /// The slots that have a file, sorted.
    func slots(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".parley") }
            .map { String($0.dropLast(".parley".count)) }.sorted()
    }

    @Test func autosavesBeyondTheKeptNumberArePrunedOldestFirst() throws {
        try withTemporaryDirectory { folder in
            let store = store(in: folder)
            // Oldest first: autosave-3 is the oldest, then autosave, then autosave-2, ...
            try save(["autosave-3", "autosave", "autosave-2", "autosave-5", "autosave-4", "named"], in: store)
            let pruned = store.pruneAutosaves(base: "autosave", keeping: 2, sparing: [])
            #expect(pruned == ["autosave-3", "autosave", "autosave-2"])
            #expect(try slots(in: folder) == ["autosave-4", "autosave-5", "named"])
            // Nothing more to prune.
            #expect(store.pruneAutosaves(base: "autosave", keeping: 2, sparing: []) == [])
        }
    }

    @Test func aSlotAGamePlaysIsNeverPruned() throws {
        try withTemporaryDirectory { folder in
            let store = store(in: folder)
            try save(["autosave", "autosave-2", "autosave-3", "autosave-4"], in: store)
            let played = try store.open(slot: "autosave")
            defer { played.close() }
            let pruned = store.pruneAutosaves(base: "autosave", keeping: 1, sparing: ["autosave"])
            #expect(pruned == ["autosave-2", "autosave-3"])
            #expect(try slots(in: folder) == ["autosave", "autosave-4"])
            #expect(try played.hasGame())
        }
    }

    @Test func aFileThatCannotBeReadIsKept() throws {
        try withTemporaryDirectory { folder in
            let store = store(in: folder)
            try save(["autosave", "autosave-2", "autosave-3"], in: store)
            try Data("not a save".utf8).write(to: folder.appendingPathComponent("autosave-4.parley"))
            let pruned = store.pruneAutosaves(base: "autosave", keeping: 1, sparing: [])
            #expect(pruned == ["autosave", "autosave-2"])
            #expect(try slots(in: folder) == ["autosave-3", "autosave-4"])
        }
    }
}
