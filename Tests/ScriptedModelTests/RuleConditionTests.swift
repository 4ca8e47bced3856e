import ContentPacks
import GameWorld
import LanguageModels
import ScriptedModel
import NPCContract
import Testing

/// Rules with a condition (`"if"`) answer only when it holds in the conditions the turn's request carries; the rule
/// that answered comes back in the response entry.
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

    /// A session for Tam.
    static func session() throws -> LanguageModelSession {
        let pack = try pack()
        let tam = try #require(pack.world.npcs["tam"])
        return LanguageModelSession(model: ScriptedModel(npc: tam, world: pack.world))
    }

    /// A turn's context holding `conditions`.
    static func given(_ conditions: ConditionContext?) -> GenerationContext {
        var context = GenerationContext()
        context.conditions = conditions
        return context
    }

    @Test func withoutConditionsRulesWithAConditionNeverAnswer() async throws {
        #expect(try await Self.session().turn("nice weather").reply == "Weather's weather.")
        #expect(try await Self.session().turn("nice weather", context: Self.given(nil)).reply == "Weather's weather.")
    }

    @Test func theModelSaysItReadsConditions() throws {
        #expect(try Self.session().model.capabilities.contains(.contextValues))
    }

    @Test func aRuleAnswersWhenItsConditionHolds() async throws {
        let pack = try Self.pack()
        var friends = pack.initialState
        try friends.apply(.setFlag(name: "friends"))
        #expect(
            try await Self.session().turn("nice weather", context: Self.given(ConditionContext(state: friends))).reply
                == "Lovely day, friend!")
        let veteran = ConditionContext(state: pack.initialState, conversation: ConversationFacts(turns: 5))
        #expect(try await Self.session().turn("nice weather", context: Self.given(veteran)).reply == "Same weather as ever.")
        let newcomer = ConditionContext(
            state: pack.initialState, conversation: ConversationFacts(isFirstMeeting: true, turns: 5))
        #expect(try await Self.session().turn("nice weather", context: Self.given(newcomer)).reply == "Weather's weather.")
    }

    @Test func eachTurnReadsItsOwnConditions() async throws {
        let pack = try Self.pack()
        let session = try Self.session()
        var state = pack.initialState
        #expect(
            try await session.turn("nice weather", context: Self.given(ConditionContext(state: state))).reply
                == "Weather's weather.")
        try state.apply(.setFlag(name: "friends"))
        #expect(
            try await session.turn("what weather", context: Self.given(ConditionContext(state: state))).reply
                == "Lovely day, friend!")
    }

    @Test func theAnsweringRuleIsRecordedInTheResponse() async throws {
        let pack = try Self.pack()
        var friends = pack.initialState
        try friends.apply(.setFlag(name: "friends"))
        let session = try Self.session()
        let turn = try await session.turn("nice weather", context: Self.given(ConditionContext(state: friends)))
        let response = try #require(
            turn.entries.compactMap { entry -> Transcript.Response? in
                if case .response(let response) = entry { response } else { nil }
            }.last)
        #expect(response.assetIDs == ["\(session.model.id)@\(session.model.version)", "rule:tam/friend"])
        #expect(response.answeringRule == AnsweringRule(source: .npc("tam"), id: "friend"))
        let plain = try await session.turn("nice weather")
        #expect(plain.entries.contains { entry in
            if case .response(let response) = entry { response.answeringRule?.id == "weather" } else { false }
        })
        // Streaming records the rule too.
        let streamed = try await session.streamResponse(to: Prompt("xyzzy"), context: GenerationContext()).collect()
        guard case .response(let last)? = streamed.transcriptEntries.last else {
            Issue.record("no response entry")
            return
        }
        #expect(last.answeringRule == AnsweringRule(source: .npc("tam"), id: "anything"))
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
        let model = ScriptedModel(npc: tam, world: pack.world)
        let context = Self.given(ConditionContext(state: liked, npc: "statue"))
        #expect(try await LanguageModelSession(model: model).turn("weather?", context: context).reply == "For you, sunshine.")
    }
}
