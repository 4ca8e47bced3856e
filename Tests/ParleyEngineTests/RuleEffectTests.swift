import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine

/// A dialogue rule's effects run from the committed transcript: the rule that answered travels back in the response
/// entry, so a turn that fails after its rule was chosen changes nothing, now or later.
@Suite struct RuleEffectTests {
    /// The shipped pack with a rule at the top of Mira's dialogue that counts each time it answers.
    static func pack() throws -> ContentPack {
        var files = try shippedFiles()
        let mira = try #require(files["npcs/mira.json"])
        let rule = """
            { "id": "secret", "when": { "keywords": ["password"] }, "replies": ["Shh. Swordfish."],
              "effects": [{ "counter": "secrets_told", "add": 1 }] },
            """
        let marker = "\"rules\": ["
        let range = try #require(mira.range(of: marker))
        files["npcs/mira.json"] = mira.replacingCharacters(in: range, with: marker + rule)
        return try ContentPack.load(files: files).get()
    }

    /// The scripted model, except that the first time it answers with `rule` it fails after choosing it, as a
    /// server that dies once its answer is decided would.
    final class FailingOnceAfterRule: LanguageModel {
        let inner: ScriptedModel
        let rule: String
        let failures = Mutex(0)

        init(_ inner: ScriptedModel, failingOnce rule: String) {
            self.inner = inner
            self.rule = rule
        }

        struct Died: Error, CustomStringConvertible {
            var description: String { "the model died after choosing its answer" }
        }

        var id: String { inner.id }
        var version: String { inner.version }
        var capabilities: LanguageModelCapabilities { inner.capabilities }
        var contextSize: Int { inner.contextSize }
        func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
            try await inner.tokenCount(for: entries)
        }
        func tokenCount(for schema: GenerationSchema) async throws -> Int { try await inner.tokenCount(for: schema) }

        func generate(_ request: GenerationRequest) async throws -> Generation {
            let generation = try await inner.generate(request)
            let failNow = failures.withLock { failures in
                guard generation.assetIDs.contains(rule), failures == 0 else { return false }
                failures += 1
                return true
            }
            if failNow { throw Died() }
            return generation
        }
    }

    @Test func aTurnThatFailsAfterItsRuleWasChosenRunsNoEffects() async throws {
        let pack = try Self.pack()
        let rule = AnsweringRule(source: .npc("mira"), id: "secret").assetID
        let game = Game(
            state: pack.initialState,
            models: { npc, world in
                FailingOnceAfterRule(ScriptedModel(npc: npc, world: world, seed: 1), failingOnce: rule)
            })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        screen.clear()
        await game.perform("what's the password?", output: screen.record)
        #expect(screen.text.contains("the model died after choosing its answer"))
        #expect(await game.state.story.counter("secrets_told") == 0)
        // The next turn succeeds with another rule: the failed turn's rule still runs nothing.
        await game.perform("hello", output: screen.record)
        #expect(await game.state.story.counter("secrets_told") == 0)
        // Said again, the rule answers and its effects run once.
        screen.clear()
        await game.perform("the password, please", output: screen.record)
        #expect(screen.text.contains("Swordfish"))
        #expect(await game.state.story.counter("secrets_told") == 1)
        let history = try #require(await game.conversations["mira"]?.history)
        let answered = history.compactMap { entry -> AnsweringRule? in
            if case .response(let response) = entry { response.answeringRule } else { nil }
        }
        #expect(answered.filter { $0.id == "secret" }.count == 1)
    }

    @Test func theRuleOfACommittedTurnRunsItsEffectsOnce() async throws {
        let game = Game(
            state: try Self.pack().initialState, models: { npc, world in ScriptedModel(npc: npc, world: world) })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        await game.perform("password?", output: screen.record)
        await game.perform("how much is the lantern?", output: screen.record)
        #expect(await game.state.story.counter("secrets_told") == 1)
    }
}

