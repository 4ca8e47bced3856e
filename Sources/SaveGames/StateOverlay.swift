import GameWorld

/// Lays a save's dynamic state over a content pack's initial state, skipping and reporting what the pack lacks.
struct StateOverlay {
    var world: World
    var player: Player
    var story = StoryState()
    var missing: [MissingContent] = []

    init(pack: ContentPack) {
        world = pack.world
        player = pack.startingPlayer
    }

    /// The rebuilt state.
    var state: GameState { GameState(world: world, player: player, story: story) }

    mutating func apply(_ saved: SavedRows) {
        // The player.
        player.name = saved.player.name
        player.gold = saved.player.gold
        if world.locations.index(forKey: LocationID(saved.player.location)) != nil {
            player.location = LocationID(saved.player.location)
        } else {
            missing.append(
                MissingContent(
                    kind: .location, id: saved.player.location,
                    context: "where the player stood; the player is at the start, \(player.location), instead"))
        }
        player.inventory = inventory(saved.playerItems, holder: "in the player's inventory")

        // NPCs the pack still has take their saved place, gold and items; the others are reported. Each is changed
        // in place, and only when it differs: an NPC is a large value, and most are as the pack starts them.
        for row in saved.npcs {
            let id = NPCID(row.id)
            let items = saved.npcItems[row.id] ?? []
            guard let index = world.npcs.index(forKey: id) else {
                let carried = items.isEmpty ? "" : ", carrying " + describe(items)
                missing.append(
                    MissingContent(
                        kind: .npc, id: row.id, context: "at \(row.location) with \(row.gold) gold\(carried)"))
                continue
            }
            let current = world.npcs.values[index].location
            var location = current
            if world.locations.index(forKey: LocationID(row.location)) != nil {
                location = LocationID(row.location)
            } else {
                missing.append(
                    MissingContent(
                        kind: .location, id: row.location,
                        context: "where \(row.id) stood; \(row.id) is at \(current) instead"))
            }
            let sameItems = holds(items, as: world.npcs.values[index].inventory)
            let inventory = sameItems ? nil : self.inventory(items, holder: "carried by \(row.id)")
            guard location != current || row.gold != world.npcs.values[index].gold || inventory != nil else { continue }
            world.npcs[id]?.location = location
            world.npcs[id]?.gold = row.gold
            if let inventory { world.npcs[id]?.inventory = inventory }
        }

        // Locations: their items.
        for id in saved.locations {
            let items = saved.locationItems[id] ?? []
            guard let index = world.locations.index(forKey: LocationID(id)) else {
                let lying = items.isEmpty ? "nothing lying there" : describe(items) + " lying there"
                missing.append(MissingContent(kind: .location, id: id, context: "a location of the save, \(lying)"))
                continue
            }
            guard !holds(items, as: world.locations.values[index].items) else { continue }
            let inventory = inventory(items, holder: "lying at \(id)")
            world.locations[LocationID(id)]?.items = inventory
        }

        applyStory(saved.story)
    }

    /// The story: flags and counters as saved (they are free names); attitudes of NPCs, stages of quests and beats
    /// of NPCs the pack still has, the others reported.
    private mutating func applyStory(_ saved: StoryRows) {
        story.flags = Set(saved.flags)
        for row in saved.counters {
            story.counters[row.name] = min(max(row.value, 0), StoryState.counterRange.upperBound)
        }
        for row in saved.attitudes {
            guard world.npcs.index(forKey: NPCID(row.npc)) != nil else {
                missing.append(MissingContent(kind: .npc, id: row.npc, context: "with an attitude of \(row.value)"))
                continue
            }
            let range = StoryState.attitudeRange
            story.attitudes[NPCID(row.npc)] = min(max(row.value, range.lowerBound), range.upperBound)
        }
        for row in saved.quests {
            guard let quest = world.quests[QuestID(row.id)] else {
                missing.append(MissingContent(kind: .quest, id: row.id, context: "at the stage \"\(row.stage)\""))
                continue
            }
            guard quest.index(of: row.stage) != nil else {
                missing.append(
                    MissingContent(
                        kind: .stage, id: row.stage,
                        context: "the stage of the quest \(row.id); it is at \"\(quest.firstStage)\" instead"))
                continue
            }
            if row.stage != quest.firstStage { story.quests[quest.id] = row.stage }
        }
        for row in saved.beats {
            guard let npc = world.npcs[NPCID(row.npc)] else {
                missing.append(
                    MissingContent(kind: .npc, id: row.npc, context: "whose beat \(row.beat) fired \(row.count) times"))
                continue
            }
            guard npc.beats.contains(where: { $0.id == row.beat }) else {
                missing.append(
                    MissingContent(kind: .beat, id: row.beat, context: "a beat of \(row.npc), fired \(row.count) times")
                )
                continue
            }
            story.beats[npc.id, default: [:]][row.beat] = row.count
        }
        for (npc, dealings) in saved.dealingsByNPC.sorted(by: { $0.key < $1.key }) {
            guard world.npcs.index(forKey: npc) != nil else {
                let count = "\(dealings.count) dealing\(dealings.count == 1 ? "" : "s")"
                missing.append(MissingContent(kind: .npc, id: npc.rawValue, context: "with \(count) with the player"))
                continue
            }
            story.dealings[npc] = dealings
        }
    }

    /// Whether an offer can be kept: its NPC and every item it names are in the pack. Reports it otherwise.
    mutating func keepOffer(_ offer: TradeOffer, npc: NPCID) -> Bool {
        guard world.npcs.index(forKey: npc) != nil else {
            missing.append(MissingContent(kind: .npc, id: npc.rawValue, context: "who made a pending offer: \(offer)"))
            return false
        }
        let unknown = (offer.playerGives.items + offer.npcGives.items).map(\.item).filter {
            world.items.index(forKey: $0) == nil
        }
        for item in Set(unknown).sorted() {
            missing.append(MissingContent(kind: .item, id: item.rawValue, context: "in the pending offer of \(npc)"))
        }
        return unknown.isEmpty
    }

    /// Whether the saved stacks are exactly `inventory`, every item of them in the pack: then nothing changes.
    private func holds(_ stacks: [SavedRows.Stack], as inventory: Inventory) -> Bool {
        guard stacks.count == inventory.quantities.count else { return false }
        for stack in stacks {
            let item = ItemID(stack.item)
            guard inventory.quantities[item] == stack.quantity, world.items.index(forKey: item) != nil else {
                return false
            }
        }
        return true
    }

    /// An inventory of the saved stacks whose items the pack has; the others are reported.
    private mutating func inventory(_ stacks: [SavedRows.Stack], holder: String) -> Inventory {
        var kept: [ItemStack] = []
        for stack in stacks {
            if world.items.index(forKey: ItemID(stack.item)) != nil {
                kept.append(ItemStack(ItemID(stack.item), quantity: stack.quantity))
            } else {
                missing.append(MissingContent(kind: .item, id: stack.item, context: "\(stack.quantity) \(holder)"))
            }
        }
        return Inventory(kept)
    }

    private func describe(_ stacks: [SavedRows.Stack]) -> String {
        stacks.map { "\($0.quantity) × \($0.item)" }.joined(separator: ", ")
    }
}
