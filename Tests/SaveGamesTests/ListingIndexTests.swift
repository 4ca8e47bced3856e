import Foundation
import GameWorld
import SaveGames
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Listing a save folder opens only the saves that changed since the last listing (`.parley-index.json`), and is
/// never fooled by a file changed behind its back: a save whose size, modification time or inode differs is read
/// again. Real SQLite saves in a temporary folder.
@Suite struct ListingIndexTests {
    let pack = SaveTestWorld.pack()

    func save(_ slot: String, label: String, in store: SaveGameStore) throws {
        let file = try store.open(slot: slot)
        defer { file.close() }
        try file.writeFull(SaveSnapshot(state: pack.initialState, label: label))
    }

    /// Overwrites a file's bytes in place (same inode, same size) and puts its modification time back: to a
    /// fingerprint, the file is unchanged.
    func scribble(over url: URL) throws {
        var before = stat()
        try #require(lstat(url.path, &before) == 0)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    }

    @Test func anUnchangedSaveIsListedFromTheIndexWithoutBeingOpened() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            for number in 1...5 { try save("slot-\(number)", label: "Save \(number)", in: store) }
            #expect(store.list().compactMap(\.metadata?.label).sorted() == (1...5).map { "Save \($0)" })
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".parley-index.json").path))
            // The file's header is now garbage: opening it would fail. Its fingerprint is the same, so the listing
            // does not open it, and lists what the index kept.
            try scribble(over: folder.appendingPathComponent("slot-3.parley"))
            let listed = store.list().first { $0.slot == "slot-3" }
            #expect(listed?.metadata?.label == "Save 3")
            #expect(listed?.error == nil)
            // Nor do the autosave family's listing (`--continue`, `--keep-autosaves`): slot-2 … slot-5 are of the
            // family of "slot".
            let family = store.autosaveSlots(base: "slot")
            #expect(family.count == 4)
            #expect(family.first { $0.slot == "slot-3" }?.metadata?.label == "Save 3")
        }
    }

    @Test func aSaveChangedBehindTheIndexIsReadAgain() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            try save("a", label: "First", in: store)
            try save("b", label: "Other", in: store)
            #expect(store.list().first { $0.slot == "a" }?.metadata?.label == "First")
            // Written again (another size or time), replaced by another file (another inode), damaged with a new
            // modification time, deleted: each is seen.
            try save("a", label: "Second, a longer label than the first", in: store)
            #expect(store.list().first { $0.slot == "a" }?.metadata?.label == "Second, a longer label than the first")
            let other = folder.appendingPathComponent("other.parley")
            try save("other", label: "Replacement", in: store)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("b.parley"))
            try FileManager.default.moveItem(at: other, to: folder.appendingPathComponent("b.parley"))
            #expect(store.list().first { $0.slot == "b" }?.metadata?.label == "Replacement")
            let handle = try FileHandle(forWritingTo: folder.appendingPathComponent("a.parley"))
            try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
            try handle.close()
            var times = [timespec(tv_sec: 1, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 0)]
            try #require(utimensat(AT_FDCWD, folder.appendingPathComponent("a.parley").path, &times, 0) == 0)
            let damaged = store.list().first { $0.slot == "a" }
            #expect(damaged?.metadata == nil)
            #expect(damaged?.error != nil)
            try store.delete(slot: "b")
            #expect(store.list().map(\.slot) == ["a"])
        }
    }

    @Test func aDamagedIndexIsIgnoredAndWrittenAnew() throws {
        try withTemporaryDirectory { folder in
            let store = SaveGameStore(folder: folder, now: fixedNow)
            try save("a", label: "First", in: store)
            let index = folder.appendingPathComponent(".parley-index.json")
            try Data("{not json".utf8).write(to: index)
            #expect(store.list().first?.metadata?.label == "First")
            let rewritten = try String(contentsOf: index, encoding: .utf8)
            #expect(rewritten.contains("\"First\""))
        }
    }
}
