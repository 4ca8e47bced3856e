import GameWorld

/// Finds the items a line is about, against the world's catalog: by id, name or alias first, then by the head word
/// of a name (`sword` for Rusty Sword, `oil` and `flask` for Flask of Lamp Oil), then by a word only one item's
/// name has (`silver`).
///
/// The best match wins: the highest kind of match, then the earliest in the line. Several items may share it
/// (`sword` names three); the caller narrows them by what the NPC sells or the player carries.
///
/// Built once per world (`shared(for:)`) in time proportional to the catalog; a lookup then costs in proportion to
/// the line, not to the catalog: names are indexed by their first word, and whole names (ids, names, aliases) by
/// their text (`World.itemNames`).
struct ItemResolver: Sendable {
    /// One way of naming an item: some words of `tokens`.
    private struct Name: Sendable {
        let item: ItemID
        /// Where its words start in `tokens`.
        let start: Int32
        /// How many words it has, at least 1.
        let count: Int32
        /// 3 for an id, name or alias; 2 for a head word; 1 for another distinctive word.
        let strength: Int8
    }

    /// The items a line names at one place in it.
    struct Mention: Sendable, Equatable {
        /// The items, sorted by id; more than one when the words fit several.
        let items: [ItemID]
        /// The words of the mention in the line.
        let range: Range<Int>
        /// How strong the match is: 3 for an id, name or alias, 2 for a head word, 1 for another word; 0 for words
        /// that describe the item rather than name it (`Scene.mentions(_:describing:)`).
        let strength: Int
        /// Other items the same words name less strongly, as a name, an alias or a head word (strength 2 or more):
        /// "hammer" is a head word of the Claw Hammer even where an item has the alias "hammer". The NPC's stock may
        /// choose among `items` and these alike.
        var alternatives: [ItemID] = []
    }

    /// The words of every name, one after the other.
    private let tokens: [String]
    /// Every way of naming an item, items in id order.
    private let names: [Name]
    /// The first name (a position in `names`) that starts with each word; `nextWithSameFirstWord` chains the
    /// others. Chains rather than an array per word: a catalog of 100,000 items has about as many words.
    private let firstNameStarting: [String: Int32]
    /// For each name, the next one that starts with the same word, or -1.
    private let nextWithSameFirstWord: [Int32]
    /// The catalog's ids, names and aliases (the world's `itemNames`).
    private let wholeNames: ItemNames
    /// The catalog, to tell ids.
    private let items: [ItemID: Item]
    /// The words of the NPCs' names, which never name items.
    private let npcWords: Set<String>
    /// The pack's words, prepared: every model playing in the world reads lines with them.
    let vocabulary: Vocabulary
    /// Mends typos against the world's words.
    let mender: TypoMender
    /// The phrases that name a category of items (its word, its plural, the lexicon's words for it), longest first.
    private let categoryPhrases: [(words: Words, category: String)]
    /// The words a line's description of an item leaves out (`described(in:among:)`): the lexicon's words that
    /// shape a sentence rather than describe a thing (`weak`, `fillers`, `determiners`, `articles`, `pronouns`,
    /// `things`, `subjects`, `nameStops`, `quantityGap`, `speaker`, `listener`, `negations`, `copulas`, `inquiry`,
    /// `gold`, `address`, `please`), number words and every word of the phrase tables of trading (`want`, `buy`,
    /// `sell`, `price`, `stock`, `appraise`, `bid`, `cheaper`, `gift`): "what d'you *want for* those long iron
    /// pincers" describes by `long` and `iron` only.
    private let describingStopWords: Set<String>
    /// The lexicon's `stemEndings`, longest first (`stem(_:)`).
    private let stemEndings: [String]
    /// For each word of one of the lexicon's `alike` groups, the other words of its groups: a description with one
    /// fits a line with another ("meat" and "mutton").
    private let alikeWords: [String: Set<String>]
    /// How many names were indexed, plus the words looked at to find distinctive ones: in proportion to the
    /// catalog (scale tests read it).
    let buildSteps: Int

