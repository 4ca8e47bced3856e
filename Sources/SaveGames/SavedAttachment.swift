import Foundation
import GameWorld

/// A feedback attachment or a recording kept in a save: an id, the NPC it concerns, when it was made, and its JSON.
///
/// The save stores the JSON text as it is given; its format is the business of whoever writes it (see
/// `docs/feedback-format.md` for feedback attachments).
public struct SavedAttachment: Sendable, Hashable {
    /// The attachment's id, unique within its table.
    public var id: String
    /// The NPC it concerns, if any.
    public var npc: NPCID?
    /// When it was made.
    public var createdAt: Date
    /// Its JSON text.
    public var json: String

    /// Creates an attachment.
    ///
    /// - Parameters:
    ///   - id: The id, unique within its table.
    ///   - npc: The NPC it concerns, if any.
    ///   - createdAt: When it was made.
    ///   - json: Its JSON text.
    public init(id: String, npc: NPCID?, createdAt: Date, json: String) {
        self.id = id
        self.npc = npc
        self.createdAt = createdAt
        self.json = json
    }
}
