/// The item a dialogue rule asks about (`when.item`): a particular item, or any item at all.
public enum DialogueItemCondition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The line, event or offer must be about some item (written `"*"`).
    case any
    /// The line, event or offer must be about this item.
    case item(ItemID)

    /// `*` or the item's id, as written in content files.
    public var description: String {
        switch self {
        case .any: "*"
        case .item(let id): id.rawValue
        }
    }

    /// Whether an item the line is about satisfies the condition.
    ///
    /// - Parameter item: The item the line, event or offer is about, if any.
    /// - Returns: `true` for `.any` and any item, or for `.item` and that item.
    public func matches(_ item: ItemID?) -> Bool {
        switch self {
        case .any: item != nil
        case .item(let id): item == id
        }
    }
}