    /// The resolver over a world's catalog, built once per world and shared by every model playing in it (see
    /// `World.catalogDerived(_:)`); built anew if the NPCs' names changed since.
    ///
    /// - Parameter world: The world.
    /// - Returns: The resolver.
    static func shared(for world: World) -> ItemResolver {
        let shared = world.catalogDerived { ItemResolver(world: $0) }
        return shared.npcWords == npcWords(in: world) ? shared : ItemResolver(world: world)
    }

    /// The words of the names, aliases and ids of a world's NPCs.
    static func npcWords(in world: World) -> Set<String> {
        Set(
            world.npcs.values.flatMap { npc in
                Words(npc.name).tokens + npc.aliases.flatMap { Words($0).tokens } + [npc.id.rawValue]
            })
    }

    /// A resolver over a world's catalog. It keeps no reference to the world, so a world may keep it.
    ///
    /// - Parameter world: The world; names of its NPCs are never taken for items (`Mira` is not Mira's Scales).
    init(world: World) {
        wholeNames = world.itemNames
        items = world.items
        var steps = 0
        var tokens: [String] = []
        var names: [Name] = []
        var firstNameStarting: [String: Int32] = [:]
        var next: [Int32] = []
        tokens.reserveCapacity(world.items.count * 8)
        names.reserveCapacity(world.items.count * 4)
        next.reserveCapacity(world.items.count * 4)
        // Each word of a name, with its one owner, or nil once a second item has it too.
        var wordOwners: [String: Owner] = [:]
        wordOwners.reserveCapacity(world.items.count * 2)
        firstNameStarting.reserveCapacity(world.items.count * 3)
        let npcWords = Self.npcWords(in: world)
        let vocabulary = Vocabulary(world.lexicon)
        // Words that never name an item by themselves: the lexicon's weak words and the NPCs' names.
        let excluded = vocabulary.words(.weak).union(npcWords)
        func add(_ item: ItemID, _ words: [String], strength: Int8) {
            let position = Int32(names.count)
            names.append(Name(item: item, start: Int32(tokens.count), count: Int32(words.count), strength: strength))
            tokens += words
            next.append(firstNameStarting.updateValue(position, forKey: words[0]) ?? -1)
            steps += 1
        }
        func add(_ item: ItemID, word: String, strength: Int8) {
            let position = Int32(names.count)
            names.append(Name(item: item, start: Int32(tokens.count), count: 1, strength: strength))
            tokens.append(word)
            next.append(firstNameStarting.updateValue(position, forKey: word) ?? -1)
            steps += 1
        }
        /// Whether the item already has this one word as a name (its chain is short: names starting with it).
        func hasSingleWordName(_ item: ItemID, _ word: String) -> Bool {
            var position = firstNameStarting[word] ?? -1
            while position >= 0 {
                let name = names[Int(position)]
                if name.item == item && name.count == 1 { return true }
                position = next[Int(position)]
            }
            return false
        }
        // In the catalog's order: the order of names changes no result (mentions are sorted, ties are sets).
        for item in world.items.values {
            // Each name is split once. The id splits at its underscores like at spaces.
            let name = Words.tokenize(item.name)
            let aliases = item.aliases.isEmpty ? [] : item.aliases.map(Words.tokenize)
            let id = Words.tokenize(item.id.rawValue)
            if !name.isEmpty { add(item.id, name, strength: 3) }
            if !id.isEmpty { add(item.id, id, strength: 3) }
            for words in aliases where !words.isEmpty { add(item.id, words, strength: 3) }
            var heads: [String] = []
            func addHeads(of words: [String]) {
                if let last = words.last, !heads.contains(last) { heads.append(last) }
                if let of = words.firstIndex(of: "of"), of > 0, !heads.contains(words[of - 1]) {
                    heads.append(words[of - 1])
                }
            }
            addHeads(of: name)
            for words in aliases { addHeads(of: words) }
            for head in heads where !excluded.contains(head) { add(item.id, word: head, strength: 2) }
            for word in name where !excluded.contains(word) { wordOwners[word, default: .none].claim(by: item.id) }
        }
        for (word, owner) in wordOwners {
            guard case .one(let item) = owner else { continue }
            steps += 1
            if !hasSingleWordName(item, word) { add(item, word: word, strength: 1) }
        }
        self.tokens = tokens
        self.names = names
        self.firstNameStarting = firstNameStarting
        nextWithSameFirstWord = next
        self.npcWords = npcWords
        self.vocabulary = vocabulary
        mender = TypoMender(world: world, vocabulary: vocabulary)
        let shaping: [Lexicon.WordSet] = [
            .weak, .fillers, .determiners, .articles, .pronouns, .things, .subjects, .nameStops, .quantityGap, .speaker,
            .listener, .negations, .copulas, .inquiry, .gold, .address, .please,
        ]
        let trading: [Lexicon.PhraseTable] = [.want, .buy, .sell, .price, .stock, .appraise, .bid, .cheaper, .gift]
        describingStopWords = shaping.reduce(into: Set<String>()) { $0.formUnion(vocabulary.words($1)) }
            .union(trading.flatMap { vocabulary.phrases($0).flatMap(\.tokens) })
            .union(vocabulary.numberWords.keys).union(vocabulary.scales.keys)
        stemEndings = vocabulary.words(.stemEndings).sorted { ($0.count, $1) > ($1.count, $0) }
        var alikeWords: [String: Set<String>] = [:]
        for group in vocabulary.phrases(.alike) {
            for word in group.tokens { alikeWords[word, default: []].formUnion(group.tokens.filter { $0 != word }) }
        }
        self.alikeWords = alikeWords
        var categoryPhrases: [(words: Words, category: String)] = []
        for category in Set(world.items.values.map(\.category)).sorted() {
            for phrase in [category, category + "s"] + (world.lexicon.categories[category] ?? []) {
                let words = Words(phrase)
                if !words.isEmpty { categoryPhrases.append((words, category)) }
            }
        }
        self.categoryPhrases = categoryPhrases.sorted { ($0.words.count, $1.category) > ($1.words.count, $0.category) }
        buildSteps = steps
    }

