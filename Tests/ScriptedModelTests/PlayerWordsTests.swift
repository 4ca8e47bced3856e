import GameWorld
import LanguageModels
import Testing

@testable import ScriptedModel

/// What the player says of themself is remembered: the name they give ("call me Dax") is what the NPC calls them
/// and answers to "what's me name", and where they say they are from is recalled, from the transcript and, after a
/// trim or a load, from the engine's conversation facts.
@Suite struct PlayerWordsTests {
    /// A shipped NPC with no dialogue rules of its own, so the built-in lines (which say `{player}`) answer.
    static func plainSession(_ npc: NPCID = "mira") throws -> LanguageModelSession {
        let pack = try Packs.shipped()
        var plain = try #require(pack.world.npcs[npc])
        plain.dialogue = DialogueRules()
        return LanguageModelSession(model: ScriptedModel(npc: plain, world: pack.world), tools: [], instructions: "")
    }

    /// A turn's context with these conversation facts.
    static func given(_ facts: ConversationFacts) throws -> GenerationContext {
        var context = GenerationContext()
        context.conditions = ConditionContext(state: try Packs.start(), conversation: facts)
        return context
    }

    @Test(arguments: [
        "call me Dax", "the name's Dax", "I'm Dax", "my name is dax", "Dax's the name", "they call me Dax",
    ])
    func theNameGivenIsRecalledAndUsed(line: String) async throws {
        let session = try Self.plainSession()
        _ = try await session.turn(line)
        for question in ["what's me name", "what's my name?", "do you remember my name?", "what name did I give you?"] {
            #expect(try await session.turn(question).reply.contains("Dax"), "\(line) / \(question)")
        }
        #expect(try await session.turn("bye").reply == "Goodbye, Dax.")
    }

    @Test func theNameGivenInALineIsUsedInTheReplyToIt() async throws {
        let session = try Self.plainSession()
        _ = try await session.turn("hello")
        #expect(try await session.turn("bye then, and call me Wren").reply == "Goodbye, Wren.")
    }

    @Test(arguments: [("I'm from Eastmarch", "Eastmarch"), ("I hail from the hills, friend", "the hills")])
    func wherePlayersSayTheyAreFromIsRecalled(line: String, place: String) async throws {
        let visit = try Packs.visit("hesper", gold: 20)
        let session = try visit.session()
        let introduced = try await session.turn(line)
        #expect(!introduced.reply.contains("Say that again"), "\(introduced.reply)")
        _ = try await session.turn("how much is the pie?")
        #expect(try await session.turn("where am I from?").reply.contains(place))
    }

    @Test func afterATrimTheEnginesFactsRemember() async throws {
        // A conversation that no longer holds the lines where the player gave them.
        let session = try Self.plainSession()
        let facts = ConversationFacts(turns: 9, playerCalled: "Wren", playerFrom: "Eastmarch")
        #expect(try await session.turn("what's me name", context: Self.given(facts)).reply.contains("Wren"))
        #expect(try await session.turn("where do I come from?", context: Self.given(facts)).reply.contains("Eastmarch"))
        #expect(try await session.turn("bye", context: Self.given(facts)).reply == "Goodbye, Wren.")
    }

    @Test func withNothingGivenTheNPCSaysItDoesNotKnow() async throws {
        let session = try Self.plainSession()
        let reply = try await session.turn("where am I from?").reply
        #expect(reply == "I don't recall anything like that.", "\(reply)")
    }
}
