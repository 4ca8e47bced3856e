import ParleyEngine
import SaveGames

// What a front end that is not the command line needs of a host: `parley serve`'s game API.

extension GameHost {
    /// The feedback reports this game filed, oldest first: those its autosave holds, then those not saved yet (a
    /// save that failed), each the documented JSON (docs/feedback-format.md). The HTTP API's
    /// `GET /v1/games/{id}/feedback` serves them.
    ///
    /// - Returns: The reports.
    /// - Throws: ``SaveGameError`` when the autosave cannot be read.
    public func feedbackReports() throws -> [SavedAttachment] {
        (try autosave?.feedback() ?? []) + unsaved.feedback
    }

    /// Loads a saved game, as the in-game `load <slot>` does, and says whether it did: a save that does not load
    /// changes nothing (the reason is shown as a `problem`).
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - output: Receives what the game shows.
    /// - Returns: Whether the game was loaded.
    public func loadGame(slot: String, output: @Sendable (GameOutput) -> Void) async -> Bool {
        await load(slot: slot, output: output)
    }
}
