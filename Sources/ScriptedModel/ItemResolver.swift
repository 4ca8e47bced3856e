import GameWorld

/// Finds the items a line is about, against the world's catalog: by id, name or alias first, then by the head word
/// of a name (`sword` for Rusty Sword, `oil` and `flask` for Flask of Lamp Oil), then by a word only one item's
/// name has (`silver`).
///
/// The best match wins: the highest kind of match, then the earliest in the line. Several items may share it
/// (`sword` names three); the caller narrows them by what the NPC sells or the player carries.
struct ItemResolver: Sendable {
    /// One way of naming an item.
    private struct Name: Sendable {
        let item: ItemID
        let words: Words
        /// 3 for an id, name or alias; 2 for a head word; 1 for another distinctive word.
        let strength: Int
    }

    /// The items a line names at one place in it.
    struct Mention: Sendable, Equatable {
        /// The items, sorted by id; more than one when the words fit several.
        let items: [ItemID]
        /// The words of the mention in the line.
        let range: Range<Int>
        /// How strong the match is: 3 for an id, name or alias, 2 for a head word, 1 for another word.
        let strength: Int
    }

    private let names: [Name]
    private let world: World

    /// Words that name nothing by themselves.
    private static let weakWords: Set<String> = [
        "of", "the", "a", "an", "and", "old", "new", "good", "fine", "little", "big", "small", "great", "red", "my",
        "your", "s", "plain", "with",
    ]

    /// A resolver over a world's catalog.
    ///
    /// - Parameter world: The world; names of its NPCs are never taken for items (`Mira` is not Mira's Scales).
    init(world: World) {
        self.world = world
        var names: [Name] = []
        var wordOwners: [String: Set<ItemID>] = [:]
        let npcWords = Set(
            world.npcs.values.flatMap { npc in
                Words(npc.name).tokens + npc.aliases.flatMap { Words($0).tokens } + [npc.id.rawValue]
            })
        for item in world.items.values.sorted(by: { $0.id < $1.id }) {
            let full =
                [Words(item.name), Words(item.id.rawValue.replacingOccurrences(of: "_", with: " "))]
                + item.aliases.map { Words($0) }
            for words in full where !words.isEmpty { names.append(Name(item: item.id, words: words, strength: 3)) }
            var heads: Set<String> = []
            for words in [Words(item.name)] + item.aliases.map({ Words($0) }) {
                if let last = words.tokens.last { heads.insert(last) }
                if let of = words.tokens.firstIndex(of: "of"), of > 0 { heads.insert(words.tokens[of - 1]) }
            }
            for head in heads where !Self.weakWords.contains(head) && !npcWords.contains(head) {
                names.append(Name(item: item.id, words: Words(tokens: [head]), strength: 2))
            }
            for word in Words(item.name).tokens where !Self.weakWords.contains(word) && !npcWords.contains(word) {
                wordOwners[word, default: []].insert(item.id)
            }
        }
        for (word, owners) in wordOwners.sorted(by: { $0.key < $1.key }) where owners.count == 1 {
            let item = owners.first!
            if !names.contains(where: { $0.item == item && $0.words.tokens == [word] }) {
                names.append(Name(item: item, words: Words(tokens: [word]), strength: 1))
            }
        }
        self.names = names
    }

    /// Every mention of an item in a line, best first: strongest, then longest, then earliest.
    ///
    /// - Parameter words: The line.
    /// - Returns: The mentions; overlapping weaker ones are left out.
    func mentions(in words: Words) -> [Mention] {
        var byRange: [Range<Int>: (strength: Int, items: Set<ItemID>)] = [:]
        for name in names {
            var start = 0
            while let index = words.firstIndex(of: name.words, from: start) {
                let range = index..<(index + name.words.count)
                if let existing = byRange[range] {
                    if name.strength > existing.strength {
                        byRange[range] = (name.strength, [name.item])
                    } else if name.strength == existing.strength {
                        byRange[range]?.items.insert(name.item)
                    }
                } else {
                    byRange[range] = (name.strength, [name.item])
                }
                start = index + 1
            }
        }
        let sorted = byRange.map { Mention(items: $0.value.items.sorted(), range: $0.key, strength: $0.value.strength) }
            .sorted {
                ($0.strength, $0.range.count, -$0.range.lowerBound) > (
                    $1.strength, $1.range.count, -$1.range.lowerBound
                )
            }
        var chosen: [Mention] = []
        for mention in sorted where !chosen.contains(where: { $0.range.overlaps(mention.range) }) {
            chosen.append(mention)
        }
        return chosen
    }

    /// The best mention's items, if the line names any.
    func bestItems(in words: Words) -> [ItemID] { mentions(in: words).first?.items ?? [] }

    /// Finds an item from a tool's or rule's text: an id, a name or an alias, ignoring case.
    ///
    /// - Parameter text: For example `lantern`, `Brass Lantern` or `lamp`.
    /// - Returns: The item, when exactly one fits.
    func item(named text: String) -> ItemID? {
        let id = ItemID(text)
        if world.items[id] != nil { return id }
        let matches = world.items.values.filter { $0.isNamed(text) }
        if matches.count == 1 { return matches[0].id }
        let words = Words(text)
        let mentions = self.mentions(in: words)
        if let best = mentions.first, best.items.count == 1, best.range.count == words.count { return best.items[0] }
        return nil
    }

    /// Words a player uses before a noun, to find the name of something the catalog does not know.
    private static let determiners: Set<String> = [
        "the", "a", "an", "your", "some", "any", "this", "that", "my", "those", "these",
    ]
    /// Words that end such a name.
    private static let nameStops: Set<String> = [
        "for", "at", "to", "with", "please", "and", "or", "it", "is", "are", "of", "from", "in", "on", "you", "me",
        "gold", "coins", "then", "now", "today", "here", "there", "one", "ones", "thing", "things", "stuff", "do",
        "would", "will", "can", "could", "have", "has", "sell", "buy", "cost", "costs", "worth", "price",
    ]

    /// The words after a determiner when no catalog item is named: `the unicorn horn` in "how much is the unicorn
    /// horn?", so the NPC can say it has none.
    ///
    /// - Parameter words: The line.
    /// - Returns: Up to two words, or `nil`.
    static func unknownThing(in words: Words) -> String? {
        let tokens = words.tokens
        for (index, token) in tokens.enumerated() where determiners.contains(token) {
            var name: [String] = []
            var next = index + 1
            while next < tokens.count, name.count < 2, !nameStops.contains(tokens[next]),
                !determiners.contains(tokens[next]), !tokens[next].allSatisfy(\.isNumber)
            {
                name.append(tokens[next])
                next += 1
            }
            if !name.isEmpty { return name.joined(separator: " ") }
        }
        return nil
    }
}
