import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import ScriptedModel
import Testing

@testable import ParleyEngine

/// A pack in German (`Examples/Marktplatz`) plays in German: its commands are the German lexicon's, speech wins while
/// talking as in English, its offers are summed up in German, and the claim check reads German number words. An NPC
/// speaking German in the English town says its built-in lines in German.
@Suite struct GermanGameTests {
    static func marktplatz() throws -> ContentPack {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try ContentPack.load(
            from: root.appendingPathComponent("Examples/Marktplatz"), displayPath: "Examples/Marktplatz"
        ).get()
    }

    /// At the Marktplatz with Greta, carrying the knife; the apples lie on the Kirchplatz, north.
    static func scope() throws -> CommandScope { CommandScope(state: try marktplatz().initialState) }

    static let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world) }

    @Test(arguments: [
        ("rede mit greta", GameCommand.talk("greta")), ("sprich mit der Krämerin", .talk("Krämerin")),
        ("gehe nach norden", .go("north")), ("geh nach Süden", .go("south")), ("n", .go("north")),
        ("gehe zum Kirchplatz", .go("kirchplatz")),
        ("nimm apfel", .take("apfel")), ("lass das Messer fallen", .drop("Messer")),
        ("gib das Messer an Greta", .give(item: "Messer", to: "Greta")),
        ("gib greta das messer", .give(item: "messer", to: "greta")),
        ("untersuche die Laterne", .examine("Laterne")), ("schau dir die Laterne an", .examine("Laterne")),
        ("annehmen", .accept), ("nimm an", .accept), ("ablehnen", .decline), ("angebote", .offers),
        ("inventar", .inventory), ("i", .inventory), ("schau", .look), ("hilfe", .help), ("?", .help),
        ("tschüss", .bye), ("verlauf", .history), ("speichern", .save(slot: nil, label: nil)),
        ("beenden", .quit), ("sage \"gehe nach norden\"", .say("gehe nach norden")),
    ])
    func germanCommandsAreCommandsNotTalking(line: String, command: GameCommand) throws {
        #expect(GameCommand.parse(line, talking: false, scope: try Self.scope()) == command)
    }

    @Test(arguments: [
        "gib mir zwei Kerzen, bitte", "nimm doch zwölf Gold", "nimm die Laterne", "geh mit der Zeit",
        "lass uns handeln", "rede nicht so viel", "speichere mir ein Brot", "tschüss und danke", "annehmen würde ich",
        "gib das Brot an deine Mutter", "gehe nicht so schnell",
    ])
    func germanSpeechIsSaidWhileTalking(line: String) throws {
        #expect(GameCommand.parse(line, talking: true, scope: try Self.scope()) == .say(line))
    }

    /// The English words are not the German pack's commands: "go north" is said to Greta, or not understood.
    @Test func englishCommandWordsAreNotGermanOnes() throws {
        let scope = try Self.scope()
        #expect(GameCommand.parse("accept", talking: true, scope: scope) == .say("accept"))
        guard case .unknown(_, let hint) = GameCommand.parse("go north", talking: false, scope: scope) else {
            Issue.record("go north is a German command")
            return
        }
        #expect(hint.contains("Tippe hilfe"))
    }

    /// A whole visit in German: the help, the walk, the offer and its summary, the built-in lines.
    @Test func aVisitPlaysInGerman() async throws {
        let game = Game(state: try Self.marktplatz().initialState, models: Self.models)
        let screen = Screen()
        await game.perform("hilfe", output: screen.record)
        #expect(screen.text.contains("rede mit <person>"), "\(screen.text)")
        screen.clear()
        await game.perform("rede mit greta", output: screen.record)
        await game.perform("Ich nehme das Seil", output: screen.record)
        let offer = try #require(await game.pendingOffers["greta"])
        #expect(offer.summary == "Greta Krämer bietet dir 1 Seil für 6 Gold an.")
        await game.perform("annehmen", output: screen.record)
        #expect(await game.state.player.inventory.contains("seil"))
        screen.clear()
        await game.perform("Was habe ich bei dir gekauft?", output: screen.record)
        #expect(screen.text.contains("Du hast 1 × Seil für 6 Gold bei mir gekauft."), "\(screen.text)")
        screen.clear()
        await game.perform("gehe nach norden", output: screen.record)
        #expect(await game.state.player.location == "kirchplatz")
        await game.perform("nimm apfel", output: screen.record)
        #expect(await game.state.player.inventory.contains("apfel"), "\(screen.text)")
        await game.perform("gehe nach süden", output: screen.record)
        #expect(await game.state.player.location == "marktplatz")
    }

    /// The claim check reads a German NPC's numbers with the German lexicon: "fünfzehn Gold" is the lantern's price,
    /// "drei Gold" for it is false.
    @Test func theClaimCheckReadsGermanNumberWords() throws {
        let state = try Self.marktplatz().initialState
        let checker = ClaimChecker(world: state.world)
        func kinds(_ line: String) -> [FalseClaim.Kind] {
            checker.falseClaims(in: line, npc: "greta", state: state, turnEntries: [], pendingOffer: nil).map(\.kind)
        }
        #expect(kinds("Die Laterne kostet fünfzehn Gold.") == [])
        #expect(kinds("Die Laterne kostet drei Gold.") == [.price])
        #expect(kinds("Die Laterne kostet zweiundzwanzig Gold.") == [.price])
        #expect(kinds("Die Laterne kostet 3 Gold.") == [.price])
    }

    /// An NPC speaking German in the English town: the player's German is read with the German lexicon, and it
    /// answers in the built-in German lines.
    @Test func anNPCOfAnotherLanguageSaysItsBuiltInLinesInIt() async throws {
        let start = try shippedPack().initialState
        var world = start.world
        world.npcs["mira"]?.language = "de"
        world.npcs["mira"]?.dialogue = .none
        world.npcs["mira"]?.beats = []
        let state = GameState(world: world, player: start.player, story: start.story)
        let game = Game(state: state, models: Self.models)
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        screen.clear()
        await game.perform("Was kostet die Brass Lantern?", output: screen.record)
        #expect(
            screen.text.contains("Brass Lantern kostet 25 Gold.") || screen.text.contains("Brass Lantern: 25 Gold."),
            "\(screen.text)")
        screen.clear()
        await game.perform("Ich nehme die rope", output: screen.record)
        #expect(await game.pendingOffers["mira"]?.summary == "Mira Quickcoin bietet dir 1 Coil of Rope für 8 Gold an.")
        #expect(screen.text.contains("Sag annehmen"), "\(screen.text)")
    }
}
