import GameWorld
import ParleyEngine
import ParleyJSON
import SaveGames

// Living beside other games in one save folder: a slot another game plays is not saved to or loaded, and a game
// nobody uses any more can be told apart.

extension APIGame {
    /// A `problem` event refusing a line that saves to, or loads, a slot another game is playing (today such a save
    /// would replace that game's save and erase its conversations); `nil` for any other line.
    func slotRefusal(for line: String) async -> APIEvent? {
        guard let slotOwner else { return nil }
        let slot: String
        switch await host.game.command(for: line) {
        case .save(let named, _): slot = named ?? "save"
        case .load(let named): slot = named
        default: return nil
        }
        let stored = SaveGameStore.sanitizedSlotName(slot) ?? slot
        guard let other = await slotOwner(stored) else { return nil }
        return APIEvent(
            .problem,
            JSONObject([
                (
                    "detail",
                    .string(
                        "Slot \(stored) is being played by game \(other): nothing was saved or loaded. Save to another "
                            + "slot, or end that game first (DELETE /v1/games/\(other)).")
                )
            ]))
    }

    /// Whether the game has been left alone for `timeout` at `now`: no line running or waiting, no listener, and
    /// nothing asked of it for that long.
    func isIdle(for timeout: Duration, at now: ContinuousClock.Instant) -> Bool {
        !isBusy && eventLog.listenerCount == 0 && now - lastUsed >= timeout
    }

    /// The game as `GET /v1/games` lists it: `{"id", "slot", "player", "location": {"id", "name"}, "talkingTo",
    /// "idleSeconds", "listeners"}`.
    func summary(at now: ContinuousClock.Instant = .now) async -> JSONValue {
        let game = await host.game
        let state = await game.state
        let world = state.world
        let partner = await game.partner
        return .object(
            JSONObject([
                ("id", .string(id)), ("slot", .string(await host.activeAutosaveSlot)),
                ("player", .string(state.player.name)),
                (
                    "location",
                    [
                        "id": .string(state.player.location.rawValue),
                        "name": .string(world.locations[state.player.location]?.name ?? state.player.location.rawValue),
                    ] as JSONValue
                ),
                ("talkingTo", partner.map { GameJSON.npc($0, in: world) } ?? .null),
                ("idleSeconds", .integer(max(0, (now - lastUsed).components.seconds).clamped)),
                ("listeners", .integer(eventLog.listenerCount)),
            ]))
    }
}

extension Int64 {
    /// The value as an `Int`, at most `Int.max`.
    fileprivate var clamped: Int { Int(clamping: self) }
}

extension APIGame {
    /// Saves the whole game to a slot, as the in-game `save` does, after every line that came before it: the slot
    /// whole, spaces and all (a typed `save My Slot` would take `Slot` for a label).
    ///
    /// - Parameter slot: The slot.
    /// - Returns: What the game showed: `Saved to slot …`, or a `problem`.
    func save(slot: String) async -> [APIEvent] {
        let host = self.host
        return await serialized {
            await recording(emit: { _ in }) { output in
                await host.perform(.save(slot: slot, label: nil), output: output)
            }
        }.events
    }
}
