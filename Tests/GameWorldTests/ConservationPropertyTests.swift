import GameWorld
import GameWorldFixtures
import SyntheticWorlds
import Testing

/// Applies thousands of random offers and events, most of them nonsense, and checks after each one that no gold
/// or item was created or destroyed, nothing went negative, refused events changed nothing, and that the
/// accepted events rebuild the same state.
@Suite struct ConservationPropertyTests {
    @Test(arguments: [1, 2, 3, 42, 2_024] as [UInt64])
    func randomPlayOnTheShippedWorldConservesEverything(seed: UInt64) throws {
        let start = try TestWorld.shippedPack().initialState
        try check(start: start, seed: seed, steps: 3_000)
    }

    @Test func randomPlayOnASyntheticWorldConservesEverything() throws {
        let start = SyntheticWorld.generate(seed: 99, locations: 40, npcs: 60, items: 80).initialState
        try check(start: start, seed: 7, steps: 3_000)
    }

    @Test func randomPlayOnTheTestWorldConservesEverything() throws {
        try check(start: TestWorld.state, seed: 11, steps: 3_000)
    }

    func check(start: GameState, seed: UInt64, steps: Int) throws {
        var random = SplitMix64(seed: seed)
        var state = start
        var accepted: [GameEvent] = []
        var acceptedTrades = 0
        let gold = start.totalGold
        let items = start.itemTotals
        for step in 0..<steps {
            let event = randomEvent(in: state, using: &random)
            let before = state
            let verdict: TradeVerdict? =
                if case .traded(let offer) = event { TradeRules.standard.validate(offer, in: state) } else { nil }
            do {
                try state.apply(event)
                accepted.append(event)
                if let verdict {
                    #expect(verdict == .accepted, "step \(step): applied a trade the rules reject: \(event)")
                    acceptedTrades += 1
                }
            } catch {
                #expect(state == before, "step \(step): a refused event changed the state: \(event)")
                if let verdict { #expect(verdict.rejections == error.tradeRejections) }
            }
            #expect(state.totalGold == gold, "step \(step): gold changed after \(event)")
            #expect(state.itemTotals == items, "step \(step): items changed after \(event)")
            #expect(state.player.gold >= 0)
            #expect(state.world.npcs.values.allSatisfy { $0.gold >= 0 })
            #expect(state.player.inventory.stacks.allSatisfy { $0.quantity > 0 })
            #expect(state.world.npcs.values.allSatisfy { npc in npc.inventory.stacks.allSatisfy { $0.quantity > 0 } })
            #expect(state.world.locations[state.player.location] != nil)
            if state.totalGold != gold || state.itemTotals != items { break }
        }
        #expect(accepted.count > steps / 10, "too few events were accepted to mean anything: \(accepted.count)")
        #expect(acceptedTrades > 20, "too few trades were accepted to mean anything: \(acceptedTrades)")
        #expect(try GameState.replaying(accepted, from: start) == state)
    }

    // MARK: - Random events

    func randomEvent(in state: GameState, using random: inout SplitMix64) -> GameEvent {
        let world = state.world
        let player = state.player
        let here = state.npcsHere
        let itemIDs = world.items.keys.sorted()
        let npcIDs = world.npcs.keys.sorted()
        let locationIDs = world.locations.keys.sorted()
        func anyItem() -> ItemID { Self.anyItem(itemIDs, using: &random) }
        func quantity() -> Int { Self.quantity(using: &random) }
        func someNPC() -> NPCID { here.isEmpty || random.chance(10) ? random.pick(npcIDs) : random.pick(here).id }

        switch random.next(below: 10) {
        case 0, 1:
            let exits = state.currentLocation?.exits ?? []
            let to = exits.isEmpty || random.chance(15) ? random.pick(locationIDs) : random.pick(exits).destination
            return .moved(from: random.chance(5) ? random.pick(locationIDs) : player.location, to: to)
        case 2:
            let lying = state.currentLocation?.items.stacks ?? []
            let item = lying.isEmpty || random.chance(20) ? anyItem() : random.pick(lying).item
            return .tookItem(item: item, quantity: quantity(), from: player.location)
        case 3:
            let carried = player.inventory.stacks
            let item = carried.isEmpty || random.chance(20) ? anyItem() : random.pick(carried).item
            return random.chance(50)
                ? .droppedItem(item: item, quantity: quantity(), at: player.location)
                : .gave(item: item, quantity: quantity(), to: someNPC())
        case 4:
            let npc = someNPC()
            let stock = world.npcs[npc]?.inventory.stacks ?? []
            if random.chance(50) {
                let item = stock.isEmpty ? anyItem() : random.pick(stock).item
                return .received(item: item, quantity: quantity(), from: npc)
            }
            let amount = random.chance(10) ? -5 : random.next(in: 1...40)
            return random.chance(50) ? .paidGold(amount: amount, to: npc) : .receivedGold(amount: amount, from: npc)
        case 5:
            let npc = random.pick(npcIDs)
            let from = random.chance(90) ? world.npcs[npc]!.location : random.pick(locationIDs)
            return .npcMoved(npc: npc, from: from, to: random.chance(60) ? player.location : random.pick(locationIDs))
        default:
            let npc = someNPC()
            return .traded(offer: randomOffer(in: state, npc: npc, using: &random))
        }
    }

    /// An offer that is often plausible: goods from both inventories, priced near the NPC's minimum.
    func randomOffer(in state: GameState, npc: NPCID, using random: inout SplitMix64) -> TradeOffer {
        let itemIDs = state.world.items.keys.sorted()
        func anyItem() -> ItemID { Self.anyItem(itemIDs, using: &random) }
        func quantity() -> Int { Self.quantity(using: &random) }
        var offer = TradeOffer(npc: npc)
        let stock = state.world.npcs[npc]?.inventory.stacks ?? []
        let carried = state.player.inventory.stacks
        for _ in 0..<random.next(in: 0...2) where !stock.isEmpty {
            let stack = random.pick(stock)
            let count = random.chance(80) ? random.next(in: 1...stack.quantity) : quantity()
            offer.npcGives.items.append(ItemStack(random.chance(5) ? anyItem() : stack.item, quantity: count))
        }
        for _ in 0..<random.next(in: 0...1) where !carried.isEmpty {
            let stack = random.pick(carried)
            offer.playerGives.items.append(ItemStack(stack.item, quantity: random.chance(85) ? 1 : quantity()))
        }
        let net = TradeRules.standard.price(of: offer, in: state.world)?.minimum ?? random.next(in: 0...50)
        let wobble = random.chance(30) ? random.next(in: -10...10) : random.next(in: 0...3)
        let payment = net + wobble
        if payment >= 0 {
            offer.playerGives.gold = random.chance(3) ? -payment - 1 : payment
        } else {
            offer.npcGives.gold = random.chance(3) ? 2_000_000_000 : -payment
        }
        return offer
    }

    /// A catalog item, or now and then one that does not exist.
    static func anyItem(_ itemIDs: [ItemID], using random: inout SplitMix64) -> ItemID {
        random.chance(3) ? "no_such_item" : random.pick(itemIDs)
    }

    /// Usually 1 to 3, sometimes zero, negative or absurd.
    static func quantity(using random: inout SplitMix64) -> Int {
        switch random.next(below: 20) {
        case 0: return 0
        case 1: return -random.next(in: 1...5)
        case 2: return random.next(in: 9_999...20_000)
        default: return random.next(in: 1...3)
        }
    }
}
