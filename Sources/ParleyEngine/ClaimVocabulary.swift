import GameWorld

/// The words the claim check knows a world by: the phrases that name an item or a category of items, built once
/// per world so that reading a line costs in proportion to the line, not to the catalog.
///
/// An item is named by its name or one of its aliases (case and a plural or possessive ending on the last word
/// ignored: `tallow candles`, `loaves`, `lantern's`), or by the last word of its name when no other item's name ends
/// with that word (`lantern` for the Brass Lantern; not `sword`, which three items end with). A category is named by
/// its own word, its plural, and the pack's lexicon's words for it (`blades` for `weapon`, `clothes` for `clothing`). The
/// NPCs are known by the words of their names and their aliases, so that a sentence about another NPC is told apart.
struct ClaimVocabulary: Sendable {
    /// What a phrase names.
    enum Named: Sendable, Hashable {
        /// An item.
        case item(ItemID)
        /// A category of items (`weapon`).
        case category(String)
    }

    /// What each phrase (words joined by one space) names; a phrase two items share names neither.
    private let phrases: [String: Named]
    /// The most words a phrase has.
    let longestPhrase: Int
    /// The NPCs each word names: the words of their names (possessive `'s` left out) and their aliases.
    private let npcsByWord: [String: Set<NPCID>]

    /// Indexes a world's catalog.
    ///
    /// - Parameter world: The world.
    init(world: World) {
        var phrases: [String: Named] = [:]
        var ambiguous: Set<String> = []
        var longest = 1
        func add(_ words: [String], _ named: Named, weak: Bool = false) {
            guard !words.isEmpty else { return }
            let key = words.joined(separator: " ")
            if ambiguous.contains(key) { return }
            if let existing = phrases[key] {
                if existing != named {
                    if weak { return }
                    phrases[key] = nil
                    ambiguous.insert(key)
                }
                return
            }
            phrases[key] = named
            longest = max(longest, words.count)
        }
        // Names and aliases first; then the last words of names, which only name an item no other name ends with.
        var lastWords: [String: Set<ItemID>] = [:]
        for item in world.items.values.sorted(by: { $0.id < $1.id }) {
            for name in [item.name] + item.aliases {
                let words = ItemNames.words(in: name)
                add(words, .item(item.id))
            }
            if let last = ItemNames.words(in: item.name).last { lastWords[last, default: []].insert(item.id) }
        }
        var strong = phrases
        for (word, items) in lastWords.sorted(by: { $0.key < $1.key }) where items.count == 1 && strong[word] == nil {
            if !ambiguous.contains(word) { strong[word] = .item(items.first!) }
        }
        phrases = strong
        let categories = Set(world.items.values.map(\.category))
        for category in categories.sorted() {
            var words = [category, category + "s"]
            words += world.lexicon.categories[category] ?? []
            for phrase in words {
                let split = ItemNames.words(in: phrase)
                if phrases[split.joined(separator: " ")] == nil { add(split, .category(category), weak: true) }
            }
        }
        self.phrases = phrases
        longestPhrase = longest
        var npcsByWord: [String: Set<NPCID>] = [:]
        for npc in world.npcs.values {
            for word in ItemNames.words(in: ([npc.name] + npc.aliases).joined(separator: " ")) where word.count > 2 {
                npcsByWord[word, default: []].insert(npc.id)
            }
        }
        self.npcsByWord = npcsByWord
    }

    /// Whether some words name an NPC other than `npc` (`mira`, `brannoc's`, `smith`).
    ///
    /// - Parameters:
    ///   - words: A sentence's words.
    ///   - npc: The NPC speaking.
    /// - Returns: `true` when one of them names another NPC.
    func namesAnotherNPC(_ words: [String], than npc: NPCID) -> Bool {
        words.contains { word in
            let stem = word.hasSuffix("'s") ? String(word.dropLast(2)) : word
            guard let npcs = npcsByWord[stem] else { return false }
            return npcs.contains { $0 != npc }
        }
    }

    /// The longest phrase starting at `index` that names something, and how many words it has.
    ///
    /// - Parameters:
    ///   - words: A sentence's words.
    ///   - index: Where the phrase would start.
    /// - Returns: What it names and its length in words, or `nil` when no phrase starts there.
    func longestName(in words: [String], at index: Int) -> (named: Named, length: Int)? {
        var length = min(longestPhrase, words.count - index)
        while length > 0 {
            if let named = named(words[index..<(index + length)]) { return (named, length) }
            length -= 1
        }
        return nil
    }

    /// What some words name, trying the last word as written, then without a possessive `'s` or a plural
    /// `s`/`es`.
    ///
    /// - Parameter words: Words of a sentence, in a row.
    /// - Returns: What they name, if anything.
    func named(_ words: ArraySlice<String>) -> Named? {
        guard let last = words.last, !last.isEmpty, !words.contains("") else { return nil }
        let head = words.dropLast().joined(separator: " ")
        func key(_ word: String) -> String { head.isEmpty ? word : head + " " + word }
        if let found = phrases[key(last)] { return found }
        var variants: [String] = []
        if last.hasSuffix("'s") { variants.append(String(last.dropLast(2))) }
        if last.hasSuffix("s'") { variants.append(String(last.dropLast(1))) }
        if last.hasSuffix("es") { variants.append(String(last.dropLast(2))) }
        if last.hasSuffix("s") { variants.append(String(last.dropLast())) }
        if last.hasSuffix("ves") { variants += [String(last.dropLast(3)) + "f", String(last.dropLast(3)) + "fe"] }
        for variant in variants where !variant.isEmpty {
            if let found = phrases[key(variant)] { return found }
        }
        return nil
    }
}
