import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import SaveGames
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// A temporary folder for saves, removed afterwards.
final class TemporaryFolder: Sendable {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-host-\(UUID().uuidString)")
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A model that answers with what it was told so far: the number of player lines, and the last one.
func echoModel() -> MockLanguageModel {
    MockLanguageModel { request in
        let said = request.transcript.compactMap { entry -> String? in
            guard case .prompt(let prompt) = entry, !prompt.isWitnessedEvent,
                case .text(let text)? = prompt.segments.first
            else { return nil }
            return text.content
        }
        return .text("You have said \(said.count) things; last: \(said.last ?? "nothing").")
    }
}

@Suite struct GameHostTests {
    @Test func aConversationContinuesInANewHostAfterLoading() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let first = GameHost(pack: pack, models: { _, _ in echoModel() }, store: store)
        let screen = Screen()
        for line in ["talk to mira", "I like your scales", "what's new?", "save slot1 \"Before the deal\""] {
            await first.perform(line, output: screen.record)
        }
        #expect(screen.text.contains("Saved to slot slot1."))
        let savedTranscript = try #require(await first.game.session(of: "mira")?.transcript)

        // A new host (as in a new process) loads the save and the NPC remembers.
        let second = GameHost(pack: pack, models: { _, _ in echoModel() }, store: store)
        screen.clear()
        await second.perform("load slot1", output: screen.record)
        #expect(screen.text.hasPrefix("Loaded slot1: Before the deal."))
        await second.perform("talk to mira", output: screen.record)
        #expect(screen.text.contains("You have said 2 things; last: what's new?"))
        let restored = try #require(await second.game.session(of: "mira")?.transcript)
        #expect(Array(restored.prefix(savedTranscript.count)) == Array(savedTranscript))
    }

    @Test func continuingFromTheAutosaveRestoresTheGameAndADamagedOneChangesNothing() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let first = GameHost(pack: pack, models: { _, _ in echoModel() }, store: store)
        for line in ["take apple", "talk to mira", "a first line"] { await first.perform(line) { _ in } }
        // A new host continues from the autosave (what `parley --continue` does), and saves on from there.
        let second = GameHost(pack: pack, models: { _, _ in echoModel() }, store: store)
        let screen = Screen()
        await second.perform("load autosave", output: screen.record)
        #expect(screen.text.hasPrefix("Loaded autosave"))
        #expect(await second.game.state.player.inventory.contains("apple"))
        await second.perform("talk to mira", output: screen.record)
        await second.perform("a second line", output: screen.record)
        #expect(screen.text.contains("You have said 2 things; last: a second line."))
        let saved = try #require(try store.open(slot: "autosave", access: .readOnly).transcript(npc: "mira"))
        #expect(saved.transcript.description.contains("a second line"))
        // A damaged autosave is refused, untouched, and the game goes on.
        let other = TemporaryFolder()
        let otherStore = SaveGameStore(folder: other.url)
        try FileManager.default.createDirectory(at: other.url, withIntermediateDirectories: true)
        let url = try otherStore.slotURL("autosave")
        let damaged = Data("SQLite format 3\u{0}".utf8) + Data(repeating: 0x41, count: 8_000)
        try damaged.write(to: url)
        let third = GameHost(pack: pack, models: { _, _ in echoModel() }, store: otherStore)
        screen.clear()
        await third.perform("load autosave", output: screen.record)
        #expect(screen.text.contains("Could not load autosave"), "\(screen.text)")
        #expect(try Data(contentsOf: url) == damaged)
        #expect(await third.game.state.player.location == pack.initialState.player.location)
    }

    @Test func loadingAnOlderSaveForgetsTheFuture() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let host = GameHost(pack: pack, models: { _, _ in echoModel() }, store: store)
        let screen = Screen()
        for line in ["talk to mira", "first words", "save early", "later words", "even later words"] {
            await host.perform(line, output: screen.record)
        }
        await host.perform("load early", output: screen.record)
        screen.clear()
        await host.perform("talk to mira", output: screen.record)
        #expect(screen.text.contains("You have said 1 things; last: first words."))
        // The autosave now tells the loaded story, not the abandoned one.
        let autosave = try store.open(slot: "autosave", access: .readOnly)
        let saved = try #require(try autosave.transcript(npc: "mira"))
        #expect(!saved.transcript.description.contains("even later words"))
    }

    @Test func everyTurnIsAutosavedAndAPendingOfferSurvives() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let model = MockLanguageModel(replies: [
            .text("Hello!"),
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"candle","quantity":2,"price":4}"#),
            .text("Two candles, four gold."),
        ])
        let host = GameHost(pack: pack, models: { _, _ in model }, store: store)
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        await host.perform("two candles please", output: screen.record)
        #expect(await host.game.pendingOffers["mira"] != nil)

        let second = GameHost(
            pack: pack, models: { _, _ in MockLanguageModel(replies: [.text("Thank you!")]) }, store: store)
        await second.perform("load autosave", output: screen.record)
        #expect(
            await second.game.pendingOffers["mira"]?.summary == "Mira Quickcoin offers 2 × Tallow Candle for 4 gold.")
        let gold = await second.game.state.player.gold
        await second.perform("talk to mira", output: screen.record)
        await second.perform("accept", output: screen.record)
        #expect(await second.game.state.player.gold == gold - 4)
        #expect(await second.game.state.player.inventory.quantity(of: "candle") == 2)
    }

    @Test func aFailingSaveKeepsTheGameGoing() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        // A folder that is a file: nothing can be saved in it.
        try Data("not a folder".utf8).write(to: folder.url)
        let host = GameHost(pack: pack, models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        #expect(screen.text.contains("Mira Quickcoin: You have said 0 things"))
        #expect(screen.text.contains("Autosave failed:"))
        screen.clear()
        await host.perform("save mine", output: screen.record)
        #expect(screen.text.hasPrefix("! The game could not be saved:"))
        await host.perform("hello", output: screen.record)
        #expect(screen.text.contains("You have said 1 things; last: hello."))
    }

    @Test func feedbackReportsAreKeptWithTheSave() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let model = MockLanguageModel(replies: [
            .toolCall("offerTrade", arguments: #"{"action":"sell","item":"lantern","price":1}"#), .text("Hm."),
        ])
        let host = GameHost(
            pack: pack, models: { _, _ in model }, store: store,
            feedbackFolder: folder.url.appendingPathComponent("feedback"))
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        await host.perform("report --category tooVerbose She said too little, if anything", output: screen.record)
        let saved = try store.open(slot: "autosave").feedback()
        #expect(saved.count == 2)
        let kinds = try saved.map { try FeedbackAttachment(data: Data($0.json.utf8)).context["kind"] }
        #expect(Set(kinds) == ["refusedOffer", "playerReport"])
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("feedback").path)
        #expect(files.count == 2)
    }
}
