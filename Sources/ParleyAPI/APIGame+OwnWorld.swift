import GameWorld
import ParleyEngine
import ParleyJSON

// The game's own state, pushed in (`PATCH /v1/games/{id}/state`, and `POST /v1/games` with a `state`).

extension APIGame {
    /// Applies a pushed state (``ParleyEngine/Game/apply(_:)``) after every line that came before it, and autosaves.
    ///
    /// - Parameter patch: What changes.
    /// - Returns: The events of what changed (see ``APIEvent/events(for:in:)``), then `goalReached` when the push
    ///   reached the goal, and a `problem` when the autosave failed.
    /// - Throws: ``APIProblem`` (422) listing every problem of the patch; nothing changed.
    public func push(_ patch: StatePatch) async throws(APIProblem) -> [APIEvent] {
        let result = await serialized { await pushing(patch) }
        return try result.get()
    }

    /// Applies a patch and returns its events; runs inside `serialized`.
    func pushing(_ patch: StatePatch) async -> Result<[APIEvent], APIProblem> {
        let host = self.host
        var changes: [StateChange] = []
        var failure: StatePatchError?
        let (shown, _) = await recording(emit: { _ in }, publishing: false) { output in
            do throws(StatePatchError) {
                changes = try await host.apply(patch, output: output)
            } catch {
                failure = error
            }
            return true
        }
        if let failure { return .failure(.invalidState(failure)) }
        let world = await host.game.state.world
        let events = APIEvent.events(for: changes, in: world) + shown
        for event in events { eventLog.publish(event) }
        return .success(events)
    }
}

// Talking to an NPC directly (`POST /v1/games/{id}/npcs/{npc}/say`), and every NPC (`GET /v1/games/{id}/npcs`).

extension APIGame {
    /// Says a line to an NPC directly, wherever the player is, after every line that came before it, and autosaves.
    ///
    /// - Parameters:
    ///   - text: What the player says.
    ///   - npc: The NPC, one of the world's.
    ///   - emit: Receives each event as it happens, for streaming.
    /// - Returns: Every event of the line, in order, as `input(_:emit:)` gives them.
    public func say(
        _ text: String, to npc: NPCID, emit: @escaping @Sendable (APIEvent) -> Void = { _ in }
    ) async
        -> [APIEvent]
    {
        let host = self.host
        return await serialized {
            await recording(emit: emit) { output in
                await host.say(text, to: npc, output: output)
                return true
            }
        }.events
    }

    /// Every NPC of the world, sorted by id: `{"id", "name", "location": {"id", "name"}, "here", "talkedTo", "gold",
    /// "inventory", "attitude"}`.
    public func npcs() async -> [JSONValue] {
        let host = self.host
        return await serialized {
            let game = await host.game
            let state = await game.state
            let talkedTo = await game.npcsTalkedTo
            let world = state.world
            return world.npcs.values.sorted { $0.id < $1.id }.map { npc -> JSONValue in
                .object(
                    JSONObject([
                        ("id", .string(npc.id.rawValue)), ("name", .string(npc.name)),
                        (
                            "location",
                            [
                                "id": .string(npc.location.rawValue),
                                "name": .string(world.locations[npc.location]?.name ?? npc.location.rawValue),
                            ] as JSONValue
                        ),
                        ("here", .bool(npc.location == state.player.location)),
                        ("talkedTo", .bool(talkedTo.contains(npc.id))), ("gold", .integer(npc.gold)),
                        ("inventory", GameJSON.inventory(npc.inventory, in: world)),
                        ("attitude", .integer(state.story.attitude(of: npc.id))),
                    ]))
            }
        }
    }

    /// The world's NPCs, for checking a request's NPC before it waits its turn.
    func world() async -> World { await host.game.state.world }
}

// Telling NPCs what happened (`POST /v1/games/{id}/events`).

extension APIGame {
    /// Tells NPCs what happened, after every line that came before it, and autosaves: a `worldEvent` event first (what
    /// happened, and who witnessed it), then, with `react`, the witnesses' answers as `input(_:emit:)` gives them.
    ///
    /// - Parameters:
    ///   - event: What happened, checked already (`WorldEvent.check(in:)`).
    ///   - emit: Receives each event as it happens, for streaming.
    /// - Returns: Every event, in order.
    public func tell(_ event: WorldEvent, emit: @escaping @Sendable (APIEvent) -> Void = { _ in }) async -> [APIEvent] {
        let host = self.host
        return await serialized {
            let state = await host.game.state
            let witnesses = event.witnesses(in: state)
            var fields = JSONObject([("text", .string(event.text))])
            if let kind = event.kind { fields["kind"] = .string(kind) }
            fields["witnesses"] = .array(witnesses.map { GameJSON.npc($0, in: state.world) })
            fields["react"] = .bool(event.react)
            let told = APIEvent(.worldEvent, fields)
            eventLog.publish(told)
            emit(told)
            let (events, _) = await recording(emit: emit) { output in
                _ = try? await host.tell(event, output: output)
                return true
            }
            return [told] + events
        }
    }
}
