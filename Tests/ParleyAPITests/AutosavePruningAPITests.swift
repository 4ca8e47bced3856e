import ContentPacks
import Foundation
import GameWorld
import ParleyAPI
import SaveGames
import ScriptedModel
import Synchronization
import Testing

/// `parley serve --keep-autosaves N`: when a game starts, the autosaves beyond the newest N are deleted oldest first,
/// and never one a game plays, whatever its age. Real SQLite saves in a temporary folder.
@Suite struct AutosavePruningAPITests {
    /// A store whose clock is a minute later at every call, so each save is newer than the one before.
    static func store(in folder: URL) -> SaveGameStore {
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

    static func slots(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".parley") }
            .map { String($0.dropLast(".parley".count)) }.sorted()
    }

    @Test func newGamesPruneOldAutosavesButNeverOnesBeingPlayed() async throws {
        let folder = APIGamesTests.Folder()
        let pack = try ContentPack.load(
            from: APIGamesTests.root.appendingPathComponent("Content"), displayPath: "Content"
        ).get()
        var configuration = APIGames.Configuration(
            pack: pack, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
            store: Self.store(in: folder.url))
        configuration.keptAutosaves = 1
        let games = APIGames(configuration: configuration)
        // Three games at once, each in its own slot: all played, so none is pruned although only one is kept.
        let (first, _) = try await games.start(.new)
        let (second, _) = try await games.start(.new)
        let (third, _) = try await games.start(.new)
        #expect(try Self.slots(in: folder.url) == ["autosave", "autosave-2", "autosave-3"])
        // The newest one, played on, stays the newest.
        _ = await third.input("look")
        try await games.end(first.id)
        try await games.end(second.id)
        // Ended, the first two are old autosaves like any other: a new game prunes them, not the third (played).
        let (fourth, _) = try await games.start(.new)
        let fourthSlot = try #require(await fourth.state()["slot"]?.stringValue)
        #expect(fourthSlot == "autosave-4")
        #expect(try Self.slots(in: folder.url) == ["autosave-3", "autosave-4"])
        // Both games still save.
        _ = await third.input("look")
        _ = await fourth.input("look")
        await games.endAll()
        #expect(try Self.slots(in: folder.url) == ["autosave-3", "autosave-4"])
    }
}
