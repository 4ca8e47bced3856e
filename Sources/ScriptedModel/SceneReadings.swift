import Synchronization

/// The scenes a scripted model read for its latest requests, by the player's line and the conversation before it:
/// the rounds of one turn (a look-up, then an offer, then the reply) send the same line after the same history, and
/// reading a line is most of a request's work.
///
/// A remembered scene is reused only for a request whose line and history (`ConversationHistory`, compared whole)
/// equal those it was read for, so the reuse gives the scene a new reading would.
final class SceneReadings: Sendable {
    /// The latest scenes, newest last.
    private let scenes = Mutex<[(line: String, history: ConversationHistory, scene: Scene)]>([])
    /// How many scenes are kept: a few conversations at once.
    static let limit = 8

    /// Nothing remembered yet.
    init() {}

    /// The scene read for this line after this history, if remembered.
    func scene(for line: String, after history: ConversationHistory) -> Scene? {
        scenes.withLock { scenes in
            scenes.last { $0.line == line && $0.history == history }?.scene
        }
    }

    /// Remembers a scene, forgetting the oldest beyond `limit`.
    func remember(_ scene: Scene, for line: String, after history: ConversationHistory) {
        scenes.withLock { scenes in
            scenes.append((line, history, scene))
            if scenes.count > Self.limit { scenes.removeFirst(scenes.count - Self.limit) }
        }
    }
}
