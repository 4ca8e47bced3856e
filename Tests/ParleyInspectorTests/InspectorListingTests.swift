import Foundation
import Testing

@testable import ParleyInspector

#if canImport(Glibc)
import Glibc
#endif

/// `/inspect` opens only the saves that changed since it was last shown: what it read of an unchanged save (its NPCs
/// and their turns) is kept by the save's fingerprint, and a save changed since is read again.
@Suite(.timeLimit(.minutes(10))) struct InspectorListingTests {
    @Test func theListOfSavesOpensOnlyTheSavesThatChanged() async throws {
        try await InspectorFixture.with { fixture in
            try LongConversationSave.write(turns: 3, slot: "kept", in: fixture.folder)
            try LongConversationSave.write(turns: 4, slot: "changed", in: fixture.folder)
            let first = try await fixture.client.execute(.get(fixture.url("/inspect")))
            #expect(first.bodyText.contains("Mira Quickcoin"))
            #expect(!first.bodyText.contains("cannot be read"))
            // Garbage over `kept`'s header, its inode, size and modification time unchanged: were it opened, it
            // would be an error. It is not opened.
            let url = fixture.folder.appendingPathComponent("kept.parley")
            var before = stat()
            try #require(lstat(url.path, &before) == 0)
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
            try handle.close()
            var times = [before.st_atim, before.st_mtim]
            try #require(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
            // `changed` is written again, with more turns: it is read again.
            try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("changed.parley"))
            try LongConversationSave.write(turns: 7, slot: "changed", in: fixture.folder)
            let saves = fixture.inspector.saves()
            #expect(saves.first { $0.slot == "kept" }?.error == nil)
            #expect(saves.first { $0.slot == "kept" }?.npcs.first?.turns == 3)
            #expect(saves.first { $0.slot == "changed" }?.npcs.first?.turns == 7)
        }
    }
}
