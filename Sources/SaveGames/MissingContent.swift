/// Something a save refers to that the content pack no longer has: an NPC, an item, a location, a quest, a quest's
/// stage or an NPC's beat.
///
/// Loading skips it and reports it; the rest of the save loads.
public struct MissingContent: Sendable, Hashable, CustomStringConvertible {
    /// What kind of content is missing.
    public enum Kind: String, Sendable, Hashable {
        /// An NPC.
        case npc
        /// An item.
        case item
        /// A location.
        case location
        /// A quest of `world.json`.
        case quest
        /// A stage of a quest.
        case stage
        /// A beat of an NPC.
        case beat
    }

    /// What kind of content is missing.
    public var kind: Kind
    /// Its id, as the save has it.
    public var id: String
    /// What the save had there, for example `2 in the player's inventory` or `a conversation of 14 entries`.
    public var context: String

    /// Creates a report line.
    ///
    /// - Parameters:
    ///   - kind: What kind of content is missing.
    ///   - id: Its id.
    ///   - context: What the save had there.
    public init(kind: Kind, id: String, context: String) {
        self.kind = kind
        self.id = id
        self.context = context
    }

    /// For example: `item "lantern" (2 in the player's inventory) is not in the content pack and was left out`.
    public var description: String {
        "\(kind.rawValue) \"\(id)\" (\(context)) is not in the content pack and was left out"
    }
}
