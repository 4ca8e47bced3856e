import ContentPacks
import GameWorld
import GameWorldFixtures
import SyntheticWorlds
import Testing

/// Gold, quantities, counters and attitudes at and around `Int.max` and the game's maxima (`GameLimits`): no event
/// traps, an event that would go above a maximum is refused with a typed error and changes nothing, and accepted
/// events still only move gold and items. Before these checks, a trade or a gift adding gold to a purse at
/// `Int.max` crashed the game with an arithmetic overflow.
@Suite struct LimitPropertyTests {
    // MARK: - The cases that trapped

    /// The test world with the player and Brannoc (in the smithy) holding these amounts.
    static func state(
        playerGold: Int = 100, brannocGold: Int = 30, playerDaggers: Int = 2, brannocSwords: Int = 1,
        daggersLying: Int = 0, story: StoryState = StoryState()
    ) -> GameState {
        var world = TestWorld.world
        world.npcs["brannoc"]?.gold = brannocGold
        world.npcs["brannoc"]?.inventory = Inventory([
            ItemStack("sword", quantity: brannocSwords), ItemStack("lantern", quantity: 2),
        ])
        if daggersLying > 0 {
            world.locations["smithy"]?.items = Inventory([ItemStack("dagger", quantity: daggersLying)])
        }
        var player = TestWorld.player
        player.gold = playerGold
        player.inventory = Inventory([ItemStack("dagger", quantity: playerDaggers), ItemStack("bread", quantity: 3)])
        return GameState(world: world, player: player, story: story)
    }

    /// Applies an event that must be refused with `code`, and checks that nothing changed.
    func expectRefused(
        _ event: GameEvent, in state: GameState, code: GameEventError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var after = state
        do {
            try after.apply(event)
            Issue.record("\(event) was applied", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(after == state, "a refused event changed the state", sourceLocation: sourceLocation)
    }

    @Test(arguments: [Int.max, Int.max - 1, GameLimits.maximumGold])
    func goldIntoAFullPurseIsRefused(held: Int) {
        expectRefused(
            .receivedGold(amount: 1, from: "brannoc"), in: Self.state(playerGold: held), code: .limitExceeded)
        expectRefused(.paidGold(amount: 1, to: "brannoc"), in: Self.state(brannocGold: held), code: .limitExceeded)
        // A trade in which Brannoc buys a dagger: he pays, the player's purse would overflow.
        let sale = TradeOffer.selling("dagger", to: "brannoc", for: 10)
        let state = Self.state(playerGold: held, brannocGold: 50)
        #expect(
            TradeRules.standard.validate(sale, in: state).rejections == [
                .goldLimitExceeded(
                    party: .player, npc: "brannoc", held: held, receiving: 10, limit: GameLimits.maximumGold)
            ])
        expectRefused(.traded(offer: sale), in: state, code: .tradeRejected)
        // And the other way: the player buys a sword from a Brannoc whose purse is full.
        let purchase = TradeOffer.buying("sword", from: "brannoc", for: 60)
        let rich = Self.state(brannocGold: held)
        #expect(
            TradeRules.standard.validate(purchase, in: rich).rejections == [
                .goldLimitExceeded(
                    party: .npc, npc: "brannoc", held: held, receiving: 60, limit: GameLimits.maximumGold)
            ])
    }

    @Test func goldUpToTheMaximumIsAccepted() throws {
        var state = Self.state(playerGold: GameLimits.maximumGold - 10, brannocGold: 50)
        try state.apply(.traded(offer: .selling("dagger", to: "brannoc", for: 10)))
        #expect(state.player.gold == GameLimits.maximumGold)
        try state.apply(.paidGold(amount: 5, to: "brannoc"))
        #expect(state.player.gold == GameLimits.maximumGold - 5)
    }

