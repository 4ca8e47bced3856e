import GameWorld
import LanguageModels
import ScriptedModel
import Testing

/// The dialogue format, feature by feature, on a small hand-built pack.
@Suite struct DialogueFormatTests {
    func visit(_ npc: NPCID = "tam") throws -> NPCVisit {
        try NPCVisit(HandBuiltPack.pack().initialState, npc: npc)
    }

    @Test func theRulesLoadAsWritten() throws {
        let tam = try #require(try HandBuiltPack.pack().world.npcs["tam"])
        #expect(
            tam.dialogue.rules.map(\.id) == [
                "gem", "nails_by_number", "greet_name", "greet_plain", "weather", "numbers", "anything",
            ])
        #expect(tam.dialogue.synonyms["weather"] == ["rain", "sun", "weather", "clouds"])
        let gem = tam.dialogue.rules[0]
        #expect(gem.when == DialogueCondition(intents: [.offerGift], item: .item("gem")))
        #expect(gem.calls?.map(\.tool) == [.acceptGift])
        #expect(gem.replies.isEmpty)
        #expect(gem.outcomes[.accepted] == ["The {item}! You found it!"])
        #expect(try HandBuiltPack.pack().world.npcs["statue"]?.dialogue == DialogueRules.none)
    }

    @Test func rulesAreTriedInOrderAndAVariantNeedsAllItsPlaceholders() async throws {
        // With the game context, Tam knows the player's name.
        let named = try await visit().session().turn("hi")
        #expect(named.reply == "Hello, Kit!")
        // A hand-built transcript has no game context: the first rule cannot be said, the next one is.
        let pack = try HandBuiltPack.pack()
        let model = try ScriptedModel(npc: #require(pack.world.npcs["tam"]), world: pack.world)
        let session = LanguageModelSession(model: model)
        #expect(try await session.respond(to: "hi").content == "Hello, stranger!")
    }

    @Test(arguments: ["nice weather", "Rain again?", "what a blue sky", "THE SUN!"])
    func keywordsAndSynonymGroupsMatchWholeWordsInAnyCase(line: String) async throws {
        #expect(try await visit().session().turn(line).reply == "Weather's weather.")
    }

    @Test(arguments: [
        ("I have seven", "You said 7."), ("twenty-five, I said", "You said 25."), ("blah", "Tam shrugs."),
    ])
    func numbersAndAnUnconditionalRule(line: String, reply: String) async throws {
        #expect(try await visit().session().turn(line).reply == reply)
    }

    @Test func anItemAndNumberConditionNarrowsABuiltInFlow() async throws {
        let visit = try visit()
        let turn = try await visit.session().turn("I'll take 5 nails")
        #expect(turn.calls.last == #"offerTrade({"action":"sell","item":"nail","quantity":5,"price":10})"#)
        #expect(turn.reply == "5 nails, 10 gold. Count them.")
        // Without a number, the rule does not apply, and the rule without an intent does not answer trade:
        // the built-in lines do.
        let plain = try await visit.session().turn("I'll take a nail")
        #expect(plain.calls.last == #"offerTrade({"action":"sell","item":"nail","quantity":1,"price":2})"#)
        #expect(plain.reply.contains("Tam the Tinker offers 1 Iron Nail for 2 gold."))
    }

    @Test func aRulesOwnCallsFillPlaceholdersInTheirArguments() async throws {
        let visit = try visit()
        let turn = try await visit.session().turn("Here, a gift: the green gem")
        #expect(turn.calls == [#"acceptGift({"item":"gem","quantity":1})"#])
        #expect(turn.reply == "The Green Gem! You found it!")
        #expect(visit.game.isGoalReached)
    }

    @Test func anNPCWithoutDialogueSpeaksTheBuiltInLines() async throws {
        let visit = try visit("statue")
        let session = try visit.session()
        #expect(try await session.turn("hello").reply.contains("Kit"))
        #expect(try await session.turn("what do you sell?").reply == "I'm not trading.")
        #expect(try await session.turn("who are you?").reply.contains("Statue"))
    }
}
