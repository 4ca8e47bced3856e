import Synchronization

/// Holds the game's action handler, which tools read when an NPC takes an action. A class behind a `Mutex`, so the
/// handler can be set at any time, from any task, and read by the tools while a turn runs.
package final class GameActionHandling: Sendable {
    private let stored = Mutex<GameActionHandler?>(nil)

    /// A box with no handler.
    package init() {}

    /// The handler, or `nil` when the game set none.
    package var handler: GameActionHandler? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
