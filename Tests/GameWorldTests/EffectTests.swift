import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// Effects: what events each means, how they run through the world's rules, and their JSON.
@Suite struct EffectTests {
    let start: GameState

    init() throws {
        start = try StoryPack.pack().initialState
    }

    @Test(arguments: [
        (Effect.setFlag("met_mira"), [GameEvent.setFlag(name: "met_mira")]),
        (.clearFlag("met_mira"), []),
        (.addToCounter("visits", amount: 2), [.changedCounter(name: "visits", by: 2)]),
        (.addToCounter("visits", amount: 0), []),
        (.setCounter("visits", value: 5), [.setCounter(name: "visits", to: 5)]),
        (.setCounter("visits", value: 0), []),
        (.changeAttitude(by: -3), [.changedAttitude(npc: "mira", by: -3)]),
        (.changeAttitude(by: 0), []),
        (.advanceQuest("gem", stage: "found"), [.advancedQuest(quest: "gem", to: "found")]),
        (.advanceQuest("gem", stage: "unstarted"), []),
        (.give("compass", quantity: 1), [.received(item: "compass", quantity: 1, from: "mira")]),
        (.take("bread", quantity: 2), [.gave(item: "bread", quantity: 2, to: "mira")]),
        (.giveGold(5), [.receivedGold(amount: 5, from: "mira")]),
        (.takeGold(5), [.paidGold(amount: 5, to: "mira")]),
        (.offer(OfferTerms(action: .sell, item: "bread", price: 3)), []),
    ])
    func eachEffectMeansItsEvents(effect: Effect, events: [GameEvent]) {
        #expect(effect.events(for: "mira", in: start) == events)
    }

    @Test func effectsThatWouldChangeNothingMeanNoEvent() throws {
        var state = start
        try state.apply(.setFlag(name: "met_mira"))
        try state.apply(.advancedQuest(quest: "gem", to: "found"))
        try state.apply(.setCounter(name: "visits", to: 3))
        #expect(Effect.setFlag("met_mira").events(for: "mira", in: state) == [])
        #expect(Effect.clearFlag("met_mira").events(for: "mira", in: state) == [.clearedFlag(name: "met_mira")])
        #expect(Effect.advanceQuest("gem", stage: "asked").events(for: "mira", in: state) == [])
        #expect(Effect.advanceQuest("gem", stage: "found").events(for: "mira", in: state) == [])
        #expect(Effect.setCounter("visits", value: 3).events(for: "mira", in: state) == [])
        // Unknown quests and stages still mean the event, which the game then refuses.
        #expect(Effect.advanceQuest("gem", stage: "nope").events(for: "mira", in: state).count == 1)
    }

    @Test func eachEffectChangesTheStateThroughTheWorldsRules() throws {
        var state = start
        let result = state.apply(
            [
                .setFlag("met_mira"), .addToCounter("visits", amount: 2), .changeAttitude(by: 12),
                .advanceQuest("gem", stage: "asked"), .give("compass", quantity: 1), .take("bread", quantity: 1),
                .giveGold(4), .takeGold(1), .offer(OfferTerms(action: .buy, item: "bread", quantity: 2, price: 2)),
            ], npc: "mira")
        #expect(result.refusals == [])
        #expect(result.events.count == 8)
        #expect(result.offers == [.selling("bread", quantity: 2, to: "mira", for: 2)])
        #expect(result.flagsSet == ["met_mira"])
        #expect(state.flags == ["met_mira"])
        #expect(state.story.counter("visits") == 2)
        #expect(state.story.attitude(of: "mira") == 12)
        #expect(state.stage(of: "gem") == "asked")
        #expect(state.player.inventory == ["lantern": 1, "bread": 2, "compass": 1])
        #expect(state.player.gold == 33)
        #expect(state.world.npcs["mira"]?.inventory == ["bread": 5])
        #expect(state.world.npcs["mira"]?.gold == 47)
        #expect(try GameState.replaying(result.events, from: start) == state)
    }

