/// A kind of item in the pack's catalog (`items.json`): what it is called, what it is worth, how it trades.
///
/// Items are definitions; who holds how many lives in inventories (`Inventory`).
public struct Item: Hashable, Sendable, Codable, Identifiable {
    /// The item's id, for example `silver_sword`.
    public var id: ItemID
    /// The name shown to the player, for example `Silver Sword`.
    public var name: String
    /// Other words the player may use for it (`sword`, `blade`).
    public var aliases: [String]
    /// What the player sees when examining it.
    public var description: String
    /// Its base value in whole gold; prices are computed from it (see `TradePolicy`).
    public var value: Int
    /// Its category (`weapon`, `tool`, `food`...): NPCs buy and sell by category.
    public var category: String
    /// Tags the rules act on (`quest`, `untradeable`) and any of the pack's own.
    public var tags: Set<ItemTag>

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - id: The item's id.
    ///   - name: The name shown to the player.
    ///   - aliases: Other words the player may use for it.
    ///   - description: What the player sees when examining it.
    ///   - value: Base value in gold, at least 0.
    ///   - category: The category NPCs buy and sell by.
    ///   - tags: Tags such as `.quest` or `.untradeable`.
    public init(
        id: ItemID, name: String, aliases: [String] = [], description: String = "", value: Int,
        category: String, tags: Set<ItemTag> = []
    ) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.description = description
        self.value = value
        self.category = category
        self.tags = tags
    }

    /// Whether the item is a quest item (tagged `quest`).
    public var isQuestItem: Bool { tags.contains(.quest) }

    /// Whether the item may be bought and sold: it is tagged neither `quest` nor `untradeable`.
    public var isTradeable: Bool { !tags.contains(.quest) && !tags.contains(.untradeable) }

    /// Whether `word` names this item: its id, its name or one of its aliases, ignoring case.
    ///
    /// - Parameter word: What the player typed, for example `sword`.
    /// - Returns: `true` when it matches.
    public func isNamed(_ word: String) -> Bool {
        let word = word.lowercased()
        return word == id.rawValue || word == name.lowercased() || aliases.contains { $0.lowercased() == word }
    }
}
