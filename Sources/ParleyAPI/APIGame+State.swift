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
        let (shown, _) = await recording(emit: { _ in }) { output in
            do throws(StatePatchError) {
                changes = try await host.apply(patch, output: output)
            } catch {
                failure = error
            }
            return true
        }
        if let failure { return .failure(.invalidState(failure)) }
        let world = await host.game.state.world
        return .success(APIEvent.events(for: changes, in: world) + shown)
    }
}
