import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleySQLite
import SaveGames
import SyntheticWorlds
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// A game never saves over what it did not make, keeps every report and recording with the turn it belongs to, and
/// leaves each save one self-contained file when it ends.
@Suite struct GameHostSafetyTests {
    /// A model that answers every prompt by offering the lantern for 1 gold, which the guard refuses (a feedback
    /// report), and then says "Hm.".
    func refusingModel() -> MockLanguageModel {
        MockLanguageModel { request in
            if case .prompt? = request.transcript.last {
                return .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","price":1}"#)
            }
            return .text("Hm.")
        }
    }

    /// Plays a few turns in a new game in `folder` and closes it, leaving an autosave.
    func playAndQuit(in folder: URL, lines: [String] = ["take apple", "talk to mira", "hello there"]) async throws {
        let host = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder))
        await host.begin(continuing: false) { _ in }
        for line in lines { await host.perform(line) { _ in } }
        await host.close()
    }

    /// The files of a folder, without the lock file and the listing index (a cache listings keep beside the saves).
    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0 != SaveFolderLock.fileName && $0 != ".parley-index.json"
        }
        .sorted()
    }

    // MARK: - Never over a save it did not make

    /// A way an autosave fails to load, done to the autosave of a game.
    struct Damage: Sendable, CustomTestStringConvertible {
        let name: String
        let apply: @Sendable (URL) throws -> Void
        var testDescription: String { name }

        static func sql(_ name: String, _ sql: String) -> Damage {
            Damage(name: name) { url in
                let db = try Database(path: url.path, options: DatabaseOptions(foreignKeys: false))
                try db.execute(sql: sql)
            }
        }
    }

    static let damages: [Damage] = [
        .sql("a bad pending offer", #"INSERT OR REPLACE INTO pending_offers VALUES ('mira', '{"npc":"mira","playerGives":{"gold":-7}}', 'x')"#),
        .sql("gold stored as text", "UPDATE player SET gold = 'lots'"),
        .sql("gold at Int.max", "UPDATE player SET gold = \(Int.max)"),
        .sql("a missing player row", "DELETE FROM player"),
        .sql("a dropped table", "DROP TABLE npcs"),
        Damage(name: "a save of another world") { url in
            let folder = url.deletingLastPathComponent()
            try FileManager.default.removeItem(at: url)
            let other = SyntheticWorld.generate(seed: 3, locations: 2, npcs: 2, items: 3)
            let save = try SaveGameStore(folder: folder).open(slot: "autosave")
            try save.writeFull(SaveSnapshot(state: other.initialState, label: "Elsewhere"))
            save.close()
        },
        Damage(name: "damaged pages") { url in
            var bytes = try Data(contentsOf: url)
            for offset in 4096..<min(bytes.count, 8192) { bytes[offset] = 0x41 }
            try bytes.write(to: url)
        },
    ]

    @Test("An autosave that fails to load stays byte for byte as it was; the new game goes to a fresh slot", arguments: damages)
    func anUnloadableAutosaveIsNeverOverwritten(_ damage: Damage) async throws {
        let folder = TemporaryFolder()
        try await playAndQuit(in: folder.url)
        let autosave = folder.url.appendingPathComponent("autosave.parley")
        try damage.apply(autosave)
        let before = try Data(contentsOf: autosave)
        #expect(try files(in: folder.url) == ["autosave.parley"])

        let host = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        try await host.claimSaves()
        let screen = Screen()
        await host.begin(continuing: true, output: screen.record)
        #expect(screen.text.contains("Could not continue the game in slot autosave"), "\(screen.text)")
        #expect(screen.text.contains("left exactly as it was; a new game begins instead"), "\(screen.text)")
        #expect(screen.text.contains("this game saves itself to slot autosave-2"), "\(screen.text)")
        for line in ["look", "take apple", "talk to mira", "hello", "save"] { await host.perform(line, output: screen.record) }
        await host.close()

        #expect(try Data(contentsOf: autosave) == before, "the damaged autosave was changed")
        #expect(try files(in: folder.url) == ["autosave-2.parley", "autosave.parley", "save.parley"])
        let fresh = try SaveGameStore(folder: folder.url).open(slot: "autosave-2", access: .readOnly)
        #expect(try fresh.load(pack: shippedPack()).state.player.inventory.contains("apple"))
        // Starting again continues the new game, and still does not touch the damaged file.
        let again = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        screen.clear()
        await again.begin(continuing: true, output: screen.record)
        #expect(screen.text.hasPrefix("Loaded autosave-2"), "\(screen.text)")
        await again.close()
        #expect(try Data(contentsOf: autosave) == before)
    }

    @Test("A new game never replaces the last one: it saves itself to the next free slot and says so")
    func aNewGameKeepsTheLastOne() async throws {
        let folder = TemporaryFolder()
        try await playAndQuit(in: folder.url, lines: ["take apple"])
        let host = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        let screen = Screen()
        await host.begin(continuing: false, output: screen.record)
        #expect(screen.text.hasPrefix("Slot autosave holds another save, which is kept exactly as it was"))
        #expect(await host.activeAutosaveSlot == "autosave-2")
        await host.perform("go north", output: screen.record)
        await host.close()
        let store = SaveGameStore(folder: folder.url)
        let first = try store.open(slot: "autosave", access: .readOnly).load(pack: shippedPack())
        #expect(first.state.player.inventory.contains("apple"))
        let second = try store.open(slot: "autosave-2", access: .readOnly).load(pack: shippedPack())
        #expect(!second.state.player.inventory.contains("apple"))
        #expect(store.autosaveSlots(base: "autosave").map(\.slot) == ["autosave-2", "autosave"])
    }

    @Test("Loading another autosave continues it in its own slot; the game left stays in its own")
    func loadingAnotherAutosaveSwitchesSlots() async throws {
        let folder = TemporaryFolder()
        try await playAndQuit(in: folder.url, lines: ["take apple"])
        let host = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        await host.begin(continuing: false) { _ in }
        await host.perform("go north") { _ in }
        await host.perform("load autosave") { _ in }
        #expect(await host.activeAutosaveSlot == "autosave")
        await host.perform("take apple") { _ in }
        await host.close()
        let store = SaveGameStore(folder: folder.url)
        #expect(try store.open(slot: "autosave-2", access: .readOnly).load(pack: shippedPack()).state.player.location == "north_gate")
        #expect(try store.open(slot: "autosave", access: .readOnly).load(pack: shippedPack()).state.player.inventory.quantity(of: "apple") == 2)
    }

    @Test("Loading the game's own autosave mid-game restores its latest turn, not the state checked before it")
    func loadingTheOwnAutosaveRestoresTheLatestTurn() async throws {
        let folder = TemporaryFolder()
        let host = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        await host.begin(continuing: false) { _ in }
        await host.perform("take apple") { _ in }
        await host.perform("go north") { _ in }
        let screen = Screen()
        await host.perform("load autosave", output: screen.record)
        #expect(screen.text.contains("Loaded autosave"), "\(screen.text)")
        #expect(await host.game.state.player.location == "north_gate")
        #expect(await host.game.state.player.inventory.contains("apple"))
        await host.perform("go south") { _ in }
        await host.close()
        let saved = try SaveGameStore(folder: folder.url).open(slot: "autosave", access: .readOnly).load(pack: shippedPack())
        #expect(saved.state.player.location != "north_gate")
    }

    // MARK: - Reports and recordings

    @Test("A game hands each new report and recording to its host once, with no count kept by the host")
    func newAttachmentsAreHandedOverOnce() async throws {
        let game = Game(state: try shippedPack().initialState, models: { _, _ in self.refusingModel() })
        await game.perform("talk to mira") { _ in }
        await game.perform("a lantern for one gold?") { _ in }
        let first = await game.takeNewAttachments()
        #expect(first.recordings.count == 2)
        #expect(first.feedback.count == 2)
        #expect(await game.takeNewAttachments().recordings.isEmpty)
        await game.perform("and again?") { _ in }
        let second = await game.takeNewAttachments()
        #expect(second.recordings.count == 1)
        #expect(second.feedback.count == 1)
        #expect(Set(second.recordings.map(\.id)).isDisjoint(with: first.recordings.map(\.id)))
        // The game's own lists keep everything, for replays and `feedback list`.
        #expect(await game.recordings.map(\.id) == (first.recordings + second.recordings).map(\.id))
    }


    @Test("Loading a save keeps the feedback reports and recordings the autosave held")
    func loadingKeepsReportsAndRecordings() async throws {
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let host = GameHost(pack: try shippedPack(), models: { _, _ in self.refusingModel() }, store: store)
        await host.begin(continuing: false) { _ in }
        for line in ["talk to mira", "a lantern for one gold?", "save early", "and again?", "once more?"] {
            await host.perform(line) { _ in }
        }
        let reports = await host.game.feedback.map(\.attachment.id)
        let recordings = await host.game.recordings.map(\.id)
        #expect(reports.count >= 2)
        let early = try store.open(slot: "early", access: .readOnly)
        #expect(try Set(early.feedback().map(\.id)).isStrictSubset(of: Set(reports)))
        await host.perform("load early") { _ in }
        await host.close()
        let autosave = try store.open(slot: "autosave", access: .readOnly)
        #expect(Set(try autosave.feedback().map(\.id)) == Set(reports))
        #expect(Set(try autosave.recordings().map(\.id)) == Set(recordings))
        // A manual save carries every report and recording of the story too.
        #expect(Set(try early.recordings().map(\.id)).isSubset(of: Set(recordings)))
    }

    @Test("A failed autosave keeps the turn's report and recording, and the next autosave writes them")
    func aFailedAutosaveDropsNothing() async throws {
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let host = GameHost(pack: try shippedPack(), models: { _, _ in self.refusingModel() }, store: store)
        await host.begin(continuing: false) { _ in }
        await host.perform("talk to mira") { _ in }
        // Another connection holds the write lock: the next autosave fails (after SQLite's busy timeout).
        let blocker = try Database(path: try store.slotURL("autosave").path)
        try blocker.execute(sql: "BEGIN IMMEDIATE")
        let screen = Screen()
        await host.perform("a lantern for one gold?", output: screen.record)
        #expect(screen.text.contains("Autosave failed:"), "\(screen.text)")
        #expect(screen.text.contains("the next autosave will try again with this turn and its 1 feedback report"))
        let report = try #require(await host.game.feedback.last?.attachment.id)
        try blocker.execute(sql: "ROLLBACK")
        await host.perform("look") { _ in }
        await host.close()
        let saved = try store.open(slot: "autosave", access: .readOnly)
        #expect(try saved.feedback().map(\.id).contains(report))
        #expect(Set(try saved.recordings().map(\.id)) == Set(await host.game.recordings.map(\.id)))
    }

    // MARK: - Closing

    @Test("Closing leaves each save one self-contained file and frees the folder")
    func closingLeavesSingleFiles() async throws {
        let folder = TemporaryFolder()
        let store = SaveGameStore(folder: folder.url)
        let host = GameHost(pack: try shippedPack(), models: { _, _ in echoModel() }, store: store)
        try await host.claimSaves()
        await host.begin(continuing: false) { _ in }
        for line in ["talk to mira", "hello", "save one", "load one", "bye"] { await host.perform(line) { _ in } }
        #expect(try files(in: folder.url).contains("autosave.parley-wal"))
        await host.close()
        #expect(try files(in: folder.url) == ["autosave.parley", "one.parley"])
        let lock = try store.lockFolder()
        #expect(lock.isHeld)
    }
}
