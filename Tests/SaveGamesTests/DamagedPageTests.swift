import Foundation
import GameWorld
import LanguageModels
import ParleySQLite
import SyntheticWorlds
import Testing

@testable import SaveGames

/// A save is no longer read whole when it is opened, so damage is found where it is read: a damaged page or row of
/// the state refuses the load, before the game uses anything; a damaged page of a conversation the load does not
/// read lets the game load, and is reported, naming the file, when that conversation is read. The file is never
/// changed by finding out.
@Suite struct DamagedPageTests {
    /// A world big enough that its tables span many pages: 1,500 NPCs.
    static let pack = SyntheticWorld.generate(seed: 11, locations: 30, npcs: 1_500, items: 40)

    /// The NPCs with a conversation in the save, sorted.
    static let talkedTo: [NPCID] = pack.world.npcs.keys.sorted().prefix(60).map { $0 }

    /// Writes the save (`slot.parley`, closed) and returns its file.
    func writeSave(in folder: URL) throws -> URL {
        let store = SaveGameStore(folder: folder, now: fixedNow)
        let save = try store.open(slot: "slot")
        var conversations: [NPCID: AnnotatedTranscript] = [:]
        for npc in Self.talkedTo { conversations[npc] = SampleTranscripts.conversation(npc.rawValue, turns: 3) }
        try save.writeFull(
            SaveSnapshot(state: Self.pack.initialState, conversations: conversations, label: "Big enough"))
        save.close()
        return try store.slotURL("slot")
    }

    /// A leaf page of `table` that is neither its first nor its last: one that opening the save does not read.
    func middleLeaf(of table: String, in url: URL) throws -> Int {
        let leaves = try PageDamage.leafPages(of: table, in: url)
        try #require(leaves.count >= 3, "\(table) has \(leaves.count) leaf pages; the test needs 3 or more")
        return leaves[leaves.count / 2]
    }

    @Test("A damaged page of the state is refused when the save is loaded, naming the file; the file is unchanged")
    func aDamagedStatePage() throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            try PageDamage.overwrite(page: try middleLeaf(of: "npcs", in: url), in: url)
            let before = try Data(contentsOf: url)
            let store = SaveGameStore(folder: folder)
            // Opening reads the header, the schema and the ends of each b-tree, not this page.
            let save = try store.open(slot: "slot", access: .readOnly)
            let error = try #require(throws: SaveGameError.self) { try save.load(pack: Self.pack) }
            #expect(error.code == .corrupt, "\(error)")
            #expect(error.path == url.path)
            #expect(error.description.contains(url.path), "\(error)")
            #expect(error.description.contains("the table npcs is damaged"), "\(error)")
            #expect(error.description.contains("Restore it from a backup"), "\(error)")
            save.close()
            #expect(try Data(contentsOf: url) == before)
        }
    }

    @Test("A damaged row of the state (an integer turned to text by one byte) is refused when loaded, naming the file")
    func aDamagedStateRow() throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            // npcs(id, location, gold): the gold of the first NPC on a page in the middle of the table.
            try PageDamage.turnIntegerToText(column: 2, onPage: try middleLeaf(of: "npcs", in: url), in: url)
            let before = try Data(contentsOf: url)
            let save = try SaveGameStore(folder: folder).open(slot: "slot", access: .readOnly)
            let error = try #require(throws: SaveGameError.self) { try save.load(pack: Self.pack) }
            #expect(error.code == .corrupt, "\(error)")
            #expect(error.description.contains(url.path), "\(error)")
            #expect(error.description.contains("wrong type"), "\(error)")
            save.close()
            #expect(try Data(contentsOf: url) == before)
        }
    }

    @Test("A damaged page of one conversation does not stop the load; reading that conversation reports it")
    func aDamagedConversationPage() throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            let page = try middleLeaf(of: "transcript_entries", in: url)
            let damaged = NPCID(try PageDamage.firstText(onPage: page, in: url))
            try PageDamage.overwrite(page: page, in: url)
            let before = try Data(contentsOf: url)
            let store = SaveGameStore(folder: folder)
            // Listing and loading do not read the page: the save is playable.
            #expect(store.list().first?.error == nil)
            let save = try store.open(slot: "slot", access: .readOnly)
            let loaded = try save.load(pack: Self.pack)
            #expect(loaded.state == Self.pack.initialState)
            #expect(loaded.conversations == Self.talkedTo)
            // Another NPC's conversation reads as saved.
            let first = try #require(Self.talkedTo.first)
            #expect(first != damaged)
            #expect(try save.transcript(npc: first) == SampleTranscripts.conversation(first.rawValue, turns: 3))
            // The damaged one is reported when it is read, as damage of this file.
            let error = try #require(throws: SaveGameError.self) { try save.transcript(npc: damaged) }
            #expect(error.code == .corrupt, "\(error)")
            #expect(error.description.contains(url.path), "\(error)")
            #expect(error.description.contains("is damaged"), "\(error)")
            // The whole check finds it too.
            #expect(try !save.integrityCheck().isEmpty)
            save.close()
            #expect(try Data(contentsOf: url) == before)
        }
    }

    @Test("A damaged root page of a table no load reads is refused when the save is opened")
    func aDamagedRootPage() throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            try PageDamage.overwrite(page: try PageDamage.rootPage(of: "recordings", in: url), in: url)
            let before = try Data(contentsOf: url)
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
            let store = SaveGameStore(folder: folder)
            for access in [SaveFile.Access.readOnly, .readWrite] {
                let error = try #require(throws: SaveGameError.self) { try store.open(slot: "slot", access: access) }
                #expect(error.code == .corrupt, "\(access): \(error)")
                #expect(error.description.contains(url.path), "\(error)")
            }
            #expect(store.list().first?.error?.code == .corrupt)
            #expect(try Data(contentsOf: url) == before)
        }
    }

    @Test("A save not closed cleanly (a log beside it) is checked whole: a damaged page anywhere refuses it")
    func aSaveWithALogIsCheckedWhole() throws {
        try withTemporaryDirectory { folder in
            let url = try writeSave(in: folder)
            try PageDamage.overwrite(page: try middleLeaf(of: "transcript_entries", in: url), in: url)
            // A log beside the file, as a killed game leaves it (an empty one is enough to say so).
            try Data().write(to: URL(fileURLWithPath: url.path + "-wal"))
            let error = try #require(throws: SaveGameError.self) {
                try SaveGameStore(folder: folder).open(slot: "slot", access: .readOnly)
            }
            #expect(error.code == .corrupt, "\(error)")
            #expect(error.description.contains(url.path), "\(error)")
        }
    }
}
