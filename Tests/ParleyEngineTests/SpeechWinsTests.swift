import Foundation
import GameWorld
import ParleyEngine
import ScriptedModel
import Testing

/// While the player talks to an NPC, a line is speech unless it is unmistakably a game command: a command word
/// followed by what the command takes here. A `/` line is always a command.
@Suite struct SpeechWinsTests {
    /// The shipped town's start: at the market square with Mira, two apples lying here, carrying a rusty sword, two
    /// loaves and a letter.
    static func scope() throws -> CommandScope {
        CommandScope(state: try shippedPack().initialState)
    }

    @Test(arguments: [
        ("go north", GameCommand.go("north")), ("n", .go("north")), ("walk West", .go("west")),
        ("go down", .go("down")), ("go north gate", .go("north gate")),
        ("give bread to mira", .give(item: "bread", to: "mira")),
        ("give the loaf to Mira Quickcoin", .give(item: "loaf", to: "Mira Quickcoin")),
        ("hand rusty sword to the merchant", .give(item: "rusty sword", to: "merchant")),
        ("give bread", .give(item: "bread", to: nil)),
        ("take apple", .take("apple")), ("pick up the apples", .take("apples")), ("get apple", .take("apple")),
        ("drop bread", .drop("bread")),
        ("examine lantern", .examine("lantern")), ("x mira", .examine("mira")), ("look at the rope", .examine("rope")),
        ("inspect my letter", .examine("letter")),
        ("talk to mira", .talk("mira")), ("speak with the trader", .talk("trader")),
        ("accept", .accept), ("decline", .decline), ("bye", .bye), ("i", .inventory), ("look", .look),
        ("offers", .offers), ("history", .history), ("help", .help),
        ("save", .save(slot: nil, label: nil)), ("save before-haggling", .save(slot: "before-haggling", label: nil)),
        ("save one", .save(slot: "one", label: nil)),
        ("save before \"the haggle\"", .save(slot: "before", label: "the haggle")),
        ("load autosave", .load("autosave")),
        ("report she said 5 gold", .report(expected: "she said 5 gold", category: .incorrect)),
        ("say \"go north\"", .say("go north")),
        ("/go on then", .go("on then")), ("/give me two loaves", .give(item: "me two loaves", to: nil)),
        ("/take two loaves", .take("two loaves")), ("/ accept", .accept), ("/bye for now", .bye),
    ])
    func commandsThatStayCommandsWhileTalking(line: String, command: GameCommand) throws {
        #expect(GameCommand.parse(line, talking: true, scope: try Self.scope()) == command)
    }

    @Test(arguments: [
        "go on then, I'll buy a pie", "give me two loaves", "give me the lantern", "take two loaves",
        "take the lantern", "get me some rope", "look, I'll pay 5 gold", "look at you, all dressed up",
        "examine this price of yours", "drop the price a bit", "go away", "go", "save me a loaf for tomorrow",
        "save me", "save your breath", "save one for me",
        "load me up with candles", "talk to me about lanterns", "leave it out", "bye for now", "accept my apology",
        "give bread to your mother", "help me choose a gift", "hand it over", "walk with me", "inventory of your shop?",
    ])
    func speechIsSaidWhileTalking(line: String) throws {
        #expect(GameCommand.parse(line, talking: true, scope: try Self.scope()) == .say(line))
    }

    /// Not talking, every command word is a command, as before: the game answers what it cannot do.
    @Test(arguments: [
        ("go on then", GameCommand.go("on then")), ("give me two loaves", .give(item: "me two loaves", to: nil)),
        ("take two loaves", .take("two loaves")), ("look at you", .examine("you")),
    ])
    func notTalkingEveryCommandWordIsACommand(line: String, command: GameCommand) throws {
        #expect(GameCommand.parse(line, talking: false, scope: try Self.scope()) == command)
    }

    /// "give the lantern to mira": the player has no lantern, but the lantern is an item and Mira is here, so the form
    /// is a command; only a bare `give X` needs X carried ("give me two loaves").
    @Test func givingToAnNPCHereNeedsAnItemOfTheCatalog() throws {
        let scope = try Self.scope()
        #expect(
            GameCommand.parse("give lantern to mira", talking: true, scope: scope)
                == .give(item: "lantern", to: "mira"))
        #expect(GameCommand.parse("give unicorn to mira", talking: true, scope: scope) == .say("give unicorn to mira"))
    }

    /// Through the game: the lines are said to Mira (who answers), the player stays where they are and keeps their
    /// bread; `/go north` leaves her.
    @Test func inAGameTheLinesAreSaidAndASlashLineRuns() async throws {
        let pack = try shippedPack()
        let game = Game(state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world) })
        let screen = Screen()
        await game.perform("talk to mira", output: screen.record)
        for line in ["go on then, I'll buy a pie", "give me two loaves"] {
            screen.clear()
            await game.perform(line, output: screen.record)
            #expect(await game.state.player.location == "market_square", "\(line)")
            #expect(await game.state.player.inventory.quantity(of: "bread") == 2, "\(line)")
            #expect(await game.partner == "mira", "\(line)")
            #expect(screen.text.contains("Mira Quickcoin:"), "\(line): \(screen.text)")
            #expect(!screen.text.contains("can't go"), "\(line): \(screen.text)")
        }
        screen.clear()
        await game.perform("history", output: screen.record)
        #expect(screen.text.contains("You: give me two loaves"), "\(screen.text)")
        await game.perform("/go north", output: screen.record)
        #expect(await game.state.player.location == "north_gate")
        #expect(await game.partner == nil)
    }
}