    /// Who has a word in their name: no one yet, one item, or several.
    private enum Owner {
        case none, one(ItemID), several

        /// The item has the word too.
        mutating func claim(by item: ItemID) {
            switch self {
            case .none: self = .one(item)
            case .one(let owner) where owner != item: self = .several
            default: break
            }
        }
    }

    /// Every mention of an item in a line, best first: strongest, then longest, then earliest.
    ///
    /// - Parameter words: The line.
    /// - Returns: The mentions; overlapping weaker ones are left out.
    func mentions(in words: Words) -> [Mention] {
        var ignored = 0
        return mentions(in: words, examined: &ignored)
    }

    /// `mentions(in:)`, counting in `examined` the names it compared with the line: they start with a word of the
    /// line (or its singular), so their number follows the line, not the catalog (scale tests read it).
    func mentions(in words: Words, examined: inout Int) -> [Mention] {
        var byRange: [Range<Int>: (strength: Int, items: Set<ItemID>, weaker: Set<ItemID>)] = [:]
        let line = words.tokens
        // "Know any good crypto coins to invest in?": in a line about putting money to work, coins are money.
        let invests = line.contains { vocabulary.isWord($0, in: .investWords) }
        for (index, token) in line.enumerated() {
            // "3 coins for a trout", "knock a few coins off": a gold word after a number or an amount is money, not
            // the Old Coin.
            if invests, vocabulary.isWord(token, in: .gold) { continue }
            if index > 0, vocabulary.isWord(token, in: .gold),
                isNumber(line[index - 1]) || vocabulary.amounts.contains(where: { amount in
                    let start = index - amount.words.count
                    return !amount.isGold && start >= 0 && words.matches(amount.words, at: start)
                })
            {
                continue
            }
            // "that willow stick *you fish* with", "the pot *to cook* in": a word right after a `subjects` word that
            // follows a thing (a `determiners` or `things` word up to three words before it) is the verb of a clause
            // about that thing, not an item; "sell you fish" has no thing before "you" and still names the fish.
            if isClauseVerb(at: index, in: line) { continue }
            // A line word matches a name's first word when it is that word or a plural of it.
            for first in Set([token] + Words.singulars(of: token)) {
                var position = firstNameStarting[first] ?? -1
                while position >= 0 {
                    defer { position = nextWithSameFirstWord[Int(position)] }
                    examined += 1
                    let name = names[Int(position)]
                    let count = Int(name.count)
                    guard index + count <= line.count,
                        (0..<count).allSatisfy({
                            Words.word(line[index + $0], matches: tokens[Int(name.start) + $0])
                        })
                    else { continue }
                    let range = index..<(index + count)
                    let strength = Int(name.strength)
                    if let existing = byRange[range] {
                        if strength > existing.strength {
                            let weaker = existing.strength >= 2 ? existing.weaker.union(existing.items) : []
                            byRange[range] = (strength, [name.item], weaker)
                        } else if strength == existing.strength {
                            byRange[range]?.items.insert(name.item)
                        } else if strength >= 2 {
                            byRange[range]?.weaker.insert(name.item)
                        }
                    } else {
                        byRange[range] = (strength, [name.item], [])
                    }
                }
            }
        }
        let sorted = byRange.map {
            Mention(
                items: $0.value.items.sorted(), range: $0.key, strength: $0.value.strength,
                alternatives: $0.value.weaker.subtracting($0.value.items).sorted())
        }
        .sorted {
            ($0.strength, $0.range.count, -$0.range.lowerBound) > (
                $1.strength, $1.range.count, -$1.range.lowerBound
            )
        }
        var chosen: [Mention] = []
        for mention in sorted where !chosen.contains(where: { $0.range.overlaps(mention.range) }) {
            chosen.append(mention)
        }
        // "apple cider", "oil lamp": of two names side by side and as strong, the second is the thing and the first
        // says what kind.
        if let best = chosen.first,
            let head = chosen.firstIndex(where: {
                $0.range.lowerBound == best.range.upperBound && $0.strength == best.strength
            })
        {
            chosen.insert(chosen.remove(at: head), at: 0)
        }
        return chosen
    }

