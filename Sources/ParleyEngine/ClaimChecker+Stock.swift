import GameWorld

extension ClaimChecker {
    // MARK: - Phrases

    /// Words between a phrase and the item it is about that change nothing (`I don't have any …`).
    static let fillers: Set<String> = [
        "any", "a", "an", "the", "more", "of", "those", "these", "some", "such", "single",
    ]
    /// Words a clause may start with before a phrase that must start it (`But don't have any …`).
    static let openers: Set<String> = ["but", "and", "so", "sorry", "alas", "oh", "well", "ah", "just", "nah"]

    /// The NPC says it does not have or sell what follows.
    static let lacksBefore: [[String]] = [
        ["i", "don't", "have"], ["i", "do", "not", "have"], ["i", "have", "no"], ["i've", "no"], ["i've", "got", "no"],
        ["i", "haven't", "got"], ["i", "haven't"], ["i", "ain't", "got"], ["i", "got", "no"], ["i", "don't", "sell"],
        ["i", "do", "not", "sell"], ["i", "don't", "stock"], ["i", "don't", "carry"], ["i'm", "out", "of"],
        ["we're", "out", "of"], ["i", "sell", "no"], ["i", "have", "none", "of"], ["i've", "none", "of"],
    ]
    /// The same, only at the start of a clause (no one else can be its subject).
    static let lacksAtStart: [[String]] = [
        ["don't", "have"], ["haven't", "got"], ["got", "no"], ["ain't", "got"], ["out", "of"], ["sold", "out", "of"],
    ]
    /// After the item, in its clause: the NPC does not have or sell it (`… I haven't got`, `… is not for sale`).
    static let lacksAfter: [[String]] = [
        ["i", "haven't", "got"], ["i", "don't", "have"], ["i", "ain't", "got"], ["i", "do", "not", "possess"],
        ["i", "don't", "stock"], ["is", "not", "for", "sale"], ["isn't", "for", "sale"], ["not", "for", "sale"],
        ["are", "not", "for", "sale"], ["aren't", "for", "sale"], ["is", "not", "on", "my"], ["isn't", "on", "my"],
        ["not", "on", "my"], ["is", "sold", "out"], ["are", "sold", "out"], ["sold", "out"],
    ]
    /// How a sentence answering a question that only names an item says there is none (`Weapons? Not on my rack.`).
    static let lacksInAnswer: [[String]] = [
        ["not", "on"], ["not", "here"], ["not", "at"], ["not", "in", "stock"], ["not", "for", "sale"], ["none"],
        ["sold", "out"], ["nah"], ["alas", "no"], ["fresh", "out"], ["all", "gone"], ["out", "of", "stock"],
    ]
    /// What follows `no …` when it means the NPC has none: `No bread here`, `No dagger to sell you`.
    static let noneWhere: Set<String> = ["here", "to", "on", "at", "in", "for", "left", "today"]
    /// The NPC says it has, or sells, what follows.
    static let hasBefore: [[String]] = [
        ["i", "have"], ["i've", "got"], ["i", "got"], ["i", "stock"], ["i", "can", "sell", "you"],
    ]
    /// The NPC says it sells what follows.
    static let sellsBefore: [[String]] = [["i", "sell"]]
    /// Words between "I have" and what it has.
    static let determiners: Set<String> = ["a", "an", "some", "plenty", "of", "the"]
    /// The player has none of what follows.
    static let playerLacksBefore: [[String]] = [
        ["you've", "no"], ["you", "have", "no"], ["you", "don't", "have"], ["you", "do", "not", "have"],
        ["you", "haven't", "got"], ["you", "haven't"], ["you", "ain't", "got"], ["you've", "got", "no"],
        ["you", "got", "no"],
    ]
    /// The player has what follows.
    static let playerHasBefore: [[String]] = [["you", "have"], ["you've", "got"], ["you", "got"], ["you've"]]

    /// The words of a clause before a mention, fillers at the end left out.
    static func lead(_ words: [String]) -> [String] {
        var words = words
        while let last = words.last, fillers.contains(last) { words.removeLast() }
        return words
    }

    /// Whether `words` are exactly a phrase of `phrases`, after openers (`But don't have any`).
    static func startsClause(_ words: [String], with phrases: [[String]]) -> Bool {
        var words = words[...]
        while let first = words.first, openers.contains(first) { words.removeFirst() }
        return phrases.contains { Array(words) == $0 }
    }

    // MARK: - Stock and quantity

