import Foundation
import GameWorld
import GameWorldFixtures
import Testing

@Suite struct GameEventTests {
    let start = TestWorld.state

    // MARK: - Applying

    @Test func anAcceptedTradeMovesExactlyTheGoodsAndGold() throws {
        var state = start
        let offer = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(items: [ItemStack("dagger", quantity: 2)], gold: 28),
            npcGives: TradeSide(items: [ItemStack("sword")]))
        try state.apply(.traded(offer: offer))
        #expect(state.player.gold == 72)
        #expect(state.player.inventory.quantity(of: "dagger") == 0)
        #expect(state.player.inventory.quantity(of: "sword") == 1)
        let brannoc = try #require(state.world.npcs["brannoc"])
        #expect(brannoc.gold == 58)
        #expect(brannoc.inventory.quantity(of: "dagger") == 2)
        #expect(brannoc.inventory.quantity(of: "sword") == 0)
        #expect(state.totalGold == start.totalGold)
        #expect(state.itemTotals == start.itemTotals)
    }

    @Test func aRejectedTradeThrowsEveryReasonAndChangesNothing() {
        var state = start
        let error = #expect(throws: GameEventError.self) {
            try state.apply(.traded(offer: .buying("sword", from: "brannoc", for: 1)))
        }
        #expect(error?.code == .tradeRejected)
        #expect(error?.tradeRejections == [.priceOutsidePolicy(npc: "brannoc", minimum: 48, asking: 60, offered: 1)])
        #expect(error?.message.contains("accepts no less than 48") == true)
        #expect(state == start)
    }

    @Test func movingFollowsExitsAndNeedsTheRequiredItem() throws {
        var state = start
        try state.apply(.moved(from: "smithy", to: "square"))
        #expect(state.player.location == "square")
        #expect(state.currentLocation?.name == "Square")
        #expect(state.npcsHere.map(\.id) == ["mira"])
        let error = #expect(throws: GameEventError.self) { try state.apply(.moved(from: "square", to: "cellar")) }
        #expect(error?.code == .exitBlocked)
        try state.apply(.moved(from: "square", to: "smithy"))
        try state.apply(.traded(offer: .buying("lantern", from: "brannoc", for: 24)))
        try state.apply(.moved(from: "smithy", to: "square"))
        try state.apply(.moved(from: "square", to: "cellar"))
        #expect(state.player.location == "cellar")
    }

    @Test(arguments: [
        (GameEvent.moved(from: "square", to: "smithy"), GameEventError.Code.wrongLocation),
        (.moved(from: "smithy", to: "cellar"), .noExit),
        (.moved(from: "smithy", to: "moon"), .unknownLocation),
        (.tookItem(item: "apple", quantity: 1, from: "square"), .wrongLocation),
        (.tookItem(item: "apple", quantity: 1, from: "smithy"), .itemNotHere),
        (.tookItem(item: "pear", quantity: 1, from: "smithy"), .unknownItem),
        (.droppedItem(item: "dagger", quantity: 3, at: "smithy"), .playerLacksItem),
        (.droppedItem(item: "dagger", quantity: 0, at: "smithy"), .invalidQuantity),
        (.droppedItem(item: "dagger", quantity: 10_001, at: "smithy"), .invalidQuantity),
        (.gave(item: "bread", quantity: 1, to: "mira"), .npcNotPresent),
        (.gave(item: "bread", quantity: 1, to: "nobody"), .unknownNPC),
        (.gave(item: "sword", quantity: 1, to: "brannoc"), .playerLacksItem),
        (.received(item: "dagger", quantity: 1, from: "brannoc"), .npcLacksItem),
        (.paidGold(amount: 101, to: "brannoc"), .playerLacksGold),
        (.paidGold(amount: -1, to: "brannoc"), .invalidQuantity),
        (.receivedGold(amount: 31, from: "brannoc"), .npcLacksGold),
        (.npcMoved(npc: "mira", from: "smithy", to: "square"), .wrongLocation),
        (.npcMoved(npc: "mira", from: "square", to: "moon"), .unknownLocation),
        (.traded(offer: TradeOffer(npc: "brannoc")), .tradeRejected),
    ])
    func invalidEventsThrowAndChangeNothing(_ event: GameEvent, _ code: GameEventError.Code) {
        var state = start
        do {
            try state.apply(event)
            Issue.record("\(event) should have been refused")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.event == event)
            #expect(!error.message.isEmpty)
        }
        #expect(state == start)
    }

    @Test func giftsAndRewardsMoveAnyItemIncludingQuestItems() throws {
        var state = start
        try state.apply(.gave(item: "old_key", quantity: 1, to: "brannoc"))
        try state.apply(.received(item: "hammer", quantity: 1, from: "brannoc"))  // he never sells it, but may give it
        try state.apply(.paidGold(amount: 5, to: "oona"))
        try state.apply(.receivedGold(amount: 30, from: "brannoc"))
        #expect(state.world.npcs["brannoc"]?.inventory.quantity(of: "old_key") == 1)
        #expect(state.player.inventory.quantity(of: "hammer") == 1)
        #expect(state.player.gold == 125)
        #expect(state.world.npcs["oona"]?.gold == 15)
        #expect(state.world.npcs["brannoc"]?.gold == 0)
    }

    @Test func takingAndDroppingMoveItemsBetweenPlayerAndLocation() throws {
        var state = start
        try state.apply(.moved(from: "smithy", to: "square"))
        try state.apply(.tookItem(item: "apple", quantity: 2, from: "square"))
        #expect(state.currentLocation?.items.quantity(of: "apple") == 1)
        #expect(state.player.inventory.quantity(of: "apple") == 2)
        try state.apply(.droppedItem(item: "bread", quantity: 3, at: "square"))
        #expect(state.player.inventory.quantity(of: "bread") == 0)
        #expect(state.currentLocation?.items.quantity(of: "bread") == 3)
    }

    @Test func theGoalIsReachedWhenItsRequirementsHold() throws {
        var state = start
        #expect(!state.isGoalReached)
        #expect(state.world.goal.unmetRequirements(in: state).count == 1)
        try state.apply(.moved(from: "smithy", to: "square"))
        try state.apply(.gave(item: "old_key", quantity: 1, to: "mira"))
        #expect(state.isGoalReached)
    }

    @Test func npcsMoveWithoutExits() throws {
        var state = start
        try state.apply(.npcMoved(npc: "mira", from: "square", to: "cellar"))
        #expect(state.world.npcs["mira"]?.location == "cellar")
    }

    @Test func applyingReturnsANewStateAndLeavesTheOldOne() throws {
        let next = try start.applying(.moved(from: "smithy", to: "square"))
        #expect(next.player.location == "square")
        #expect(start.player.location == "smithy")
    }

    // MARK: - Rebuilding from events

    static let story: [GameEvent] = [
        .traded(offer: .selling("dagger", to: "brannoc", for: 10)),
        .traded(offer: .buying("lantern", from: "brannoc", for: 24)),
        .moved(from: "smithy", to: "square"),
        .tookItem(item: "apple", quantity: 3, from: "square"),
        .moved(from: "square", to: "cellar"),
        .droppedItem(item: "apple", quantity: 1, at: "cellar"),
        .moved(from: "cellar", to: "square"),
        .gave(item: "old_key", quantity: 1, to: "mira"),
        .npcMoved(npc: "oona", from: "smithy", to: "square"),
        .paidGold(amount: 2, to: "oona"),
    ]

    @Test func replayingEventsRebuildsTheSameState() throws {
        var live = start
        for event in Self.story { try live.apply(event) }
        let rebuilt = try GameState.replaying(Self.story, from: start)
        #expect(rebuilt == live)
        #expect(rebuilt.isGoalReached)
    }

    @Test func replayingStopsAtTheFirstBadEventAndSaysWhich() {
        var events = Self.story
        events.insert(.moved(from: "square", to: "square"), at: 3)
        let error = #expect(throws: GameEventError.self) { try GameState.replaying(events, from: start) }
        #expect(error?.eventIndex == 3)
        #expect(error?.code == .noExit)
        #expect(error.map { "\($0)".hasPrefix("event 3: cannot apply") } == true)
    }

    @Test func eventsAndStatesRoundTripThroughJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let events = try JSONDecoder().decode([GameEvent].self, from: encoder.encode(Self.story))
        #expect(events == Self.story)
        let state = try GameState.replaying(Self.story, from: start)
        let decoded = try JSONDecoder().decode(GameState.self, from: encoder.encode(state))
        #expect(decoded == state)
        let json = String(decoding: try encoder.encode(GameEvent.moved(from: "a", to: "b")), as: UTF8.self)
        #expect(json == #"{"moved":{"from":"a","to":"b"}}"#)
    }

    @Test func eventsDescribeThemselves() {
        #expect(GameEvent.moved(from: "a", to: "b").description == "moved from a to b")
        #expect(GameEvent.gave(item: "key", quantity: 1, to: "mira").description == "gave 1 × key to mira")
        #expect(
            GameEvent.traded(offer: .buying("lantern", from: "mira", for: 20)).description
                == "traded: player gives 20 gold; mira gives 1 × lantern")
    }
}
