import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// Beats, knowledge and goals: which fire or hold in a context, and what firing a beat does.
@Suite struct BeatTests {
    let pack: ContentPack
    let mira: NPC

    init() throws {
        pack = try StoryPack.pack()
        mira = try #require(pack.world.npcs["mira"])
    }

    func context(_ state: GameState, turns: Int = 0, topic: String? = nil) -> ConditionContext {
        ConditionContext(state: state, conversation: ConversationFacts(turns: turns, lastTopic: topic))
    }

    @Test func beatsLoadAsWritten() throws {
        #expect(
            mira.beats.map(\.id) == ["hello", "count", "regular", "gem_home", "thanks", "deal", "no_deal", "cheer"])
        let gemHome = try #require(mira.beats.first { $0.id == "gem_home" })
        #expect(gemHome.trigger == .itemGiven("gem"))
        #expect(gemHome.mode == .instead)
        #expect(gemHome.once)
        #expect(gemHome.effects.first == .advanceQuest("gem", stage: "returned"))
        #expect(mira.beats[2].condition == .counter("visits", .atLeast, value: 2))
        #expect(mira.beats[1].lines.isEmpty && mira.beats[1].mode == .before && !mira.beats[1].once)
        #expect(mira.beats[7].trigger == .flagSet("gem_returned"))
        #expect(mira.isScripted && !(pack.world.npcs["oona"]?.beats.isEmpty == false))
    }

    @Test(arguments: [
        (BeatTrigger.arrive, BeatEvent.arrive, true), (.arrive, .firstTalk, false), (.firstTalk, .firstTalk, true),
        (.itemGiven(nil), .itemGiven("bread"), true), (.itemGiven("gem"), .itemGiven("bread"), false),
        (.itemGiven("gem"), .itemGiven("gem"), true),
        (.tradeAccepted("bread"), .tradeAccepted(.buying("bread", from: "mira", for: 3)), true),
        (.tradeAccepted("bread"), .tradeAccepted(.selling("bread", to: "mira", for: 1)), true),
        (.tradeAccepted("compass"), .tradeAccepted(.buying("bread", from: "mira", for: 3)), false),
        (.tradeAccepted(nil), .tradeRefused(.buying("bread", from: "mira", for: 3)), false),
        (.tradeRefused(nil), .tradeRefused(.buying("bread", from: "mira", for: 3)), true),
        (.flagSet("a"), .flagSet("a"), true), (.flagSet("a"), .flagSet("b"), false),
    ])
    func triggersMatchTheirEvents(trigger: BeatTrigger, event: BeatEvent, matches: Bool) {
        #expect(trigger.matches(event) == matches)
    }

    @Test func gameEventsAreBeatEvents() {
        #expect(BeatEvent(.gave(item: "gem", quantity: 1, to: "mira")) == .itemGiven("gem"))
        #expect(BeatEvent(.setFlag(name: "x")) == .flagSet("x"))
        #expect(BeatEvent(.moved(from: "square", to: "yard")) == .arrive)
        #expect(BeatEvent(.tookItem(item: "gem", quantity: 1, from: "yard")) == nil)
    }

    @Test func aBeatFiresWhenItsConditionHoldsAndOnceBeatsFireOnce() throws {
        var state = pack.initialState
        #expect(mira.beats(for: .arrive, in: context(state)).map(\.id) == ["count"])
        for _ in 0..<2 {
            for beat in mira.beats(for: .arrive, in: context(state)) { try state.fire(beat, of: "mira") }
        }
        #expect(state.story.counter("visits") == 2)
        #expect(mira.beats(for: .arrive, in: context(state)).map(\.id) == ["count", "regular"])

        try state.apply(.moved(from: "square", to: "yard"))
        try state.apply(.tookItem(item: "gem", quantity: 1, from: "yard"))
        try state.apply(.moved(from: "yard", to: "square"))
        try state.apply(.gave(item: "gem", quantity: 1, to: "mira"))
        let given = mira.beats(for: .itemGiven("gem"), in: context(state))
        #expect(given.map(\.id) == ["gem_home", "thanks"])
        let result = try state.fire(given[0], of: "mira")
        #expect(result.events.first == .firedBeat(npc: "mira", beat: "gem_home"))
        #expect(result.refusals == [])
        #expect(result.flagsSet == ["gem_returned"])
        #expect(state.stage(of: "gem") == "returned")
        #expect(state.player.inventory.contains("compass"))
        #expect(state.story.attitude(of: "mira") == 40)
        #expect(state.isGoalReached)
        // Once: it does not fire again, even for the same event.
        #expect(mira.beats(for: .itemGiven("gem"), in: context(state)).map(\.id) == ["thanks"])
        #expect(mira.beats(for: .flagSet("gem_returned"), in: context(state)).map(\.id) == ["cheer"])
    }

    @Test func firingABeatTheNPCLacksChangesNothing() throws {
        var state = pack.initialState
        let stranger = Beat(id: "stranger", trigger: .arrive, lines: ["Hm."], effects: [.setFlag("x")])
        let error = #expect(throws: GameEventError.self) { try state.fire(stranger, of: "mira") }
        #expect(error?.code == .unknownBeat)
        #expect(state == pack.initialState)
    }

    @Test func linesAreFilledInAndTakeTurns() throws {
        var state = pack.initialState
        let hello = try #require(mira.beats.first)
        var context = ConditionContext(state: state, npc: "mira")
        #expect(hello.line(occurrence: 0, in: context) == "Welcome, Kit, to Square!")
        let regular = mira.beats[2]
        #expect(regular.line(occurrence: 0, in: context) == "You again!")
        #expect(regular.line(occurrence: 1, in: context) == "Back so soon?")
        #expect(regular.line(occurrence: 2, in: context) == "You again!")
        #expect(mira.beats[1].line(occurrence: 0, in: context) == nil)
        let deal = mira.beats[5]
        #expect(deal.line(occurrence: 0, in: context) == "Enjoy the Bread.")
        #expect(mira.beats[3].line(occurrence: 0, in: context, item: "gem") == "My Gem! Take this, Kit.")
        // The line to say after firing: the number of times it fired before.
        try state.fire(regular, of: "mira")
        context.state = state
        #expect(
            regular.line(occurrence: state.story.timesFired("regular", of: "mira") - 1, in: context) == "You again!")
    }

    @Test func knowledgeAndGoalsHoldWhenTheirConditionsDo() throws {
        var state = pack.initialState
        #expect(mira.knowledge(in: context(state)).map(\.id) == ["always"])
        #expect(mira.goals(in: context(state)).map(\.id) == ["find", "sell"])
        try state.apply(.advancedQuest(quest: "gem", to: "asked"))
        try state.apply(.changedAttitude(npc: "mira", by: 25))
        #expect(mira.knowledge(in: context(state)).map(\.id) == ["yard", "friend", "always"])
        // Attitude is the NPC's own: Oona's knowledge does not see Mira's.
        let oona = try #require(state.world.npcs["oona"])
        #expect(oona.knowledge(in: context(state)).isEmpty)
        try state.apply(.setFlag(name: "gem_returned"))
        #expect(oona.knowledge(in: context(state)).map(\.text) == ["Kit returned the gem."])
        try state.apply(.traded(offer: .selling("bread", quantity: 3, to: "mira", for: 3)))
        #expect(mira.goals(in: context(state)).map(\.id) == ["find"])
    }

    @Test func beatsAndKnowledgeEncodeInTheirContentForm() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for beat in mira.beats {
            #expect(try JSONDecoder().decode(Beat.self, from: encoder.encode(beat)) == beat)
        }
        let json = String(decoding: try encoder.encode(mira.beats[7]), as: UTF8.self)
        #expect(
            json
                == #"{"effects":[],"flag":"gem_returned","id":"cheer","lines":["Hooray!"],"mode":"before","on":"flagSet","once":false}"#
        )
        for entry in mira.knowledge + mira.goals {
            #expect(try JSONDecoder().decode(KnowledgeEntry.self, from: encoder.encode(entry)) == entry)
        }
        #expect(
            String(decoding: try encoder.encode(mira.knowledge[0]), as: UTF8.self)
                == #"{"id":"yard","text":"The gem was lost in the yard.","when":"quest gem >= asked"}"#)
    }
}
