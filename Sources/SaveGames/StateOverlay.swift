import GameWorld

/// Lays a save's dynamic state over a content pack's initial state, skipping and reporting what the pack lacks.
struct StateOverlay {
    var world: World
    var player: Player
    var missing: [MissingContent] = []

    init(pack: ContentPack) {
        world = pack.world
        player = pack.startingPlayer
    }

    /// The rebuilt state.
    var state: GameState { GameState(world: world, player: player) }

    mutating func apply(_ saved: SavedRows) {
        // The player.
        player.name = saved.player.name
        player.gold = saved.player.gold
        if world.locations[LocationID(saved.player.location)] != nil {
            player.location = LocationID(saved.player.location)
        } else {
            missing.append(
                MissingContent(
                    kind: .location, id: saved.player.location,
                    context: "where the player stood; the player is at the start, \(player.location), instead"))
        }
        player.inventory = inventory(saved.playerItems, holder: "in the player's inventory")

        // NPCs the pack still has take their saved place, gold and items; the others are reported.
        for row in saved.npcs {
            let items = saved.npcItems[row.id] ?? []
            guard var npc = world.npcs[NPCID(row.id)] else {
                let carried = items.isEmpty ? "" : ", carrying " + describe(items)
                missing.append(
                    MissingContent(
                        kind: .npc, id: row.id, context: "at \(row.location) with \(row.gold) gold\(carried)"))
                continue
            }
            if world.locations[LocationID(row.location)] != nil {
                npc.location = LocationID(row.location)
            } else {
                missing.append(
                    MissingContent(
                        kind: .location, id: row.location,
                        context: "where \(row.id) stood; \(row.id) is at \(npc.location) instead"))
            }
            npc.gold = row.gold
            npc.inventory = inventory(items, holder: "carried by \(row.id)")
            world.npcs[npc.id] = npc
        }

        // Locations: their items.
        for id in saved.locations {
            let items = saved.locationItems[id] ?? []
            guard var location = world.locations[LocationID(id)] else {
                let lying = items.isEmpty ? "nothing lying there" : describe(items) + " lying there"
                missing.append(MissingContent(kind: .location, id: id, context: "a location of the save, \(lying)"))
                continue
            }
            location.items = inventory(items, holder: "lying at \(id)")
            world.locations[location.id] = location
        }
    }

    /// Whether an offer can be kept: its NPC and every item it names are in the pack. Reports it otherwise.
    mutating func keepOffer(_ offer: TradeOffer, npc: NPCID) -> Bool {
        guard world.npcs[npc] != nil else {
            missing.append(MissingContent(kind: .npc, id: npc.rawValue, context: "who made a pending offer: \(offer)"))
            return false
        }
        let unknown = (offer.playerGives.items + offer.npcGives.items).map(\.item).filter { world.items[$0] == nil }
        for item in Set(unknown).sorted() {
            missing.append(MissingContent(kind: .item, id: item.rawValue, context: "in the pending offer of \(npc)"))
        }
        return unknown.isEmpty
    }

    /// An inventory of the saved stacks whose items the pack has; the others are reported.
    private mutating func inventory(_ stacks: [SavedRows.Stack], holder: String) -> Inventory {
        var kept: [ItemStack] = []
        for stack in stacks {
            if world.items[ItemID(stack.item)] != nil {
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
