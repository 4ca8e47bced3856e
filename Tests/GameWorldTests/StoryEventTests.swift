import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// The story events: flags, counters, attitudes, quests and beats, applied through `GameState.apply(_:)`.
@Suite struct StoryEventTests {
    let start: GameState

    init() throws {
        start = try StoryPack.pack().initialState
    }

    @Test func aNewGameHasNoStoryProgress() {
        #expect(start.story.isEmpty)
        #expect(start.flags.isEmpty && start.counters.isEmpty && start.attitudes.isEmpty)
        #expect(start.quests == ["gem": "unstarted"])
        #expect(start.stage(of: "gem") == "unstarted")
        #expect(start.stage(of: "nothing") == nil)
        #expect(start.world.quests["gem"]?.stages == ["unstarted", "asked", "found", "returned"])
        #expect(start.world.name(of: QuestID("gem")) == "The Lost Gem")
    }

    @Test func flagsAreSetAndCleared() throws {
        var state = start
        try state.apply(.setFlag(name: "met_mira"))
        #expect(state.flags == ["met_mira"])
        try state.apply(.setFlag(name: "met_mira"))
        #expect(state.flags == ["met_mira"])
        try state.apply(.clearedFlag(name: "met_mira"))
        try state.apply(.clearedFlag(name: "never_set"))
        #expect(state == start)
    }

    @Test func countersCountAndStayWithinTheirRange() throws {
        var state = start
        try state.apply(.changedCounter(name: "visits", by: 2))
        try state.apply(.changedCounter(name: "visits", by: 1))
        #expect(state.story.counter("visits") == 3)
        try state.apply(.changedCounter(name: "visits", by: -10))
        #expect(state.story.counter("visits") == 0)
        #expect(state == start, "a counter back at 0 is no counter at all")
        try state.apply(.setCounter(name: "visits", to: StoryState.counterRange.upperBound))
        try state.apply(.changedCounter(name: "visits", by: 5))
        #expect(state.story.counter("visits") == StoryState.counterRange.upperBound)
        try state.apply(.setCounter(name: "visits", to: 0))
        #expect(state == start)
    }

    @Test func attitudesChangeAndAreClampedFromMinus100To100() throws {
        var state = start
        try state.apply(.changedAttitude(npc: "mira", by: 30))
        try state.apply(.changedAttitude(npc: "oona", by: -20))
        #expect(state.attitudes == ["mira": 30, "oona": -20])
        try state.apply(.changedAttitude(npc: "mira", by: 200))
        #expect(state.story.attitude(of: "mira") == 100)
        try state.apply(.changedAttitude(npc: "oona", by: -200))
        #expect(state.story.attitude(of: "oona") == -100)
        // An NPC need not be with the player to change its mind.
        #expect(state.world.npcs["oona"]?.location != state.player.location)
    }

    @Test func questsMoveForwardOnlyAndMaySkipStages() throws {
        var state = start
        try state.apply(.advancedQuest(quest: "gem", to: "asked"))
        #expect(state.stage(of: "gem") == "asked")
        try state.apply(.advancedQuest(quest: "gem", to: "returned"))
        #expect(state.quests == ["gem": "returned"])
        #expect(state.story.quests == ["gem": "returned"])
    }

    @Test func beatsCountHowOftenTheyFired() throws {
        var state = start
        try state.apply(.firedBeat(npc: "mira", beat: "regular"))
        try state.apply(.firedBeat(npc: "mira", beat: "regular"))
        #expect(state.story.timesFired("regular", of: "mira") == 2)
        #expect(state.story.timesFired("hello", of: "mira") == 0)
    }

    @Test(arguments: [
        (GameEvent.setFlag(name: "Met Mira"), GameEventError.Code.invalidName),
        (.clearedFlag(name: ""), .invalidName),
        (.changedCounter(name: "visits!", by: 1), .invalidName),
        (.changedCounter(name: "visits", by: 2_000_000_000), .invalidQuantity),
        (.setCounter(name: "visits", to: -1), .invalidQuantity),
        (.changedAttitude(npc: "nobody", by: 5), .unknownNPC),
        (.changedAttitude(npc: "mira", by: 201), .invalidQuantity),
        (.advancedQuest(quest: "dragon", to: "slain"), .unknownQuest),
        (.advancedQuest(quest: "gem", to: "lost"), .unknownStage),
        (.advancedQuest(quest: "gem", to: "unstarted"), .questCannotGoBack),
        (.firedBeat(npc: "mira", beat: "nope"), .unknownBeat),
        (.firedBeat(npc: "nobody", beat: "hello"), .unknownNPC),
    ])
    func aStoryEventThatDoesNotFitChangesNothing(event: GameEvent, code: GameEventError.Code) {
        var state = start
        let error = #expect(throws: GameEventError.self) { try state.apply(event) }
        #expect(error?.code == code)
        #expect(error?.event == event)
        #expect(state == start)
    }

