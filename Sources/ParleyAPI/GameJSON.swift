import GameWorld
import ParleyEngine
import ParleyJSON

/// The JSON that `parley serve` writes for the game's values: items, inventories, trades, offers and the whole game
/// state (`GET /v1/games/{id}`). Every shape is documented in docs/api.md and docs/openapi.json.
enum GameJSON {
    /// `{"id", "name", "quantity"}` for each stack, most first, then by id.
    static func inventory(_ inventory: Inventory, in world: World) -> JSONValue {
        let stacks = inventory.stacks.sorted {
            $0.quantity != $1.quantity ? $0.quantity > $1.quantity : $0.item.rawValue < $1.item.rawValue
        }
        return .array(stacks.map { stack(of: $0.item, quantity: $0.quantity, in: world) })
    }

    /// `{"id", "name", "quantity"}`.
    static func stack(of item: ItemID, quantity: Int, in world: World) -> JSONValue {
        ["id": .string(item.rawValue), "name": .string(world.name(of: item)), "quantity": .integer(quantity)]
    }

    /// One side of a trade: `{"gold", "items": [...]}`.
    static func side(_ side: TradeSide, in world: World) -> JSONValue {
        ["gold": .integer(side.gold), "items": .array(side.items.map { stack(of: $0.item, quantity: $0.quantity, in: world) })]
    }

    /// A trade's two sides: `{"playerGives", "npcGives"}`.
    static func terms(of offer: TradeOffer, in world: World) -> JSONObject {
        JSONObject([("playerGives", side(offer.playerGives, in: world)), ("npcGives", side(offer.npcGives, in: world))])
    }

    /// An NPC as events and the state name it: `{"id", "name"}`.
    static func npc(_ id: NPCID, in world: World) -> JSONValue {
        ["id": .string(id.rawValue), "name": .string(world.name(of: id))]
    }

    /// The game as a client shows it: where the player is, what is there, who they talk to, what they carry, the
    /// offers waiting, the quests and the goal.
    ///
    /// - Parameters:
    ///   - state: The game state.
    ///   - partner: The NPC the player talks to, if any.
    ///   - offers: The offers waiting for the player's answer.
    static func state(_ state: GameState, partner: NPCID?, offers: [NPCID: PendingOffer]) -> JSONObject {
        let world = state.world
        let here = world.locations[state.player.location]
        var location = JSONObject([
            ("id", .string(state.player.location.rawValue)), ("name", .string(here?.name ?? state.player.location.rawValue)),
            ("description", .string(here?.description ?? "")),
        ])
        location["exits"] = .array(
            (here?.exits ?? []).map { exit in
                var object = JSONObject([
                    ("direction", .string(exit.direction)), ("to", .string(exit.destination.rawValue)),
                    ("name", .string(world.locations[exit.destination]?.name ?? exit.destination.rawValue)),
                ])
                if let required = exit.requiredItem {
                    object["requires"] = stack(of: required, quantity: 1, in: world)
                    object["open"] = .bool(state.player.inventory.contains(required))
                }
                return .object(object)
            })
        location["items"] = inventory(here?.items ?? Inventory(), in: world)
        location["npcs"] = .array(state.npcsHere.sorted { $0.id.rawValue < $1.id.rawValue }.map { npc($0.id, in: world) })
        let player: JSONValue = [
            "name": .string(state.player.name), "gold": .integer(state.player.gold),
            "inventory": inventory(state.player.inventory, in: world),
        ]
        let pending = offers.sorted { $0.key.rawValue < $1.key.rawValue }.map { id, offer -> JSONValue in
            var object = JSONObject([("npc", npc(id, in: world)), ("summary", .string(offer.summary))])
            for (key, value) in terms(of: offer.offer, in: world) { object[key] = value }
            return .object(object)
        }
        let quests = world.quests.values.sorted { $0.id.rawValue < $1.id.rawValue }.map { quest -> JSONValue in
            let stage = state.story.quests[quest.id] ?? quest.firstStage
            return [
                "id": .string(quest.id.rawValue), "name": .string(quest.name), "stage": .string(stage),
                "stages": .array(quest.stages.map(JSONValue.string)), "completed": .bool(stage == quest.stages.last),
            ]
        }
        return JSONObject([
            ("location", .object(location)), ("player", player),
            ("talkingTo", partner.map { npc($0, in: world) } ?? .null), ("offers", .array(pending)),
            ("quests", .array(quests)),
            ("goal", ["description": .string(world.goal.description), "reached": .bool(state.isGoalReached)] as JSONValue),
        ])
    }
}
