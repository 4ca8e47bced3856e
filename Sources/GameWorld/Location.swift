/// A place in the world: what it looks like, where its exits lead and what lies there.
public struct Location: Hashable, Sendable, Codable, Identifiable {
    /// The location's id, for example `market_square`.
    public var id: LocationID
    /// The name shown to the player, for example `Market Square`.
    public var name: String
    /// What the player sees on arriving or looking around.
    public var description: String
    /// The ways out, in the order the pack lists them.
    public var exits: [Exit]
    /// The items lying here, which the player can take.
    public var items: Inventory

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - id: The location's id.
    ///   - name: The name shown to the player.
    ///   - description: What the player sees.
    ///   - exits: The ways out.
    ///   - items: The items lying here.
    public init(id: LocationID, name: String, description: String, exits: [Exit] = [], items: Inventory = Inventory()) {
        self.id = id
        self.name = name
        self.description = description
        self.exits = exits
        self.items = items
    }

    /// The exit in `direction` (ignoring case), or `nil`.
    ///
    /// - Parameter direction: A direction such as `north`.
    /// - Returns: The exit, if the location has one that way.
    public func exit(toward direction: String) -> Exit? {
        let direction = direction.lowercased()
        return exits.first { $0.direction.lowercased() == direction }
    }

    /// The first exit that leads to `destination`, or `nil`.
    ///
    /// - Parameter destination: The location to reach.
    /// - Returns: The exit, if one leads there directly.
    public func exit(to destination: LocationID) -> Exit? {
        exits.first { $0.destination == destination }
    }
}