    @Test func aQuestCannotGoBackNorStayWhereItIs() throws {
        var state = try start.applying(.advancedQuest(quest: "gem", to: "found"))
        let before = state
        for stage in ["asked", "found"] {
            let error = #expect(throws: GameEventError.self) {
                try state.apply(.advancedQuest(quest: "gem", to: stage))
            }
            #expect(error?.code == .questCannotGoBack)
            #expect(error?.message.contains("the quest gem is at \"found\"") == true)
        }
        #expect(state == before)
    }

    @Test func storyEventsMoveNoGoldNorItemsAndReplay() throws {
        let events: [GameEvent] = [
            .setFlag(name: "a"), .changedCounter(name: "n", by: 4), .setCounter(name: "m", to: 2),
            .changedAttitude(npc: "mira", by: -7), .advancedQuest(quest: "gem", to: "found"),
            .firedBeat(npc: "mira", beat: "hello"), .clearedFlag(name: "a"),
        ]
        let state = try GameState.replaying(events, from: start)
        #expect(state.totalGold == start.totalGold)
        #expect(state.itemTotals == start.itemTotals)
        #expect(state.world == start.world && state.player == start.player)
        #expect(events.allSatisfy { $0.isStoryEvent })
        #expect(!GameEvent.moved(from: "a", to: "b").isStoryEvent)
        #expect(
            state.story
                == StoryState(
                    counters: ["n": 4, "m": 2], attitudes: ["mira": -7], quests: ["gem": "found"],
                    beats: ["mira": ["hello": 1]]))
    }

    @Test func storyEventsEncodeByName() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let events: [GameEvent] = [
            .setFlag(name: "a"), .clearedFlag(name: "a"), .changedCounter(name: "n", by: -1),
            .setCounter(name: "n", to: 3), .changedAttitude(npc: "mira", by: 5),
            .advancedQuest(quest: "gem", to: "asked"), .firedBeat(npc: "mira", beat: "hello"),
        ]
        #expect(try JSONDecoder().decode([GameEvent].self, from: encoder.encode(events)) == events)
        #expect(String(decoding: try encoder.encode(events[0]), as: UTF8.self) == #"{"setFlag":{"name":"a"}}"#)
        #expect(
            events.map(\.name) == [
                "setFlag", "clearedFlag", "changedCounter", "setCounter", "changedAttitude", "advancedQuest",
                "firedBeat",
            ])
        #expect(events[4].description == "changed the attitude of mira by 5")
        #expect(events[5].description == "advanced quest gem to asked")
    }

    @Test func theStoryDescribesItselfInOneSortedLine() throws {
        #expect(start.story.description == "no story progress")
        let state = try GameState.replaying(
            [
                .setFlag(name: "b"), .setFlag(name: "a"), .changedCounter(name: "visits", by: 2),
                .changedAttitude(npc: "oona", by: -3), .changedAttitude(npc: "mira", by: 4),
                .advancedQuest(quest: "gem", to: "found"), .firedBeat(npc: "mira", beat: "hello"),
            ], from: start)
        #expect(
            state.story.description
                == "flags: a, b; counters: visits 2; attitudes: mira 4, oona -3; quests: gem found; beats: mira.hello 1"
        )
    }

    // MARK: - Saved states of older versions

    @Test func aStateEncodedBeforeStoriesExistedStillDecodes() throws {
        var state = start
        try state.apply(.moved(from: "square", to: "yard"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Remove what older versions did not write: the story, the world's quests, NPCs' beats, knowledge and goals.
        guard
            var object = try JSONSerialization.jsonObject(with: encoder.encode(state)) as? [String: Any],
            var world = object["world"] as? [String: Any], var npcs = world["npcs"] as? [String: [String: Any]]
        else {
            Issue.record("the state does not encode as an object")
            return
        }
        object["story"] = nil
        world["quests"] = nil
        for (id, var npc) in npcs {
            for key in ["beats", "knowledge", "goals"] { npc[key] = nil }
            npcs[id] = npc
        }
        world["npcs"] = npcs
        object["world"] = world
        let old = try JSONSerialization.data(withJSONObject: object)
        let decoded = try JSONDecoder().decode(GameState.self, from: old)
        #expect(decoded.story.isEmpty)
        #expect(decoded.world.quests.isEmpty)
        #expect(decoded.player == state.player)
        #expect(decoded.world.npcs["mira"]?.beats == [])

        let withStory = try state.applying(.setFlag(name: "met_mira"))
        #expect(try JSONDecoder().decode(GameState.self, from: encoder.encode(withStory)) == withStory)
    }
}