    /// Whether the word at `index` is the verb of a clause that describes a thing named before it: it comes right
    /// after a `subjects` word ("you", "I", "to"), and a `determiners` or `things` word is among the three words before
    /// that one ("the stick you fish with", "that one I fish with", "something to fish with").
    private func isClauseVerb(at index: Int, in line: [String]) -> Bool {
        guard index >= 2, vocabulary.isWord(line[index - 1], in: .subjects) else { return false }
        return line[max(0, index - 4)..<(index - 1)].contains {
            vocabulary.isWord($0, in: .determiners) || vocabulary.isWord($0, in: .things)
        }
    }

    /// Whether a word is a number: digits, or a number word of the lexicon.
    private func isNumber(_ word: String) -> Bool {
        word.allSatisfy(\.isNumber) || vocabulary.numberWords[word] != nil || vocabulary.scales[word] != nil
    }

    /// The best mention's items, if the line names any.
    func bestItems(in words: Words) -> [ItemID] { mentions(in: words).first?.items ?? [] }

    /// Finds an item from a tool's or rule's text: an id, a name or an alias, ignoring case.
    ///
    /// - Parameter text: For example `lantern`, `Brass Lantern` or `lamp`.
    /// - Returns: The item, when exactly one fits.
    func item(named text: String) -> ItemID? {
        let id = ItemID(text)
        if items[id] != nil { return id }
        let matches = wholeNames.items(named: text)
        if matches.count == 1 { return matches[0] }
        let words = Words(text)
        let mentions = self.mentions(in: words)
        if let best = mentions.first, best.items.count == 1, best.range.count == words.count { return best.items[0] }
        return nil
    }

    /// The words after a determiner (the lexicon's `determiners`, up to a `nameStops` word) when no catalog item is named: `the unicorn horn` in "how much is the unicorn
    /// horn?", so the NPC can say it has none.
    ///
    /// - Parameter words: The line.
    /// - Returns: Up to two words, or `nil`.
    func unknownThing(in words: Words) -> String? {
        unknownThingRange(in: words).map { words.tokens[$0].joined(separator: " ") }
    }

    /// Where `unknownThing(in:)` finds its words in the line.
    func unknownThingRange(in words: Words) -> Range<Int>? {
        let tokens = words.tokens
        let determiners = vocabulary.words(.determiners)
        let nameStops = vocabulary.words(.nameStops)
        for (index, token) in tokens.enumerated() where determiners.contains(token) {
            var name: [String] = []
            var next = index + 1
            while next < tokens.count, name.count < 2, !nameStops.contains(tokens[next]),
                !determiners.contains(tokens[next]), !tokens[next].allSatisfy(\.isNumber)
            {
                name.append(tokens[next])
                next += 1
            }
            if !name.isEmpty { return (index + 1)..<next }
        }
        return nil
    }

