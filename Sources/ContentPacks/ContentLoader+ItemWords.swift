import GameWorld

// MARK: - Words that name several items

extension ContentLoader {
    /// One way a word or phrase names an item: as one of its names or aliases, or as the last word of one (its head
    /// word: `sword` for Rusty Sword, `flask` or `oil` for Flask of Lamp Oil).
    private struct ItemWordUse {
        let item: ItemID
        let isWholeName: Bool
        let path: JSONPath
    }

    /// Warns when words name several items and at least one of them by a name or an alias, saying what will happen:
    /// a name or alias that several items share, or that is the head word of another item's name ("lamp", an alias
    /// of a Brass Lantern, and Oil Lamp). The scripted model lets the NPC's stock decide among them alike (for
    /// selling and gifts, what the player carries); an NPC that sells two or more asks which, and one that sells none
    /// takes the item the words name wholly, if one, or says it has none. A head word several items share and none
    /// has as a name ("sword" for Short Sword and Silver Sword) is the catalog working as documented, and is not
    /// warned about.
    ///
    /// - Parameter lexicon: The pack's lexicon: its `weak` words are never head words.
    mutating func checkItemWords(lexicon: Lexicon) {
        let weak = Set(lexicon.words(.weak).map { $0.lowercased() })
        let npcWords = Set(npcs.flatMap { npc in ([npc.name] + npc.aliases).flatMap(Self.nameWords) })
        var uses: [String: [ItemWordUse]] = [:]
        for item in items {
            let path = itemPaths[item.id] ?? .root
            let names =
                [(item.name, path.key("name"))]
                + item.aliases.enumerated().map { ($0.element, path.key("aliases").index($0.offset)) }
            for (name, namePath) in names {
                let words = Self.nameWords(name)
                guard let last = words.last else { continue }
                uses[words.joined(separator: " "), default: []].append(
                    ItemWordUse(item: item.id, isWholeName: true, path: namePath))
                var heads = [last]
                if let of = words.firstIndex(of: "of"), of > 0 { heads.append(words[of - 1]) }
                for head in heads where words.count > 1 && !weak.contains(head) && !npcWords.contains(head) {
                    uses[head, default: []].append(ItemWordUse(item: item.id, isWholeName: false, path: namePath))
                }
            }
        }
        for words in uses.keys.sorted() {
            let found = uses[words] ?? []
            var named: [ItemID] = []
            for use in found where !named.contains(use.item) { named.append(use.item) }
            guard named.count > 1 else { continue }
            let whole = named.filter { item in found.contains { $0.item == item && $0.isWholeName } }
            guard !whole.isEmpty else { continue }
            func name(_ item: ItemID) -> String { itemsByID[item]?.name ?? item.rawValue }
            let heads = named.filter { !whole.contains($0) }
            var names = "\"\(words)\" is a name or alias of " + Self.list(whole.map(name))
            if !heads.isEmpty { names += " and the last word of " + Self.list(heads.map(name)) }
            var happens =
                "an NPC that sells one of them means that one (for selling and gifts, the one the player carries)"
            let askers = npcs.filter { npc in named.filter { sells($0, npc: npc) }.count > 1 }
            if !askers.isEmpty {
                let asking = askers.map { npc in
                    "\(npc.id) sells " + Self.list(named.filter { sells($0, npc: npc) }.map(name))
                }
                happens += "; " + Self.list(asking) + " and asks which one the player means"
            }
            happens +=
                whole.count == 1
                ? "; an NPC that sells none of them means \(name(whole[0]))"
                : "; an NPC that sells none of them says it has none"
            let place = found.first { $0.isWholeName } ?? found[0]
            warning(
                place.path, "\(names): \(happens)",
                hint: "give the items names or aliases of their own if players should not have to choose")
        }
    }

    /// Whether an NPC sells an item: it trades, has the item, sells its category and may part with it.
    private func sells(_ item: ItemID, npc: NPC) -> Bool {
        guard let known = itemsByID[item], npc.trade.trades else { return false }
        return npc.inventory.contains(item) && npc.trade.sells.contains(known.category)
            && !npc.trade.neverSells.contains(item) && known.isTradeable
    }

    /// A name's lowercased words: letters and digits, a possessive `'s` left out (`Grandfather's Forge Hammer` is
    /// `grandfather forge hammer`).
    static func nameWords(_ name: String) -> [String] {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter { $0 != "s" }
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ parts: [String]) -> String {
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
