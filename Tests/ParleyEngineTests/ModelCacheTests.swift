import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import SaveGames
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// Model caches at the engine's level: entering a place prewarms the models of the NPCs there, in the background
/// and with what their first request will begin with; the game asks the models to write their caches when it saves
/// and closes, so that the first turn after `--continue` restores the NPC's cache. The models are test doubles:
/// what a server does with a prewarm or a cache file is the backend's business (`SlotCacheTests`).
@Suite(.timeLimit(.minutes(10)))
struct ModelCacheTests {
    // MARK: - Prewarm

    /// A game on the shipped world whose NPCs are voiced by `voice`.
    static func game(voice: CacheRecordingModel, mode: VoiceMode = .grounded) throws -> Game {
        Game(state: try shippedPack().initialState) { npc, world in
            VoicedModel(
                voice: voice.keyed(npc.id.rawValue), planner: ScriptedModel(npc: npc, world: world, seed: 1),
                mode: mode)
        }
    }

    static func text(of entry: Transcript.Entry?) -> String {
        entry.map { Game.text(of: $0.segments) } ?? ""
    }

    @Test func enteringAPlacePrewarmsTheVoiceOfTheNPCThereWithItsVoicingPrompt() async throws {
        let voice = CacheRecordingModel()
        let game = try Self.game(voice: voice)
        await game.perform("go east", output: { _ in })
        let prewarm = try #require(await voice.nextPrewarm())
        #expect(prewarm.key == "brannoc")
        let instructions = Self.text(of: prewarm.request.transcript.first)
        #expect(instructions.contains("You are Brannoc"), "\(instructions)")
        #expect(instructions.contains("Rewrite the reply"))
        #expect(prewarm.request.transcript.count == 5, "the instructions and the two worked examples, no prompt yet")
        #expect(prewarm.request.tools.isEmpty)
    }

    @Test func aPrewarmNeverDelaysTheCommand() async throws {
        // The voice's prewarm does not return until the test lets it; the command is over long before.
        let voice = CacheRecordingModel(holdsPrewarms: true)
        let game = try Self.game(voice: voice)
        let screen = Screen()
        await game.perform("go east", output: screen.record)
        #expect(screen.text.contains("Brannoc"))
        #expect(try #require(await voice.nextPrewarm()).key == "brannoc")
        // The player talks while the prewarm still runs: the turn answers.
        await game.perform("talk to brannoc", output: screen.record)
        #expect(await game.lastTurn?.failure == nil)
        voice.releasePrewarms()
    }

    @Test func inFreeModeTheNPCsFirstInstructionsAndToolsArePrewarmed() async throws {
        let voice = CacheRecordingModel()
        let game = try Self.game(voice: voice, mode: .free)
        await game.perform("go east", output: { _ in })
        let prewarm = try #require(await voice.nextPrewarm())
        #expect(prewarm.key == "brannoc")
        #expect(prewarm.request.transcript.count == 1, "the instructions the conversation will start with")
        let instructions = Self.text(of: prewarm.request.transcript.first)
        #expect(instructions.contains("You are Brannoc"))
        #expect(instructions.contains("Stay in character"))
        #expect(prewarm.request.tools.count == 5, "the NPC's tools")
        #expect(await game.session(of: "brannoc") == nil, "nothing of a conversation is kept by a prewarm")
    }

    @Test func inFreeModeAConversationAlreadyHadIsPrewarmedAsItIs() async throws {
        let voice = CacheRecordingModel()
        let game = try Self.game(voice: voice, mode: .free)
        await game.perform("talk to mira", output: { _ in })
        await game.perform("hello there", output: { _ in })
        await game.perform("go east", output: { _ in })
        #expect(try #require(await voice.nextPrewarm()).key == "brannoc")
        await game.perform("go west", output: { _ in })
        let prewarm = try #require(await voice.nextPrewarm())
        #expect(prewarm.key == "mira")
        let transcript = try #require(await game.session(of: "mira")?.transcript)
        #expect(prewarm.request.transcript == transcript)
    }

    @Test func placesWithoutNPCsAndASwitchedOffVoicePrewarmNothing() async throws {
        let voice = CacheRecordingModel()
        let game = try Self.game(voice: voice)
        await game.perform("go south", output: { _ in })  // river lane: Pip
        #expect(try #require(await voice.nextPrewarm()).key == "pip")
        await game.perform("go south", output: { _ in })  // the old mill: nobody
        await game.setVoiceEnabled(false)
        await game.perform("go north", output: { _ in })  // Pip again, but the voice is off
        await game.setVoiceEnabled(true)
        await game.perform("go east", output: { _ in })  // the curio house: Aurelio
        #expect(try #require(await voice.nextPrewarm()).key == "aurelio", "nothing came in between")
    }

    // MARK: - Caches written on save and close, restored after continuing

    @Test func closingWritesTheCachesAndTheFirstTurnAfterContinuingRestoresThem() async throws {
        let folder = TemporaryFolder()
        let pack = try shippedPack()
        let store = SaveGameStore(folder: folder.url)
        let disk = CacheRecordingModel.Disk()
        let first = CacheRecordingModel(disk: disk)
        let host = GameHost(pack: pack, models: { npc, _ in first.keyed(npc.id.rawValue) }, store: store)
        await host.begin(continuing: false, output: { _ in })
        for line in ["talk to mira", "hello there", "how much is the lantern?"] {
            await host.perform(line, output: { _ in })
        }
        #expect(!disk.files.contains("mira"), "a turn writes no cache file")
        await host.close()
        #expect(disk.files.contains("mira"), "closing wrote Mira's cache")

        // A new process: a new server-side state, the same files.
        let second = CacheRecordingModel(disk: disk)
        let continued = GameHost(pack: pack, models: { npc, _ in second.keyed(npc.id.rawValue) }, store: store)
        await continued.begin(continuing: true, output: { _ in })
        await continued.perform("talk to mira", output: { _ in })
        await continued.perform("I'm back", output: { _ in })
        #expect(await continued.game.lastTurn?.failure == nil)
        #expect(second.firstUses == ["mira": .restored], "the first turn after continuing restored Mira's cache")
        await continued.close()
    }

    @Test func savingTheGameWritesTheCaches() async throws {
        let folder = TemporaryFolder()
        let disk = CacheRecordingModel.Disk()
        let model = CacheRecordingModel(disk: disk)
        let host = GameHost(
            pack: try shippedPack(), models: { npc, _ in model.keyed(npc.id.rawValue) },
            store: SaveGameStore(folder: folder.url))
        await host.begin(continuing: false, output: { _ in })
        await host.perform("talk to mira", output: { _ in })
        #expect(disk.files.isEmpty)
        await host.perform("save slot1", output: { _ in })
        #expect(disk.files == ["mira"])
        await host.close()
    }

    @Test func aGameWithModelsThatKeepNoCachesSavesAndClosesAsBefore() async throws {
        let folder = TemporaryFolder()
        let host = GameHost(
            pack: try shippedPack(), models: { _, _ in echoModel() }, store: SaveGameStore(folder: folder.url))
        await host.begin(continuing: false, output: { _ in })
        let screen = Screen()
        await host.perform("talk to mira", output: screen.record)
        await host.perform("save slot1", output: screen.record)
        await host.close(output: screen.record)
        #expect(screen.text.contains("Saved to slot slot1."))
        #expect(!screen.text.contains("!"), "\(screen.text)")
    }
}