    /// An item a line describes rather than names (`description(in:among:clauseStarts:)`).
    struct Description: Sendable, Equatable {
        /// The item.
        let item: ItemID
        /// The words that describe it in the line: from the first that fits its description (or a `things` word
        /// up to three words before it: "them *things* you smoke over alder") to the last.
        let range: Range<Int>
        /// How many of the line's words fit the item.
        let shared: Int
        /// Whether the line describes the item clearly: no other candidate fits a word of the line that the item
        /// does not ("those long iron pincers": the dagger fits only `iron`, which the tongs fit too), or the item
        /// fits at least two words more than any other. Otherwise the NPC asks back before it acts on it.
        let isClear: Bool
    }

    /// The item among `candidates` that the line describes rather than names: the one whose description and name
    /// share the most words with the line, when it shares at least `describedWords` and more than any other
    /// candidate. "That heavy grey thing you'd throw round your shoulders" is the Wool Cloak ("A heavy grey cloak
    /// that shrugs off rain"), "those long iron pincers" the Smithing Tongs ("Long iron tongs…"), "that cloudy apple
    /// stuff" the Jug of Cider ("…cloudy apple cider"). Words that describe nothing do not count
    /// (`describingStopWords`, and words under three letters); a plural counts as its singular.
    ///
    /// - Parameters:
    ///   - words: The line.
    ///   - candidates: The items it may describe: what the NPC sells, or what the player carries.
    ///   - clauseStarts: Where the line's sentences and comma-separated parts start: the words describing one item
    ///     are in one of them.
    /// - Returns: The item, or `nil` when no candidate is described well enough or two are described as well.
    func described(in words: Words, among candidates: [ItemID], clauseStarts: Set<Int> = []) -> ItemID? {
        description(in: words, among: candidates, clauseStarts: clauseStarts)?.item
    }

