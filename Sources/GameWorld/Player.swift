/// The player: name, whereabouts, gold and what they carry.
public struct Player: Hashable, Sendable, Codable {
    /// The player's name.
    public var name: String
    /// Where the player is.
    public var location: LocationID
    /// The player's gold.
    public var gold: Int
    /// What the player carries.
    public var inventory: Inventory

    /// Creates a player.
    ///
    /// - Parameters:
    ///   - name: The player's name.
    ///   - location: Where they start.
    ///   - gold: Their gold, at least 0.
    ///   - inventory: What they carry.
    public init(name: String, location: LocationID, gold: Int = 0, inventory: Inventory = Inventory()) {
        self.name = name
        self.location = location
        self.gold = gold
        self.inventory = inventory
    }
}