    @Test(arguments: [Int.max, GameLimits.maximumQuantity])
    func itemsIntoAFullInventoryAreRefused(held: Int) {
        expectRefused(
            .received(item: "sword", quantity: 1, from: "brannoc"),
            in: Self.state(playerDaggers: 1, brannocSwords: 1).replacingPlayerInventory(["sword": held]),
            code: .limitExceeded)
        expectRefused(
            .gave(item: "dagger", quantity: 1, to: "brannoc"),
            in: Self.state().replacingBrannocInventory(["dagger": held]), code: .limitExceeded)
        expectRefused(
            .tookItem(item: "dagger", quantity: 1, from: "smithy"),
            in: Self.state(playerDaggers: held, daggersLying: 1),
            code: .limitExceeded)
        expectRefused(
            .droppedItem(item: "dagger", quantity: 1, at: "smithy"),
            in: Self.state(playerDaggers: 1, daggersLying: held),
            code: .limitExceeded)
        let state = Self.state(brannocSwords: 1).replacingPlayerInventory(["sword": held])
        #expect(
            TradeRules.standard.validate(.buying("sword", from: "brannoc", for: 60), in: state).rejections == [
                .quantityLimitExceeded(
                    party: .player, npc: "brannoc", item: "sword", held: held, receiving: 1,
                    limit: GameLimits.maximumQuantity)
            ])
    }

    @Test func storyCountsNeverTrap() throws {
        let state = Self.state(
            story: StoryState(counters: ["visits": Int.max], attitudes: ["brannoc": Int.max], beats: [:]))
        // Changes of Int.min used to trap in abs(_:); now they are out of range like any other.
        expectRefused(.changedCounter(name: "visits", by: Int.min), in: state, code: .invalidQuantity)
        expectRefused(.changedAttitude(npc: "brannoc", by: Int.min), in: state, code: .invalidQuantity)
        // A counter or attitude beyond its range (a damaged save) is clamped back into it, not overflowed.
        var after = state
        try after.apply(.changedCounter(name: "visits", by: 1))
        #expect(after.story.counter("visits") == StoryState.counterRange.upperBound)
        try after.apply(.changedAttitude(npc: "brannoc", by: 1))
        #expect(after.story.attitude(of: "brannoc") == StoryState.attitudeRange.upperBound)
        var low = Self.state(story: StoryState(counters: ["visits": Int.min]))
        try low.apply(.changedCounter(name: "visits", by: -1))
        #expect(low.story.counter("visits") == 0)
    }

    @Test func aBeatFiredAsOftenAsCanBeCountedIsRefused() throws {
        let pack = try TestWorld.shippedPack()
        let (npc, beat) = try #require(
            pack.world.npcs.values.sorted { $0.id < $1.id }.lazy.compactMap { npc in
                npc.beats.first.map { (npc.id, $0) }
            }
            .first)
        let state = GameState(
            world: pack.world, player: pack.startingPlayer, story: StoryState(beats: [npc: [beat.id: Int.max]]))
        expectRefused(.firedBeat(npc: npc, beat: beat.id), in: state, code: .limitExceeded)
    }

    @Test func pricesThatDoNotFitInAnIntAreRefusedNotTrapped() {
        var world = TestWorld.world
        world.items["sword"]?.value = Int.max / 2
        let state = GameState(world: world, player: TestWorld.player)
        let offer = TradeOffer.buying("sword", from: "brannoc", for: 10)
        #expect(TradeRules.standard.validate(offer, in: state).rejections.contains(.priceOverflow(npc: "brannoc")))
        #expect(TradeRules.standard.price(of: offer, in: world) == nil)
        #expect(PriceRatio(hundredths: 150).appliedRoundingUp(to: Int.max) == Int.max)
        #expect(PriceRatio(hundredths: 150).appliedRoundingDown(to: Int.min) == Int.min)
        // Rounding is unchanged where it fits.
        #expect(PriceRatio(hundredths: 125).appliedRoundingUp(to: 21) == 27)
        #expect(PriceRatio(hundredths: 50).appliedRoundingDown(to: 21) == 10)
        #expect(PriceRatio(hundredths: -50).appliedRoundingUp(to: 21) == -10)
        #expect(PriceRatio(hundredths: -50).appliedRoundingDown(to: 21) == -11)
    }

    @Test func inventoriesAddUpWithoutTrapping() {
        let inventory = Inventory([ItemStack("bread", quantity: Int.max), ItemStack("bread", quantity: Int.max)])
        #expect(inventory.quantity(of: "bread") == Int.max)
        let two = Inventory([ItemStack("bread", quantity: Int.max), ItemStack("apple", quantity: 5)])
        #expect(two.totalQuantity == Int.max)
        var adding = Inventory([ItemStack("bread", quantity: Int.max)])
        let overflowed = adding.add("bread")
        #expect(!overflowed)
        #expect(adding.quantity(of: "bread") == Int.max)
        let added = adding.add("apple", quantity: 3)
        #expect(added)
    }

    @Test func theCheckerAndTheGameShareTheirMaxima() {
        #expect(TradeRules.standard.maximumGold == GameLimits.maximumGold)
        #expect(TradeRules.standard.maximumQuantity == GameLimits.maximumQuantity)
        #expect(GameLimits.maximumPrice == GameLimits.maximumGold)
        for (gold, errors) in [(GameLimits.maximumGold, 0), (GameLimits.maximumGold + 1, 1)] {
            var files = SyntheticWorld.files(seed: 4, locations: 2, npcs: 1, items: 3)
            files["npcs/npc_0.json"] = files["npcs/npc_0.json"]!.replacingOccurrences(
                of: #""gold" *: *\d+"#, with: "\"gold\": \(gold)", options: .regularExpression)
            let result = ContentPack.load(files: files, displayPath: "pack")
            #expect(result.errors.count == errors, "\(result.errors)")
        }
    }

    // MARK: - Random events at the limits

    /// Amounts at and around the limits and the ends of `Int`.
    static let edges = [
        Int.max, Int.max - 1, Int.min, Int.min + 1, GameLimits.maximumGold - 1, GameLimits.maximumGold,
        GameLimits.maximumGold + 1, GameLimits.maximumQuantity - 1, GameLimits.maximumQuantity,
        GameLimits.maximumQuantity + 1, -1, 0, 1, 2,
    ]

    @Test(arguments: [1, 2, 3, 5, 8] as [UInt64])
    func randomEventsAtTheLimitsNeverTrapAndKeepTheRules(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func holding() -> Int { random.chance(60) ? random.pick(Self.edges.filter { $0 > 0 }) : random.next(in: 1...9) }
        var state = Self.state(
            playerGold: holding(), brannocGold: holding(), playerDaggers: holding(), brannocSwords: holding(),
            daggersLying: holding(),
            story: StoryState(
                counters: ["visits": random.pick(Self.edges)], attitudes: ["brannoc": random.pick(Self.edges)]))
        var accepted = 0
        var limited = 0
        for step in 0..<2_000 {
            let event = randomEvent(using: &random)
            let before = state
            do {
                try state.apply(event)
                accepted += 1
                #expect(Self.gold(state) == Self.gold(before), "step \(step): gold changed after \(event)")
                #expect(Self.items(state) == Self.items(before), "step \(step): items changed after \(event)")
                #expect(Self.withinLimits(state, before: before), "step \(step): \(event) went above a maximum")
                switch event {
                case .changedCounter, .setCounter:
                    #expect(StoryState.counterRange.contains(state.story.counter("visits")), "step \(step): \(event)")
                case .changedAttitude:
                    #expect(StoryState.attitudeRange.contains(state.story.attitude(of: "brannoc")), "step \(step)")
                default: break
                }
            } catch {
                if error.code == .limitExceeded || error.tradeRejections.contains(where: \.isLimit) { limited += 1 }
                #expect(state == before, "step \(step): a refused event changed the state: \(event)")
            }
            #expect(state.player.gold >= 0 && state.world.npcs.values.allSatisfy { $0.gold >= 0 })
        }
        #expect(accepted > 50, "too few events were accepted to mean anything: \(accepted)")
        #expect(limited > 20, "too few events met a limit to mean anything: \(limited)")
    }

    /// An amount at or around a limit, or now and then an ordinary one.
    static func edge(_ random: inout SplitMix64) -> Int {
        random.chance(75) ? random.pick(edges) : random.next(in: 1...50)
    }

    func randomEvent(using random: inout SplitMix64) -> GameEvent {
        func edge() -> Int { Self.edge(&random) }
        switch random.next(below: 10) {
        case 0: return .tookItem(item: "dagger", quantity: edge(), from: "smithy")
        case 1: return .droppedItem(item: "dagger", quantity: edge(), at: "smithy")
        case 2: return .gave(item: "dagger", quantity: edge(), to: "brannoc")
        case 3: return .received(item: "sword", quantity: edge(), from: "brannoc")
        case 4:
            let amount = edge()
            return random.chance(50)
                ? .paidGold(amount: amount, to: "brannoc") : .receivedGold(amount: amount, from: "brannoc")
        case 5: return .traded(offer: .buying("sword", quantity: edge(), from: "brannoc", for: edge()))
        case 6: return .traded(offer: .selling("dagger", quantity: edge(), to: "brannoc", for: edge()))
        case 7:
            var offer = TradeOffer.buying("lantern", quantity: edge(), from: "brannoc", for: edge())
            offer.playerGives.items = [ItemStack("dagger", quantity: edge())]
            offer.npcGives.gold = random.chance(50) ? edge() : 0
            return .traded(offer: offer)
        case 8:
            let amount = edge()
            return random.chance(50)
                ? .changedCounter(name: "visits", by: amount) : .setCounter(name: "visits", to: amount)
        default: return .changedAttitude(npc: "brannoc", by: edge())
        }
    }

    // MARK: - Exact totals and holdings

    /// The gold in the game as an exact sum, however large.
    static func gold(_ state: GameState) -> [Int] {
        WideSum.of([state.player.gold] + state.world.npcs.values.map(\.gold))
    }

    /// Each item's exact total, wherever it is.
    static func items(_ state: GameState) -> [ItemID: [Int]] {
        var all: [ItemID: [Int]] = [:]
        let inventories =
            [state.player.inventory] + state.world.npcs.values.map(\.inventory)
            + state.world.locations.values.map(\.items)
        for inventory in inventories {
            for stack in inventory.stacks { all[stack.item, default: []].append(stack.quantity) }
        }
        return all.mapValues(WideSum.of)
    }

    /// Whether every purse and stack is within the maxima, or no larger than it was.
    static func withinLimits(_ state: GameState, before: GameState) -> Bool {
        func purses(_ state: GameState) -> [String: Int] {
            var purses = ["player": state.player.gold]
            for npc in state.world.npcs.values { purses[npc.id.rawValue] = npc.gold }
            return purses
        }
        func stacks(_ state: GameState) -> [String: Int] {
            var stacks: [String: Int] = [:]
            for stack in state.player.inventory.stacks { stacks["player." + stack.item.rawValue] = stack.quantity }
            for npc in state.world.npcs.values {
                for stack in npc.inventory.stacks {
                    stacks[npc.id.rawValue + "." + stack.item.rawValue] = stack.quantity
                }
            }
            for location in state.world.locations.values {
                for stack in location.items.stacks {
                    stacks[location.id.rawValue + "." + stack.item.rawValue] = stack.quantity
                }
            }
            return stacks
        }
        let (oldPurses, oldStacks) = (purses(before), stacks(before))
        return purses(state).allSatisfy { $0.value <= GameLimits.maximumGold || $0.value <= oldPurses[$0.key] ?? 0 }
            && stacks(state).allSatisfy { $0.value <= GameLimits.maximumQuantity || $0.value <= oldStacks[$0.key] ?? 0 }
    }
}