/// Refusal reasons reach the NPC typed and are said in its voice, never as the game's third-person sentence.
@Suite struct SpokenRefusalTests {
    @Test func anOverAskingCounterIsAnsweredInTheNPCsVoice() async throws {
        let game = Game(
            state: try shippedPack().initialState, models: { npc, world in ScriptedModel(npc: npc, world: world) })
        let screen = Screen()
        for line in ["talk to mira", "how much is the candle?", "would you take 1?"] {
            await game.perform(line, output: screen.record)
        }
        #expect(await game.pendingOffers["mira"] != nil)
        screen.clear()
        await game.perform("how about 3?", output: screen.record)
        // The guard refused the offer at 3 (she had just said 1), and the model read why as data.
        let refused = try #require(await game.refusedOffers.last)
        #expect(refused.reasons.contains { $0.contains("just") })
        #expect(screen.text.contains("I said 1 gold for the Tallow Candle, and 1 it is."), "\(screen.text)")
        #expect(!screen.text.contains("Mira Quickcoin just said"), "\(screen.text)")
    }
}

/// `examine` (`x`, `look at`, `inspect`) shows what content says about someone or something.
@Suite struct ExamineTests {
    @Test(arguments: [
        ("examine lantern", false, GameCommand.examine("lantern")), ("x the rope", false, .examine("rope")),
        ("look at Mira", true, .examine("Mira")), ("inspect my letter", true, .examine("letter")),
        ("look", true, .look), ("look at", false, .look),
    ])
    func examineIsACommandEvenWhileTalking(line: String, talking: Bool, command: GameCommand) throws {
        // At the market square, where Mira is; the player carries the letter.
        let scope = CommandScope(state: try shippedPack().initialState)
        #expect(GameCommand.parse(line, talking: talking, scope: scope) == command)
    }

    @Test func anNPCAnItemHereAndAnItemCarriedAreDescribed() async throws {
        let pack = try shippedPack()
        var player = pack.initialState.player
        player.inventory.add("bread")
        let state = GameState(world: pack.world, player: player)
        let game = Game(state: state, models: { _, _ in MockLanguageModel(replies: []) })
        let screen = Screen()
        await game.perform("examine mira", output: screen.record)
        #expect(screen.text.contains(try #require(pack.world.npcs["mira"]?.description)))
        screen.clear()
        await game.perform("x bread", output: screen.record)
        #expect(screen.text.contains(try #require(pack.world.items["bread"]?.description)))
        let here = try #require(state.currentLocation?.items.map(\.item).first { $0 != "bread" })
        screen.clear()
        await game.perform("look at \(pack.world.name(of: here))", output: screen.record)
        #expect(screen.text.contains(try #require(pack.world.items[here]?.description)))
        screen.clear()
        await game.perform("examine mria", output: screen.record)
        #expect(screen.text.contains("You see no mria here. Did you mean Mira Quickcoin?"), "\(screen.text)")
    }

    @Test(arguments: ["examine letter", "x the letter", "look at my aunt's letter"])
    func theLetterTheGameStartsWithCanBeRead(line: String) async throws {
        let pack = try shippedPack()
        let game = Game(state: pack.initialState, models: { _, _ in MockLanguageModel(replies: []) })
        let screen = Screen()
        await game.perform(line, output: screen.record)
        #expect(screen.text.contains(try #require(pack.world.items["aunts_letter"]?.description)), "\(screen.text)")
    }
}

/// A category word asks for the NPC's stock of that category, rather than for an item of that name.
@Suite struct CategoryStockTests {
    @Test func askingBrannocForWeaponsListsHisBlades() async throws {
        let pack = try shippedPack()
        let game = Game(state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world) })
        let screen = Screen()
        for line in ["e", "talk to brannoc"] { await game.perform(line, output: screen.record) }
        screen.clear()
        await game.perform("got any weapons?", output: screen.record)
        let brannoc = try #require(pack.world.npcs["brannoc"])
        let weapons = brannoc.inventory.compactMap { pack.world.items[$0.item] }.filter {
            $0.category == "weapon" && brannoc.sells($0)
        }
        #expect(weapons.count > 1)
        for weapon in weapons { #expect(screen.text.contains(weapon.name), "\(screen.text)") }
        #expect(!screen.text.contains("Not on my rack"), "\(screen.text)")
    }
}
