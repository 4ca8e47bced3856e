import GameWorld
import ParleyEngine
import ParleyJSON

// The events of a state the game pushed (`PATCH /v1/games/{id}/state`): one per value that changed.

extension APIEvent {
    /// The events of a pushed state's changes, in the order they were made: `moved` and `npcMoved` for places,
    /// `flagSet` and `flagCleared` for flags, `questAdvanced` or `questCompleted` for quests (as when play moves them),
    /// and `stateChanged` for the rest (`field`: `name`, `gold`, `inventory`, `attitude` or `counter`, with `value` and
    /// `previous`; an inventory's `item` is `{"id", "name"}` and its values are quantities, 0 for none).
    ///
    /// - Parameters:
    ///   - changes: What a ``StatePatch`` changed.
    ///   - world: The world, for names.
    /// - Returns: The events.
    static func events(for changes: [StateChange], in world: World) -> [APIEvent] {
        func npc(_ id: NPCID) -> NPCReference { NPCReference(id: id, name: world.name(of: id)) }
        func place(_ id: LocationID) -> JSONValue {
            ["id": .string(id.rawValue), "name": .string(world.locations[id]?.name ?? id.rawValue)]
        }
        func reference(_ item: ItemID) -> JSONValue {
            ["id": .string(item.rawValue), "name": .string(world.name(of: item))]
        }
        func changed(_ field: String, npc: NPCReference? = nil, _ fields: [(String, JSONValue)]) -> APIEvent {
            APIEvent(.stateChanged, npc: npc, JSONObject([("field", .string(field))] + fields))
        }
        return changes.map { change in
            switch change {
            case .playerName(let from, let to):
                changed("name", [("value", .string(to)), ("previous", .string(from))])
            case .playerGold(let from, let to):
                changed("gold", [("value", .integer(to)), ("previous", .integer(from))])
            case .playerItem(let item, let from, let to):
                changed(
                    "inventory", [("item", reference(item)), ("value", .integer(to)), ("previous", .integer(from))])
            case .playerLocation(_, let to):
                APIEvent(.moved, JSONObject([("location", place(to))]))
            case .npcGold(let id, let from, let to):
                changed("gold", npc: npc(id), [("value", .integer(to)), ("previous", .integer(from))])
            case .npcItem(let id, let item, let from, let to):
                changed(
                    "inventory", npc: npc(id),
                    [("item", reference(item)), ("value", .integer(to)), ("previous", .integer(from))])
            case .npcLocation(let id, _, let to):
                APIEvent(.npcMoved, npc: npc(id), JSONObject([("location", place(to))]))
            case .attitude(let id, let from, let to):
                changed("attitude", npc: npc(id), [("value", .integer(to)), ("previous", .integer(from))])
            case .flagSet(let flag): APIEvent(.flagSet, JSONObject([("flag", .string(flag))]))
            case .flagCleared(let flag): APIEvent(.flagCleared, JSONObject([("flag", .string(flag))]))
            case .counter(let name, let from, let to):
                changed("counter", [("counter", .string(name)), ("value", .integer(to)), ("previous", .integer(from))])
            case .quest(let id, _, let to):
                APIEvent(
                    to == world.quests[id]?.stages.last ? .questCompleted : .questAdvanced,
                    JSONObject([
                        ("quest", ["id": .string(id.rawValue), "name": .string(world.name(of: id))] as JSONValue),
                        ("stage", .string(to)),
                    ]))
            }
        }
    }
}

extension APIProblem {
    /// `422 Invalid state`: a pushed state that was refused, every problem in `detail` and, each with its JSON path,
    /// in `errors` (`[{"path", "detail"}]`).
    ///
    /// - Parameters:
    ///   - error: Why the patch was refused.
    ///   - prefix: The path of the patch in the request body: `$` for `PATCH …/state`, `$.state` for `POST /v1/games`.
    /// - Returns: The problem.
    static func invalidState(_ error: StatePatchError, at prefix: String = "$") -> APIProblem {
        func path(_ problem: StatePatchError.Problem) -> String { prefix + problem.path.dropFirst() }
        var problem = APIProblem(
            status: 422, title: "Invalid state",
            detail: "The state was not applied, and nothing changed: "
                + error.problems.map { "\(path($0)): \($0.message)" }.joined(separator: "; ")
                + ". Fix these and send it again.")
        problem.extensions["errors"] = .array(
            error.problems.map { ["path": .string(path($0)), "detail": .string($0.message)] as JSONValue })
        return problem
    }
}
