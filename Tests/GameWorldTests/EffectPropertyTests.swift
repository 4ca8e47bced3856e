import GameWorld
import GameWorldFixtures
import Testing

/// Runs thousands of random effects, most of them nonsense (unknown items, quests and stages, absurd amounts, NPCs
/// far away), with random walks between them, and checks after each that no gold or item was created or destroyed,
/// nothing went negative or out of range, a refused effect changed nothing, and the applied events rebuild the state.
@Suite struct EffectPropertyTests {
    @Test(arguments: [1, 7, 42, 2_024] as [UInt64])
    func randomEffectsOnTheShippedWorldNeverBreakTheRules(seed: UInt64) throws {
        try check(start: TestWorld.shippedPack().initialState, seed: seed, steps: 3_000)
    }

    @Test func randomEffectsOnTheStoryPackNeverBreakTheRules() throws {
        try check(start: StoryPack.pack().initialState, seed: 5, steps: 3_000)
    }

    func check(start: GameState, seed: UInt64, steps: Int) throws {
        var random = SplitMix64(seed: seed)
        var state = start
        var applied: [GameEvent] = []
        var refused = 0
        var moved = 0
        let gold = start.totalGold
        let items = start.itemTotals
        for step in 0..<steps {
            // Now and then, walk, so that other NPCs are with the player.
            if random.chance(20), let exits = state.currentLocation?.exits, !exits.isEmpty {
                let move = GameEvent.moved(from: state.player.location, to: random.pick(exits).destination)
                if (try? state.apply(move)) != nil {
                    applied.append(move)
                    moved += 1
                }
            }
            let npc =
                random.chance(70) && !state.npcsHere.isEmpty
                ? random.pick(state.npcsHere).id : random.pick(state.world.npcs.keys.sorted())
            let effects = (0..<random.next(in: 1...3)).map { _ in randomEffect(in: state, npc: npc, using: &random) }
            let before = state
            var offers = 0
            for effect in effects {
                let previous = state
                let result = state.apply([effect], npc: npc)
                applied += result.events
                offers += result.offers.count
                if !result.refusals.isEmpty {
                    refused += 1
                    #expect(state == previous, "step \(step): the refused \(effect) changed the state")
                }
            }
            #expect(offers == effects.filter { $0.offerTerms != nil }.count)
            #expect(state.totalGold == gold, "step \(step): gold changed after \(effects)")
            #expect(state.itemTotals == items, "step \(step): items changed after \(effects)")
            #expect(state.player.gold >= 0 && state.world.npcs.values.allSatisfy { $0.gold >= 0 })
            #expect(state.player.inventory.stacks.allSatisfy { $0.quantity > 0 })
            #expect(state.story.counters.values.allSatisfy { StoryState.counterRange.contains($0) && $0 != 0 })
            #expect(state.story.attitudes.values.allSatisfy { StoryState.attitudeRange.contains($0) && $0 != 0 })
            for (quest, stage) in state.story.quests {
                #expect(state.world.quests[quest]?.stages.contains(stage) == true)
                let previous = before.stage(of: quest).flatMap { state.world.quests[quest]?.index(of: $0) } ?? 0
                #expect((state.world.quests[quest]?.index(of: stage) ?? -1) >= previous, "a quest went back")
            }
            if state.totalGold != gold || state.itemTotals != items { break }
        }
        #expect(applied.count > steps / 2, "too few effects applied to mean anything: \(applied.count)")
        #expect(refused > steps / 10, "too few effects refused to mean anything: \(refused)")
        #expect(moved > 10)
        #expect(try GameState.replaying(applied, from: start) == state)
    }

    /// An effect that is often plausible, and often not.
    func randomEffect(in state: GameState, npc: NPCID, using random: inout SplitMix64) -> Effect {
        let world = state.world
        let itemIDs = world.items.keys.sorted()
        func anyItem() -> ItemID { random.chance(5) ? "no_such_item" : random.pick(itemIDs) }
        func quantity() -> Int { random.chance(5) ? random.next(in: -2...0) : random.next(in: 1...3) }
        let names = ["met", "visits", "gate_open", "Bad Name"]
        switch random.next(below: 10) {
        case 0: return random.chance(60) ? .setFlag(random.pick(names)) : .clearFlag(random.pick(names))
        case 1:
            return random.chance(70)
                ? .addToCounter(random.pick(names), amount: random.next(in: -5...5))
                : .setCounter(random.pick(names), value: random.chance(5) ? -1 : random.next(in: 0...9))
        case 2: return .changeAttitude(by: random.chance(5) ? 1_000 : random.next(in: -60...60))
        case 3:
            let quests = world.quests.values.sorted { $0.id < $1.id }
            guard let quest = quests.first, random.chance(90) else { return .advanceQuest("no_quest", stage: "x") }
            let stage = random.chance(10) ? "no_stage" : random.pick(quest.stages)
            return .advanceQuest(quest.id, stage: stage)
        case 4, 5:
            let stock = world.npcs[npc]?.inventory.stacks ?? []
            let item = stock.isEmpty || random.chance(20) ? anyItem() : random.pick(stock).item
            return .give(item, quantity: quantity())
        case 6, 7:
            let carried = state.player.inventory.stacks
            let item = carried.isEmpty || random.chance(20) ? anyItem() : random.pick(carried).item
            return .take(item, quantity: quantity())
        case 8:
            let amount = random.chance(10) ? random.next(in: -5...0) : random.next(in: 1...60)
            return random.chance(50) ? .giveGold(amount) : .takeGold(amount)
        default:
            return .offer(
                OfferTerms(
                    action: random.chance(50) ? .sell : .buy, item: anyItem(), quantity: quantity(),
                    price: random.next(in: 0...50)))
        }
    }
}