    @Test func anEffectTheRulesRefuseChangesNothingAndTheOthersStillHappen() throws {
        var state = start
        let result = state.apply(
            [
                .give("gem", quantity: 1), .advanceQuest("gem", stage: "asked"), .take("compass", quantity: 1),
                .giveGold(500), .takeGold(31), .advanceQuest("gem", stage: "lost"), .setFlag("done"),
            ], npc: "mira")
        #expect(
            result.refusals.map(\.effect) == [
                .give("gem", quantity: 1), .take("compass", quantity: 1), .giveGold(500), .takeGold(31),
                .advanceQuest("gem", stage: "lost"),
            ])
        #expect(
            result.refusals.map(\.error.code) == [
                .npcLacksItem, .playerLacksItem, .npcLacksGold, .playerLacksGold, .unknownStage,
            ])
        #expect(result.refusals[0].description.contains("was refused"))
        #expect(result.events == [.advancedQuest(quest: "gem", to: "asked"), .setFlag(name: "done")])
        #expect(state.world == start.world && state.player == start.player)
    }

    @Test func givingNeedsTheNPCWithThePlayer() throws {
        var state = start
        let result = state.apply([.give("sword", quantity: 1), .changeAttitude(by: 5)], npc: "oona")
        #expect(result.refusals.map(\.error.code) == [.unknownItem])
        #expect(state.story.attitude(of: "oona") == 5)
        let away = state.apply([.takeGold(1)], npc: "oona")
        #expect(away.refusals.map(\.error.code) == [.npcNotPresent])
    }

    @Test func offerTermsMakeTradeOffersBothWays() {
        let sell = OfferTerms(action: .sell, item: "bread", quantity: 2, price: 5)
        #expect(sell.tradeOffer(npc: "mira") == .buying("bread", quantity: 2, from: "mira", for: 5))
        let buy = OfferTerms(action: .buy, item: "bread", price: 1)
        #expect(buy.tradeOffer(npc: "mira") == .selling("bread", to: "mira", for: 1))
        #expect(sell.description == "sell 2 × bread for 5 gold")
    }

    @Test(arguments: [
        (Effect.setFlag("a"), #"{"set":"a"}"#), (.clearFlag("a"), #"{"clear":"a"}"#),
        (.addToCounter("n", amount: -2), #"{"counter":"n","add":-2}"#),
        (.setCounter("n", value: 4), #"{"counter":"n","set":4}"#), (.changeAttitude(by: 5), #"{"attitude":5}"#),
        (.advanceQuest("gem", stage: "found"), #"{"quest":"gem","stage":"found"}"#),
        (.give("compass", quantity: 1), #"{"give":"compass","quantity":1}"#),
        (.take("bread", quantity: 2), #"{"take":"bread","quantity":2}"#), (.giveGold(3), #"{"giveGold":3}"#),
        (.takeGold(3), #"{"takeGold":3}"#),
        (
            .offer(OfferTerms(action: .sell, item: "bread", price: 3)),
            #"{"offer":{"action":"sell","item":"bread","quantity":1,"price":3}}"#
        ),
    ])
    func anEffectIsItsJSONObject(effect: Effect, json: String) throws {
        #expect(effect.description == json)
        #expect(try JSONDecoder().decode(Effect.self, from: Data(json.utf8)) == effect)
        #expect(try JSONDecoder().decode(Effect.self, from: JSONEncoder().encode(effect)) == effect)
    }

    @Test func quantitiesDefaultToOneAndAnObjectWithoutAKindIsNoEffect() throws {
        #expect(
            try JSONDecoder().decode(Effect.self, from: Data(#"{"give":"compass"}"#.utf8))
                == .give("compass", quantity: 1))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Effect.self, from: Data(#"{"sett":"a"}"#.utf8)) }
    }
}