    /// The item among `candidates` that one part of the line describes (`described(in:among:clauseStarts:)`), with
    /// where and how well. A word fits an item when its description, name or an alias has it, its singular, or the
    /// same word with another of the lexicon's `stemEndings` ("black" and "black*ened*", "smoke" and "smok*ed*"), or a
    /// word of one of the lexicon's `alike` groups with a word of the description ("meat" and "mutton").
    ///
    /// - Parameters:
    ///   - words: The line.
    ///   - candidates: The items it may describe.
    ///   - clauseStarts: Where the line's parts start; each part is weighed apart, and the best describes.
    /// - Returns: The description, or `nil` when no part describes one candidate better than the others.
    func description(in words: Words, among candidates: [ItemID], clauseStarts: Set<Int> = []) -> Description? {
        let tokens = words.tokens
        let describing = tokens.indices.filter { index in
            let word = tokens[index]
            return word.count >= 3 && !word.allSatisfy(\.isNumber) && !npcWords.contains(word)
                && !describingStopWords.contains(word)
        }
        guard Set(describing.map { tokens[$0] }).count >= Self.describedWords else { return nil }
        // Each candidate's words, with their stems.
        let known = candidates.compactMap { candidate -> (item: ItemID, words: Set<String>)? in
            guard let item = items[candidate] else { return nil }
            let text = item.description + " " + item.name + " " + item.aliases.joined(separator: " ")
            let said = Set(Words.tokenize(text))
            // ("Meat" fits the pie's "mutton": the words alike to the description's count as its own.)
            let words = said.union(said.flatMap { alikeWords[$0] ?? [] })
            return (candidate, words.union(words.map(stem)))
        }
        // ("The slender, beautiful one": a comma between a describing word right after a determiner and another, or a
        // `fillers` word that is no `weak` word or determiner, such as "beautiful", joins them in one part; "the long
        // road, home" does not.)
        let describingAt = Set(describing)
        func describes(_ index: Int) -> Bool {
            describingAt.contains(index)
                || (vocabulary.isWord(tokens[index], in: .fillers) && !vocabulary.isWord(tokens[index], in: .weak)
                    && !vocabulary.isWord(tokens[index], in: .determiners))
        }
        let starts = ([0] + clauseStarts.filter { start in
            start > 0 && start < tokens.count
                && !(start >= 2 && vocabulary.isWord(tokens[start - 2], in: .determiners)
                    && describingAt.contains(start - 1) && describes(start))
        }).sorted()
        var best: Description?
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1] : tokens.count
            let inPart = describing.filter { $0 >= start && $0 < end }
            var scores: [(item: ItemID, fitting: [Int])] = []
            for candidate in known {
                var seen: Set<String> = []
                let fitting = inPart.filter { index in
                    let word = tokens[index]
                    guard !seen.contains(word) else { return false }
                    let forms = [word] + Words.singulars(of: word)
                    guard forms.contains(where: { candidate.words.contains($0) || candidate.words.contains(stem($0)) })
                    else { return false }
                    seen.insert(word)
                    return true
                }
                scores.append((candidate.item, fitting))
            }
            scores.sort { ($0.fitting.count, $1.item) > ($1.fitting.count, $0.item) }
            guard let top = scores.first, top.fitting.count >= Self.describedWords,
                scores.dropFirst().first.map({ $0.fitting.count < top.fitting.count }) ?? true,
                let first = top.fitting.first, let last = top.fitting.last
            else { continue }
            if let current = best, current.shared >= top.fitting.count { continue }
            // "Them *things* you smoke over alder": the thing the description is about starts the description.
            let thing = tokens.indices[max(start, first - 3)..<first].first {
                vocabulary.isWord(tokens[$0], in: .things)
            }
            let others = scores.dropFirst()
            let clear =
                others.allSatisfy { Set($0.fitting).isSubset(of: top.fitting) }
                || top.fitting.count - (others.first?.fitting.count ?? 0) >= 2
            best = Description(
                item: top.item, range: (thing ?? first)..<(last + 1), shared: top.fitting.count, isClear: clear)
        }
        return best
    }

    /// A word without the longest of the lexicon's `stemEndings` that leaves at least four letters: `blackened` →
    /// `black`, `smoked` and `smoke` → `smok`, `sized` → `size`; the word itself when none does.
    func stem(_ word: String) -> String {
        for ending in stemEndings where word.count - ending.count >= 4 && word.hasSuffix(ending) {
            return String(word.dropLast(ending.count))
        }
        return word
    }

    /// How many words a line must share with an item's description to describe it (`described(in:among:)`).
    static let describedWords = 2

    /// The items one word names by itself (their id, name, alias, head word or a word only they have): the
    /// candidates a modifier may choose between ("hammer": the Claw Hammer and the Forge Hammer).
    func items(namedBy word: String) -> Set<ItemID> {
        var items: Set<ItemID> = []
        var position = firstNameStarting[word] ?? -1
        while position >= 0 {
            let name = names[Int(position)]
            if name.count == 1 { items.insert(name.item) }
            position = nextWithSameFirstWord[Int(position)]
        }
        return items
    }

    /// The categories of items a line names ("something to eat", "weapons", "food and drink"), with the words of
    /// the first (longest) phrase found; `nil` when it names none. A category right after a `personal` word ("your
    /// favourite food") does not count.
    func categories(in words: Words) -> (text: String, categories: [String])? {
        var found: [String] = []
        var text: String?
        for phrase in categoryPhrases where !found.contains(phrase.category) {
            // "Your favourite food" is about the NPC, not its stock; "nothing to eat" (the phrase "eat" too) asks
            // nothing of it.
            guard let start = words.firstIndex(of: phrase.words),
                !words.tokens[max(0, start - 2)..<start].contains(where: { vocabulary.isWord($0, in: .personal) })
            else { continue }
            found.append(phrase.category)
            if text == nil { text = phrase.words.tokens.joined(separator: " ") }
        }
        return text.map { ($0, found) }
    }

    /// A player's line as the scripted model reads it: its words with synonyms replaced (`Vocabulary.line(_:)`) and
    /// typos mended (`TypoMender`): swaps anywhere, and one-letter slips in the name of something the catalog does
    /// not know ("the *chese*").
    func line(_ text: String) -> Words {
        let words = mender.mendingSwaps(in: vocabulary.line(text))
        guard mentions(in: words).isEmpty, let range = unknownThingRange(in: words) else { return words }
        return mender.mendingName(in: words, range: range) ?? words
    }
}
