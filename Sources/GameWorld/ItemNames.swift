/// An index of what the items of a catalog are called, so that finding an item by a name, or the items a
/// sentence names, costs in proportion to the text, not to the catalog.
///
/// Built in one pass over the catalog; `World.itemNames` builds it once per world and keeps it with the world
/// (the catalog does not change during a game).
///
/// ```swift
/// world.itemNames.items(named: "Brass Lantern")                  // ["lantern"]
/// world.itemNames.items(mentionedIn: "The lamp costs 25 gold.")  // ["lantern"], by its alias "lamp"
/// ```
public struct ItemNames: Sendable {
    /// The item each lowercased id, name or alias names, when only one does.
    private let itemByWholeName: [String: ItemID]
    /// The items of the lowercased ids, names and aliases that name more than one item, sorted by id.
    private let sharedWholeNames: [String: [ItemID]]
    /// The words of every name and alias (`words(in:)`), one after the other.
    private let tokens: [String]
    /// Each name or alias: its item and where its words are in `tokens`.
    private let names: [(item: ItemID, start: Int32, count: Int32)]
    /// The first name (a position in `names`) that starts with each word; `nextWithSameFirstWord` chains the
    /// others. Chains rather than an array per word: a catalog of 100,000 items has about as many words.
    private let firstNameStarting: [String: Int32]
    /// For each name, the next one that starts with the same word, or -1.
    private let nextWithSameFirstWord: [Int32]
    /// How many names were indexed: in proportion to the catalog (scale tests read it).
    public let count: Int

    /// Indexes a catalog.
    ///
    /// - Parameter items: The items.
    public init(_ items: some Sequence<Item>) {
        var itemByWholeName: [String: ItemID] = [:]
        var sharedWholeNames: [String: Set<ItemID>] = [:]
        var tokens: [String] = []
        var names: [(item: ItemID, start: Int32, count: Int32)] = []
        var firstNameStarting: [String: Int32] = [:]
        var next: [Int32] = []
        var count = 0
        itemByWholeName.reserveCapacity(items.underestimatedCount * 3)
        firstNameStarting.reserveCapacity(items.underestimatedCount)
        func nameWholly(_ text: String, _ item: ItemID) {
            count += 1
            // One lookup in the usual case, a name no other item has; the first owner stays.
            if let owner = itemByWholeName.updateValue(item, forKey: text), owner != item {
                itemByWholeName[text] = owner
                sharedWholeNames[text, default: [owner]].insert(item)
            }
        }
        for item in items {
            nameWholly(item.id.rawValue, item.id)
            nameWholly(item.name.lowercased(), item.id)
            for alias in item.aliases { nameWholly(alias.lowercased(), item.id) }
            for name in [item.name] + item.aliases {
                let words = Self.words(in: name)
                guard let first = words.first else { continue }
                next.append(firstNameStarting.updateValue(Int32(names.count), forKey: first) ?? -1)
                names.append((item.id, Int32(tokens.count), Int32(words.count)))
                tokens += words
            }
        }
        self.itemByWholeName = itemByWholeName
        self.sharedWholeNames = sharedWholeNames.mapValues { $0.sorted() }
        self.tokens = tokens
        self.names = names
        self.firstNameStarting = firstNameStarting
        nextWithSameFirstWord = next
        self.count = count
    }

    /// The items `text` names exactly: their id, name or one of their aliases, ignoring case (as
    /// `Item.isNamed(_:)` decides).
    ///
    /// - Parameter text: For example `Brass Lantern`, `lantern` or `lamp`.
    /// - Returns: The items' ids, sorted; empty when none.
    public func items(named text: String) -> [ItemID] {
        let key = text.lowercased()
        if let shared = sharedWholeNames[key] { return shared }
        return itemByWholeName[key].map { [$0] } ?? []
    }

    /// The items a text mentions: all the words of an item's name, or of one of its aliases, appear in a row
    /// (`words(in:)` splits them).
    ///
    /// - Parameter text: For example a sentence an NPC said.
    /// - Returns: The items' ids, sorted, each once.
    public func items(mentionedIn text: some StringProtocol) -> [ItemID] {
        let words = Self.words(in: text)
        var found: Set<ItemID> = []
        for start in words.indices {
            var position = firstNameStarting[words[start]] ?? -1
            while position >= 0 {
                let name = names[Int(position)]
                let first = Int(name.start)
                let count = Int(name.count)
                if count <= words.count - start,
                    words[start..<(start + count)].elementsEqual(tokens[first..<(first + count)])
                {
                    found.insert(name.item)
                }
                position = nextWithSameFirstWord[Int(position)]
            }
        }
        return found.sorted()
    }

    /// A text's words as item names are matched: lowercased, split at anything but letters, digits and
    /// apostrophes (`Flask of Lamp-Oil` is `flask of lamp oil`).
    ///
    /// - Parameter text: The text.
    /// - Returns: The words, in order.
    public static func words(in text: some StringProtocol) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, byte by byte: the same words without the cost of Unicode character properties.
            return text.utf8.split(whereSeparator: { byte in
                !((0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "'"))
            }).map { word in
                String(decoding: word.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
            }
        }
        return text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).map(String.init)
    }
}
