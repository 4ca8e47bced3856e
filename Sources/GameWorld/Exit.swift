/// A way out of a location: a direction the player can go and where it leads.
public struct Exit: Hashable, Sendable, Codable {
    /// The direction as the player types it (`north`, `in`, `upstairs`).
    public var direction: String
    /// Where it leads.
    public var destination: LocationID
    /// An item the player must carry to pass (a lantern for a dark cellar), or `nil`.
    public var requiredItem: ItemID?
    /// What the player is told when they lack `requiredItem`, or `nil` for a generic sentence.
    public var lockedMessage: String?

    /// Creates an exit.
    ///
    /// - Parameters:
    ///   - direction: The direction as the player types it.
    ///   - destination: Where it leads.
    ///   - requiredItem: An item the player must carry to pass.
    ///   - lockedMessage: What the player is told when they lack it.
    public init(direction: String, destination: LocationID, requiredItem: ItemID? = nil, lockedMessage: String? = nil) {
        self.direction = direction
        self.destination = destination
        self.requiredItem = requiredItem
        self.lockedMessage = lockedMessage
    }
}
