import GameWorld
import GameWorldFixtures
import Testing

/// The shipped pack's story: the locket quest, its beats, and who knows what when.
@Suite struct ShippedStoryTests {
    let pack: ContentPack

    init() throws {
        pack = try TestWorld.shippedPack()
    }

    func context(_ state: GameState, firstMeeting: Bool = false) -> ConditionContext {
        ConditionContext(state: state, conversation: ConversationFacts(isFirstMeeting: firstMeeting))
    }

    /// Applies events to the state.
    func play(_ events: [GameEvent], from state: GameState) throws -> GameState {
        try GameState.replaying(events, from: state)
    }

    /// The player with a lantern and the locket, back in the market square.
    func withTheLocket() throws -> GameState {
        try play(
            [
                .moved(from: "market_square", to: "smithy"),
                .traded(offer: .selling("rusty_sword", to: "brannoc", for: 8)),
                .moved(from: "smithy", to: "market_square"), .traded(offer: .buying("lantern", from: "mira", for: 20)),
                .moved(from: "market_square", to: "river_lane"), .moved(from: "river_lane", to: "old_mill"),
                .moved(from: "old_mill", to: "mill_cellar"),
                .tookItem(item: "moonpetal_locket", quantity: 1, from: "mill_cellar"),
                .moved(from: "mill_cellar", to: "old_mill"), .moved(from: "old_mill", to: "river_lane"),
            ], from: pack.initialState)
    }

    @Test func theLocketIsAQuestInFourStages() throws {
        let quest = try #require(pack.world.quests["locket"])
        #expect(quest.stages == ["unstarted", "asked", "found", "returned"])
        #expect(pack.initialState.stage(of: "locket") == "unstarted")
    }

    @Test func aurelioAsksForTheLocketWhenFirstMetAndRewardsItsReturn() throws {
        var state = pack.initialState
        let aurelio = try #require(pack.world.npcs["aurelio"])
        let plea = try #require(aurelio.beats(for: .firstTalk, in: context(state, firstMeeting: true)).first)
        #expect(plea.mode == .instead)
        try state.fire(plea, of: "aurelio")
        #expect(state.stage(of: "locket") == "asked")

        state = try withTheLocket()
        try state.apply(.advancedQuest(quest: "locket", to: "asked"))
        try state.apply(.moved(from: "river_lane", to: "curio_house"))
        // Walking in with the locket: he sees it, and the quest is at "found"; he does not beg for it any more.
        #expect(aurelio.beats(for: .firstTalk, in: context(state)).isEmpty)
        for beat in aurelio.beats(for: .arrive, in: context(state)) { try state.fire(beat, of: "aurelio") }
        #expect(state.stage(of: "locket") == "found")
        #expect(aurelio.goals(in: context(state)).map(\.id) == ["find_the_locket"])

        try state.apply(.gave(item: "moonpetal_locket", quantity: 1, to: "aurelio"))
        let home = try #require(aurelio.beats(for: .itemGiven("moonpetal_locket"), in: context(state)).first)
        #expect(home.id == "locket_home")
        #expect(home.mode == .instead)
        let result = try state.fire(home, of: "aurelio")
        #expect(result.refusals == [])
        #expect(state.stage(of: "locket") == "returned")
        #expect(state.flags == ["locket_returned"])
        #expect(state.player.inventory.contains("brass_compass"))
        #expect(state.story.attitude(of: "aurelio") == 50)
        #expect(state.isGoalReached)
        #expect(aurelio.knowledge(in: context(state)).map(\.id) == ["locket_home"])
        #expect(aurelio.goals(in: context(state)).map(\.id) == ["show_gratitude"])
        let line = try #require(home.line(occurrence: 0, in: ConditionContext(state: state, npc: "aurelio")))
        #expect(line.contains("Traveller") && line.contains("compass"))
        // It happens once.
        #expect(aurelio.beats(for: .itemGiven("moonpetal_locket"), in: context(state)).isEmpty)
    }