/// An exact sum of `Int`s in base-2^32 limbs, so totals beyond `Int.max` still compare exactly.
enum WideSum {
    /// The sum as little-endian 32-bit limbs (the last one signed), trimmed.
    static func of(_ values: [Int]) -> [Int] {
        var limbs = [Int](repeating: 0, count: 4)
        for value in values {
            limbs[0] += value & 0xFFFF_FFFF
            limbs[1] += (value >> 32) & 0xFFFF_FFFF
            limbs[2] += value >> 63  // -1 for negative values: the sign extension
            for index in 0..<3 {
                limbs[index + 1] += limbs[index] >> 32
                limbs[index] &= 0xFFFF_FFFF
            }
        }
        return limbs
    }
}

extension GameState {
    /// The same state with the player carrying exactly these.
    func replacingPlayerInventory(_ inventory: [ItemID: Int]) -> GameState {
        var player = self.player
        player.inventory = Inventory(inventory.map { ItemStack($0.key, quantity: $0.value) })
        return GameState(world: world, player: player, story: story)
    }

    /// The same state with Brannoc carrying exactly these.
    func replacingBrannocInventory(_ inventory: [ItemID: Int]) -> GameState {
        var world = self.world
        world.npcs["brannoc"]?.inventory = Inventory(inventory.map { ItemStack($0.key, quantity: $0.value) })
        return GameState(world: world, player: player, story: story)
    }
}

extension TradeRejection {
    /// Whether the rejection is one of the limits: gold or items above a maximum, or a price beyond `Int`.
    var isLimit: Bool {
        switch self {
        case .goldLimitExceeded, .quantityLimitExceeded, .priceOverflow, .absurdGold, .absurdQuantity: true
        default: false
        }
    }
}
