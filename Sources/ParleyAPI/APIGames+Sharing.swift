import Foundation
import ParleyJSON
import SaveGames

// Many games in one save folder: which game plays which slot, the games being played, and games left idle.

extension APIGames {
    /// How many seconds a client refused for too many games is told to wait (`Retry-After`).
    static let retryAfterSeconds = 30

    /// The id of the game playing a slot, if one is.
    ///
    /// - Parameters:
    ///   - slot: The slot, as stored (`SaveGameStore.sanitizedSlotName(_:)`) or as given.
    ///   - id: A game to leave out (the one asking), or `nil`.
    /// - Returns: The game's id, or `nil`.
    public func playingGame(slot: String, except id: String? = nil) async -> String? {
        let stored = SaveGameStore.sanitizedSlotName(slot) ?? slot
        for (other, game) in games.sorted(by: { $0.key < $1.key }) where other != id {
            if await game.host.activeAutosaveSlot == stored { return other }
        }
        return nil
    }

    /// Every game being played, as `GET /v1/games` lists them, by id.
    public func list() async -> [JSONValue] {
        var summaries: [JSONValue] = []
        let now = ContinuousClock.now
        for (_, game) in games.sorted(by: { $0.key < $1.key }) { summaries.append(await game.summary(at: now)) }
        return summaries
    }

    /// Saves and ends every game left idle for the configuration's ``Configuration/idleTimeout`` at `now`: no line
    /// running or waiting, no listener, and nothing asked of it for that long. Later requests for it get `404`
    /// `game-ended`; it can be continued from its save.
    ///
    /// - Parameter now: The time to measure idleness at; now by default (tests pass a later one).
    /// - Returns: The ids of the games ended.
    @discardableResult
    public func endIdleGames(at now: ContinuousClock.Instant = .now) async -> [String] {
        guard let timeout = configuration.idleTimeout else { return [] }
        var idle: [String] = []
        for (id, game) in games.sorted(by: { $0.key < $1.key }) where await game.isIdle(for: timeout, at: now) {
            idle.append(id)
        }
        for id in idle { try? await end(id) }
        return idle
    }

    /// Ends idle games (``endIdleGames(at:)``) every `interval` until the task is cancelled: what `parley serve
    /// --idle-timeout` runs.
    ///
    /// - Parameter interval: How often to look; a quarter of the idle timeout is enough.
    public func endIdleGames(every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { return }
            await endIdleGames()
        }
    }
}