    @Test func aPlayerWhoBoughtTheCompassIsThankedWithoutIt() throws {
        var state = try withTheLocket()
        try state.apply(.moved(from: "river_lane", to: "curio_house"))
        // Rich enough to buy the compass: give the player the gold from Aurelio in a roundabout way.
        try state.apply(.receivedGold(amount: 100, from: "aurelio"))
        try state.apply(.traded(offer: .buying("brass_compass", from: "aurelio", for: 70)))
        try state.apply(.gave(item: "moonpetal_locket", quantity: 1, to: "aurelio"))
        let aurelio = try #require(state.world.npcs["aurelio"])
        let beats = aurelio.beats(for: .itemGiven("moonpetal_locket"), in: context(state))
        #expect(beats.first?.id == "locket_home_compass_sold")
        let result = try state.fire(try #require(beats.first), of: "aurelio")
        #expect(result.refusals == [])
        #expect(state.stage(of: "locket") == "returned")
    }

    @Test func oonaKnowsAboutTheMillOnlyOnceTheQuestIsAsked() throws {
        var state = pack.initialState
        let oona = try #require(pack.world.npcs["oona"])
        #expect(oona.knowledge(in: context(state)).isEmpty)
        try state.apply(.advancedQuest(quest: "locket", to: "asked"))
        #expect(oona.knowledge(in: context(state)).map(\.id) == ["mill_report"])
    }

    @Test func pipTellsFriendsWhatGlintedInTheCellar() throws {
        var state = try play([.moved(from: "market_square", to: "river_lane")], from: pack.initialState)
        let pip = try #require(pack.world.npcs["pip"])
        #expect(pip.knowledge(in: context(state)).isEmpty)
        try state.apply(.gave(item: "bread", quantity: 1, to: "pip"))
        for beat in pip.beats(for: .itemGiven("bread"), in: context(state)) { try state.fire(beat, of: "pip") }
        #expect(state.story.attitude(of: "pip") == 10)
        #expect(pip.knowledge(in: context(state)).map(\.id) == ["cellar_glint"])
        let offer = TradeOffer.buying("smoked_fish", from: "pip", for: 3)
        try state.apply(.traded(offer: offer))
        for beat in pip.beats(for: .tradeAccepted(offer), in: context(state)) { try state.fire(beat, of: "pip") }
        #expect(state.story.attitude(of: "pip") == 15)
    }

    @Test func hesperCountsVisitsAndHearsTheNews() throws {
        var state = pack.initialState
        let hesper = try #require(pack.world.npcs["hesper"])
        for _ in 0..<3 {
            for beat in hesper.beats(for: .arrive, in: context(state)) { try state.fire(beat, of: "hesper") }
        }
        #expect(state.story.counter("goose_visits") == 3)
        #expect(hesper.knowledge(in: context(state)).isEmpty)
        try state.apply(.setFlag(name: "locket_returned"))
        #expect(hesper.knowledge(in: context(state)).map(\.id) == ["locket_news"])
        let rule = try #require(hesper.dialogue.rules.first { $0.id == "returning_regular" })
        #expect(rule.when.condition?.holds(in: ConditionContext(state: state, npc: "hesper")) == true)
    }

    @Test func miraWantsToSellALanternToASeeker() throws {
        var state = pack.initialState
        let mira = try #require(pack.world.npcs["mira"])
        #expect(mira.goals(in: context(state)).isEmpty)
        try state.apply(.advancedQuest(quest: "locket", to: "asked"))
        #expect(mira.goals(in: context(state)).map(\.id) == ["sell_the_lantern"])
        try state.apply(.receivedGold(amount: 10, from: "mira"))
        try state.apply(.traded(offer: .buying("lantern", from: "mira", for: 20)))
        #expect(mira.goals(in: context(state)).isEmpty)
    }

    @Test func brannocRemembersTheMillWheelWhenTheMillComesUp() throws {
        let brannoc = try #require(pack.world.npcs["brannoc"])
        let talk = ConditionContext(state: pack.initialState, conversation: ConversationFacts(lastTopic: "mill"))
        #expect(brannoc.knowledge(in: talk).map(\.id) == ["mill_wheel"])
        #expect(brannoc.knowledge(in: context(pack.initialState)).isEmpty)
    }
}