    func checkStock(_ reading: ClaimReading, previous: ClaimReading?, in context: inout Context) {
        let text = reading.sentence.text
        for (position, mention) in reading.mentions.enumerated() {
            let before = reading.clauseWords(before: mention.range.lowerBound)
            let lead = Self.lead(before)
            let after = reading.clauseWords(after: mention.range.upperBound)
            // Says it has none, or does not sell it.
            let lacks =
                Self.lacksBefore.contains(where: lead.endsWithWords) || Self.startsClause(lead, with: Self.lacksAtStart)
                || (Self.startsClause(lead, with: [["no"]]) && after.first.map(Self.noneWhere.contains) == true)
                || Self.lacksAfter.contains(where: after.startsWithWords)
            if lacks, !Self.playerLacksBefore.contains(where: lead.endsWithWords) {
                checkLacks(mention.named, text, in: &context)
                continue
            }
            // Says it has, or sells, it (and maybe how many), with the items listed after it.
            let hasPhrase = Self.hasBefore.contains {
                Self.ends(before, with: $0, then: Self.determiners, numbers: reading.numbers)
            }
            let sellsPhrase = Self.sellsBefore.contains {
                Self.ends(before, with: $0, then: Self.determiners, numbers: reading.numbers)
            }
            let gotAtStart = Self.startsClause(before, with: [["got"]])
            if hasPhrase || gotAtStart || sellsPhrase {
                for listed in [mention] + Self.listed(after: position, in: reading) {
                    if sellsPhrase {
                        checkSells(listed.named, text, in: &context)
                    } else {
                        checkHas(listed, text, in: &context)
                    }
                }
            }
        }
        if let previous, let echoed = Self.echoedItem(previous),
            Self.lacksInAnswer.contains(where: reading.plainWords.startsWithWords), reading.mentions.isEmpty
        {
            checkLacks(echoed.named, previous.sentence.text + " " + text, in: &context)
        }
        checkCounts(reading, previous: previous, in: &context)
    }

    /// Whether `words` end with `phrase` followed only by words of `then` and numbers (`I have a`, `I have 3`).
    static func ends(_ words: [String], with phrase: [String], then: Set<String>, numbers: Lexicon.Numbers) -> Bool {
        guard let end = phraseEnd(phrase, in: words) else { return false }
        return words[end...].allSatisfy { then.contains($0) || isNumberWord($0, numbers: numbers) }
    }

    /// Whether a word is a number or part of one in the speaker's lexicon (`3`, `twenty`, `hundred`, `and`).
    static func isNumberWord(_ word: String, numbers: Lexicon.Numbers) -> Bool {
        numbers.joiners.contains(word) || numbers.isNumberWord(word)
    }

    /// Where a phrase ends in `words` when they contain it, the last time.
    static func phraseEnd(_ phrase: [String], in words: [String]) -> Int? {
        guard phrase.count <= words.count else { return nil }
        for start in stride(from: words.count - phrase.count, through: 0, by: -1)
        where words[start..<(start + phrase.count)].elementsEqual(phrase) {
            return start + phrase.count
        }
        return nil
    }

    /// The mentions listed after one: joined only by commas, brackets, `and`, prices and counts (`A (1 gold),
    /// B (2 gold, 3 in stock) and C`).
    static func listed(after position: Int, in reading: ClaimReading) -> [ClaimReading.Mention] {
        let joiners: Set<String> = ["", "and", "or", "gold", "in", "stock", "apiece", "each", "a", "an"]
        var listed: [ClaimReading.Mention] = []
        var end = reading.mentions[position].range.upperBound
        for mention in reading.mentions[(position + 1)...] {
            let between = reading.words[end..<mention.range.lowerBound]
            let joined = between.allSatisfy { word in
                joiners.contains(word) || word.allSatisfy(\.isNumber)
            }
            let marks = reading.sentence.tokens[end..<mention.range.lowerBound].compactMap(\.mark)
            guard joined, marks.allSatisfy({ ",()×".contains($0) }) else { break }
            listed.append(mention)
            end = mention.range.upperBound
        }
        return listed
    }

    /// What the NPC has of an item or category and sells, in stock.
    static func forSale(_ named: ClaimVocabulary.Named, by npc: NPC, in world: World) -> [Item] {
        let policy = npc.trade
        return npc.inventory.stacks.compactMap { world.items[$0.item] }.filter { item in
            let matches: Bool =
                switch named {
                case .item(let id): item.id == id
                case .category(let category): item.category == category
                }
            return matches && policy.trades && item.isTradeable && policy.sells.contains(item.category)
                && !policy.neverSells.contains(item.id)
        }
    }

    /// "I don't have / sell X": false when the NPC has X in stock and sells it.
    private func checkLacks(_ named: ClaimVocabulary.Named, _ text: String, in context: inout Context) {
        let world = context.state.world
        let npc = context.npc
        let items = Self.forSale(named, by: npc, in: world)
        guard !items.isEmpty else { return }
        switch named {
        case .item(let id):
            let price = npc.trade.askingPrice(forValue: items[0].value)
            context.add(
                .stock, text,
                "\(npc.name) has \(npc.inventory.quantity(of: id)) × \(world.name(of: id)) "
                    + "and sells it at \(price) gold"
            )
        case .category(let category):
            context.add(
                .stock, text,
                "\(npc.name) has and sells \(category): \(items.map(\.name).joined(separator: ", "))")
        }
    }

