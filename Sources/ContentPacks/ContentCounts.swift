/// How much a content pack holds, as far as the loader could read it.
public struct ContentCounts: Hashable, Sendable, Codable {
    /// Locations defined in `world.json`.
    public var locations: Int
    /// NPCs defined in `npcs/`.
    public var npcs: Int
    /// Items defined in `items.json`.
    public var items: Int

    /// Creates counts.
    ///
    /// - Parameters:
    ///   - locations: Locations defined.
    ///   - npcs: NPCs defined.
    ///   - items: Items defined.
    public init(locations: Int = 0, npcs: Int = 0, items: Int = 0) {
        self.locations = locations
        self.npcs = npcs
        self.items = items
    }
}
