import GameWorld
import LanguageModels
import ScriptedModel
import Synchronization
import Testing

/// Rules with a condition (`"if"`) answer only when it holds in the context the engine gives the model.
@Suite struct RuleConditionTests {
    static let dialogue = """
        {
          "rules": [
            { "id": "friend", "when": { "keywords": ["weather"], "if": "flag friends" }, "replies": ["Lovely day, friend!"] },
            { "id": "veteran", "when": { "keywords": ["weather"], "if": "turns >= 3 and not first meeting" },
              "replies": ["Same weather as ever."] },
            { "id": "weather", "when": { "keywords": ["weather"] }, "replies": ["Weather's weather."] },
            { "id": "anything", "when": {}, "replies": ["Tam shrugs."] }
          ]
        }
        """

    static func pack() throws -> ContentPack {
        try ContentPack.load(files: HandBuiltPack.files(dialogue: dialogue), displayPath: "Tiny").get()
    }

    /// A session whose model asks `context` for the game at each request.
    static func session(_ context: (@Sendable () -> ConditionContext?)?) throws -> LanguageModelSession {
        let pack = try pack()
        let tam = try #require(pack.world.npcs["tam"])
        return LanguageModelSession(model: ScriptedModel(npc: tam, world: pack.world, conditionContext: context))
    }

    @Test func withoutAContextRulesWithAConditionNeverAnswer() async throws {
        #expect(try await Self.session(nil).turn("nice weather").reply == "Weather's weather.")
        #expect(try await Self.session({ nil }).turn("nice weather").reply == "Weather's weather.")
    }

    @Test func aRuleAnswersWhenItsConditionHolds() async throws {
        let pack = try Self.pack()
        var friends = pack.initialState
        try friends.apply(.setFlag(name: "friends"))
        let state = friends
        #expect(
            try await Self.session({ ConditionContext(state: state) }).turn("nice weather").reply
                == "Lovely day, friend!")
        let veteran = ConditionContext(state: pack.initialState, conversation: ConversationFacts(turns: 5))
        #expect(try await Self.session({ veteran }).turn("nice weather").reply == "Same weather as ever.")
        let newcomer = ConditionContext(
            state: pack.initialState, conversation: ConversationFacts(isFirstMeeting: true, turns: 5))
        #expect(try await Self.session({ newcomer }).turn("nice weather").reply == "Weather's weather.")
    }

    @Test func theContextIsAskedForAtEachRequest() async throws {
        let pack = try Self.pack()
        let current = Mutex(pack.initialState)
        let session = try Self.session({ ConditionContext(state: current.withLock { $0 }) })
        #expect(try await session.turn("nice weather").reply == "Weather's weather.")
        try current.withLock { try $0.apply(.setFlag(name: "friends")) }
        #expect(try await session.turn("what weather").reply == "Lovely day, friend!")
    }

    @Test func aContextIsAboutTheModelsNPC() async throws {
        var files = HandBuiltPack.files(
            dialogue: """
                { "rules": [
                    { "id": "liked", "when": { "keywords": ["weather"], "if": "attitude >= 10" }, "replies": ["For you, sunshine."] },
                    { "id": "weather", "when": { "keywords": ["weather"] }, "replies": ["Weather's weather."] } ] }
                """)
        files["npcs/statue.json"] = HandBuiltPack.statue
        let pack = try ContentPack.load(files: files).get()
        var state = pack.initialState
        try state.apply(.changedAttitude(npc: "tam", by: 10))
        let liked = state
        let tam = try #require(pack.world.npcs["tam"])
        // The context names another NPC: the model reads its own NPC's attitude.
        let model = ScriptedModel(
            npc: tam, world: pack.world, conditionContext: { ConditionContext(state: liked, npc: "statue") })
        #expect(try await LanguageModelSession(model: model).turn("weather?").reply == "For you, sunshine.")
    }
}