    /// "I sell X": false when the NPC's trade never sells X.
    private func checkSells(_ named: ClaimVocabulary.Named, _ text: String, in context: inout Context) {
        let npc = context.npc
        let policy = npc.trade
        switch named {
        case .item(let id):
            guard let item = context.state.world.items[id] else { return }
            let sells =
                policy.trades && item.isTradeable && policy.sells.contains(item.category)
                && !policy.neverSells.contains(id)
            if !sells { context.add(.stock, text, "\(npc.name) does not sell the \(item.name)") }
        case .category(let category):
            if !policy.trades || !policy.sells.contains(category) {
                context.add(.stock, text, "\(npc.name) does not sell \(category)")
            }
        }
    }

    /// "I have (N) X": false when the NPC has none (or another number).
    private func checkHas(_ mention: ClaimReading.Mention, _ text: String, in context: inout Context) {
        let npc = context.npc
        let world = context.state.world
        switch mention.named {
        case .item(let id):
            let held = npc.inventory.quantity(of: id)
            if held == 0, (context.facts.quantities[id] ?? 0) == 0 {
                context.add(.stock, text, "\(npc.name) has no \(world.name(of: id))")
            } else if let stated = mention.quantity {
                checkCount(stated, of: id, text, in: &context)
            }
        case .category(let category):
            let held = npc.inventory.stacks.contains { world.items[$0.item]?.category == category }
            if !held { context.add(.stock, text, "\(npc.name) has no \(category)") }
        }
    }

    /// A stated count of an item the NPC has: false unless it is how many the NPC has.
    private func checkCount(_ stated: Int, of item: ItemID, _ text: String, in context: inout Context) {
        let held = context.npc.inventory.quantity(of: item)
        guard stated != held, context.facts.quantities[item] != stated else { return }
        context.add(.quantity, text, "\(context.npc.name) has \(held) × \(context.state.world.name(of: item))")
    }

    /// `N in stock`, `N left`, `only N X`: counts of the NPC's items.
    private func checkCounts(_ reading: ClaimReading, previous: ClaimReading?, in context: inout Context) {
        let words = reading.words
        let text = reading.sentence.text
        if reading.contains(["you"]) || reading.contains(["you've"]) { return }
        var index = 0
        while index < words.count {
            guard let (value, end) = reading.numbers.number(in: words, at: index) else {
                index += 1
                continue
            }
            defer { index = end }
            let following = Array(words[end...].prefix(2))
            let inStock = following == ["in", "stock"]
            let left = following.first == "left"
            let only = index > 0 && words[index - 1] == "only"
            // The item: the one named right before (in a listing), or the one named right after `only N`.
            var item: ItemID?
            if inStock || left {
                item = reading.mentions.last(where: { $0.range.upperBound <= index })?.item
                if item == nil, reading.mentions.isEmpty, let previous { item = Self.echoedItem(previous)?.item }
            } else if only, let mention = reading.mentions.first(where: { $0.range.lowerBound == end }) {
                item = mention.item
            } else if let mention = reading.mentions.first(where: { $0.range.lowerBound == end }), mention.item != nil,
                reading.words[mention.range.upperBound...].first == "left"
            {
                item = mention.item
            }
            if let item { checkCount(value, of: item, text, in: &context) }
        }
    }

    // MARK: - The player's things

    func checkPossession(_ reading: ClaimReading, in context: inout Context) {
        let player = context.state.player
        let world = context.state.world
        let text = reading.sentence.text
        for mention in reading.mentions {
            let before = reading.clauseWords(before: mention.range.lowerBound)
            let lead = Self.lead(before)
            if Self.playerLacksBefore.contains(where: lead.endsWithWords) {
                switch mention.named {
                case .item(let id):
                    let held = player.inventory.quantity(of: id)
                    guard held > 0 else { continue }
                    context.add(.possession, text, "\(player.name) has \(held) × \(world.name(of: id))")
                case .category(let category):
                    let held = player.inventory.stacks.compactMap { world.items[$0.item] }.filter {
                        $0.category == category
                    }
                    if !held.isEmpty {
                        context.add(
                            .possession, text, "\(player.name) has \(held.map(\.name).joined(separator: ", "))")
                    }
                }
                continue
            }
            guard case .item(let id) = mention.named,
                Self.playerHasBefore.contains(where: {
                    Self.ends(before, with: $0, then: ["a", "an", "only", "just"], numbers: reading.numbers)
                })
            else { continue }
            let held = player.inventory.quantity(of: id)
            if let stated = mention.quantity, stated != held {
                context.add(.possession, text, "\(player.name) has \(held) × \(world.name(of: id))")
            } else if mention.quantity == nil, held == 0 {
                context.add(.possession, text, "\(player.name) has no \(world.name(of: id))")
            }
        }
        // "You have 14 gold", "you've only 3 gold".
        for amount in reading.amounts {
            let before = reading.clauseWords(before: amount.range.lowerBound)
            var lead = before
            while let last = lead.last, ["only", "just", "but"].contains(last) { lead.removeLast() }
            guard Self.playerHasBefore.contains(where: lead.endsWithWords), amount.value != player.gold else {
                continue
            }
            context.add(.possession, text, "\(player.name) has \(player.gold) gold")
        }
    }
}
