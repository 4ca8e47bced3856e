import GameWorld

/// Finds the built-in intent of a player's line by the pack's lexicon (`Lexicon`): its checks, in its order (by
/// default selling, then haggling, buying, gifts, prices and stock, a named item; then farewells, thanks and
/// greetings; then introductions and rumours; then yes and no; then small talk; otherwise `unknown`), each reading
/// its phrase tables. See docs/modding.md, "The lexicon".
enum IntentDetector {
    /// What the detector knows besides the words.
    struct Clues: Sendable {
        /// The numbers in the line.
        var numbers: [SpokenNumber] = []
        /// Where the best mention of a catalog item starts, if the line names one.
        var itemStart: Int?
        /// Where that mention ends.
        var itemEnd: Int?
        /// Where the line's other mentions of catalog items start.
        var otherItemStarts: [Int] = []
        /// Whether the line names an item or says `it`, `that`, `one`...
        var namesSomething = false
        /// Whether the line says `it`, `that`, `one`...
        var saysPronoun = false
        /// Whether the line ends with the name of something the catalog does not know ("I'd like some *wine*").
        var endsWithUnknownThing = false
        /// Whether the player wrote the line as a question (it ends with `?`).
        var isQuestion = false
        /// Where the line's sentences that end with `?` are ("got three old coins, *want to buy them?* all three"), but
        /// for one the player answers themself ("right, want to buy it? *I* do").
        var questionSentences: [Range<Int>] = []
        /// Whether an offer is pending or prices were quoted, so a bare number is a bid.
        var hasPriceContext = false
        /// Whether an offer is pending.
        var hasPendingOffer = false
        /// Whether the line picks an item by its price ("the cheapest curio", "the cheaper of the two"): then
        /// `cheaper` does not plead for a better price.
        var picksByPrice = false
        /// Where the line's sentences and comma-separated parts start (`Utterance.clauseStarts`).
        var clauseStarts: Set<Int> = []
        /// Whether the line is said as an order: it ends with `!` or hails the NPC ("the loaf, sir!").
        var soundsLikeAnOrder = false
        /// Whether the line says where the player is from ("I'm from Eastmarch"), which asks nothing.
        var givesOrigin = false
        /// Whether the line says what the player does for a living ("I work as a scribe"), which asks nothing.
        var givesOccupation = false
    }

    /// The intent a line was read as, and whether it was inferred rather than said.
    struct Reading: Sendable, Equatable {
        /// The intent.
        var intent: DialogueIntent
        /// Whether a purchase was inferred from how the line names an item ("two candles", "a trout, please",
        /// "I need a lantern") rather than said with a `buy` phrase: `OrderEvidence` weighs such a reading before
        /// the NPC acts on it.
        var isInferred = false
        /// Whether such a line names the item after a subject or a `mine` word ("I once had one cheese like
        /// that", "my aunt loved a horseshoe"): a statement more than an order.
        var isStatement = false
        /// Whether that statement says the player has the item, with an `offering` word ("I've two old coins"): an
        /// offer to sell when the NPC buys such things.
        var saysHaving = false
        /// Where the thing an imperative order hands over is named ("is that your rod? … so chuck us a *trout*"):
        /// the order is for that item, not for one named earlier in the line.
        var orderStart: Int?
    }

    /// The intent of a line: the first of the lexicon's checks (`Lexicon.priority`) that holds.
    ///
    /// - Parameters:
    ///   - words: The line's words.
    ///   - clues: Numbers, item mentions and context.
    ///   - vocabulary: The pack's words.
    /// - Returns: The intent; never a game-event intent, `greetAgain` or `returning` (the caller decides those).
    static func intent(of words: Words, clues: Clues, vocabulary: Vocabulary) -> DialogueIntent {
        reading(of: words, clues: clues, vocabulary: vocabulary).intent
    }

    /// The reading of a line: the intent of the first of the lexicon's checks that holds, and whether it was
    /// inferred.
    ///
    /// - Parameters:
    ///   - words: The line's words.
    ///   - clues: Numbers, item mentions and context.
    ///   - vocabulary: The pack's words.
    /// - Returns: The reading; never a game-event intent, `greetAgain` or `returning` (the caller decides those).
    static func reading(of words: Words, clues: Clues, vocabulary: Vocabulary) -> Reading {
        guard !words.isEmpty else { return Reading(intent: .unknown) }
        for check in vocabulary.priority {
            if let reading = reading(of: words, clues: clues, check: check, vocabulary) { return reading }
        }
        return Reading(intent: .unknown)
    }

    /// The reading one check finds, or `nil` when it does not hold.
    private static func reading(
        of words: Words, clues: Clues, check: Lexicon.Check, _ vocabulary: Vocabulary
    ) -> Reading? {
        switch check {
        case .buy:
            guard let how = buying(words, clues, vocabulary) else { return nil }
            if case .handed(let start) = how { return Reading(intent: .buy, orderStart: start) }
            return Reading(intent: .buy, isInferred: how == .wanted)
        case .namedItem:
            guard let start = clues.itemStart else { return nil }
            // "Two trout", "rope, 8 gold?", "a pie please" buy; a number far from anything in a longer line ("I
            // haven't eaten in two days and I've not a coin") does not, nor a statement that names the item after
            // its subject and verb ("I once had one cheese like that").
            let counts = clues.numbers.contains { number in
                number.role != .unmarked || words.count <= vocabulary.limits.shortAnswer
            }
            // The words before the item in its own part of the line: "I walked four miles. A pie, please" orders.
            let clause = clues.clauseStarts.filter { $0 <= start }.max() ?? 0
            let firstNumber = clues.numbers.map(\.range.lowerBound).filter { $0 >= clause }.min() ?? start
            let lead = words.tokens[clause..<max(clause, min(start, firstNumber))]
            let states = lead.contains { vocabulary.isWord($0, in: .subjects) || vocabulary.isWord($0, in: .mine) }
            if counts || words.tokens.contains(where: { vocabulary.isWord($0, in: .please) }) {
                return Reading(
                    intent: .buy, isInferred: true, isStatement: states,
                    saysHaving: lead.contains { vocabulary.isWord($0, in: .offering) })
            }
            // "Found an old coin by the river, fancy it?": a thing the player says they have (its part of the sentence
            // opens with a `having` phrase or a `firstPerson` word), then a later part that asks without an `inquiry`
            // word, may be offered to the NPC (`Scene` decides by whether the NPC buys it and does not sell it); not
            // "I found a locket, what should I do with it?".
            if clues.isQuestion, Scene.saysHaving(before: start, in: words, vocabulary: vocabulary),
                let last = clues.clauseStarts.max(), last > start, !vocabulary.isWord(words.tokens[last], in: .inquiry),
                vocabulary.isWord(words.tokens[clause], in: .firstPerson)
                    || vocabulary.phrases(.having).contains(where: { words.matches($0, at: clause) })
            {
                return Reading(intent: .buy, isInferred: true, isStatement: true, saysHaving: true)
            }
            if isTerseOrder(words, clues, vocabulary) { return Reading(intent: .buy, isInferred: true) }
            // "A pint for me": the item, then a one-word `priceLeadIns` word and a `speaker` word ending the line or its
            // part of it ("cider for me, Hesper, a whole jug of it"), orders it.
            // (One word may follow before the part ends: "a pie for me *too*", "cider for me *Hesper*, a whole jug".)
            if let end = clues.itemEnd,
                [end + 2, end + 3].contains(where: { $0 == words.count || ($0 < words.count && clues.clauseStarts.contains($0)) }),
                !clues.isQuestion,
                vocabulary.isWord(words.tokens[end + 1], in: .speaker),
                vocabulary.phrases(.priceLeadIns).contains(where: { $0.count == 1 && words.matches($0, at: end) }),
                words.tokens[..<start].allSatisfy({ vocabulary.isWord($0, in: .fillers) })
            {
                return Reading(intent: .buy, isInferred: true)
            }
            if clues.itemEnd == words.count,
                words.tokens[..<start].allSatisfy({ vocabulary.isWord($0, in: .fillers) })
            {
                // "A mug of ale" and "the loaf, sir!" order one; "the lantern?", "lantern", "a lantern?" ask its price.
                if let first = words.tokens.first, vocabulary.numberArticles.contains(first), !clues.isQuestion {
                    return Reading(intent: .buy, isInferred: true)
                }
                if clues.soundsLikeAnOrder, !clues.isQuestion { return Reading(intent: .buy, isInferred: true) }
                return Reading(intent: .askPrice)
            }
            // "A mug of ale and a wedge of cheese when you've a sec": a line that opens with one of something, not a
            // question, and goes on with no verb of its own right after the thing ("a lantern *is* a fine thing",
            // "a pie *would* be lovely" state) or hails the NPC ("a mug of ale, *love*, I'm parched"), orders it.
            // (Not one whose sentence asks: "a mutton pie for you, love? you look half starved".)
            if let first = words.tokens.first, vocabulary.numberArticles.contains(first), !clues.isQuestion,
                !clues.questionSentences.contains(where: { $0.contains(start) }),
                words.tokens[..<start].allSatisfy({ vocabulary.isWord($0, in: .fillers) }),
                let end = clues.itemEnd, end < words.count,
                clues.soundsLikeAnOrder
                    || (!vocabulary.isWord(words.tokens[end], in: .copulas)
                        && !vocabulary.isWord(words.tokens[end], in: .subjects)
                        && !vocabulary.isWord(words.tokens[end], in: .inquiry))
            {
                return Reading(intent: .buy, isInferred: true)
            }
            return nil
        default:
            return intent(of: words, clues: clues, check: check, vocabulary).map { Reading(intent: $0) }
        }
    }

    /// Whether the line is a terse order said in bits: not a question, at most `shortAnswer` + 2 words in two parts or
    /// more (sentences or comma-separated), the first the item's name alone (after fillers), a later one a count alone
    /// (a number or a number word such as `one`, with articles, fillers and `orderLeadIns` words: "just the one"; not
    /// "that"), and no part with a
    /// subject, a negation, a copula or an `inquiry` word: "dagger. one. now.", "rope. one. sharpish.", "pie. two.
    /// quick." (the count counts the item, though said in a sentence of its own). "Pie. Not today." and "dagger. how
    /// much." order nothing.
    static func isTerseOrder(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard let start = clues.itemStart, let end = clues.itemEnd, !clues.isQuestion,
            words.count <= vocabulary.limits.shortAnswer + 2, clues.clauseStarts.contains(end),
            tokens[..<start].allSatisfy({ vocabulary.isWord($0, in: .fillers) }),
            !clues.clauseStarts.contains(where: { $0 > 0 && $0 <= start })
        else { return false }
        let stops: [Lexicon.WordSet] = [.subjects, .firstPerson, .negations, .copulas, .inquiry]
        guard !tokens.contains(where: { token in stops.contains { vocabulary.isWord(token, in: $0) } }) else {
            return false
        }
        let starts = clues.clauseStarts.filter { $0 >= end && $0 < tokens.count }.sorted()
        return starts.indices.contains { index in
            let part = starts[index]..<(index + 1 < starts.count ? starts[index + 1] : tokens.count)
            let counts = part.filter { position in
                clues.numbers.contains { $0.range.contains(position) } || vocabulary.numberWords[tokens[position]] != nil
            }
            return !counts.isEmpty
                && part.allSatisfy { position in
                    counts.contains(position) || vocabulary.isWord(tokens[position], in: .articles)
                        || vocabulary.isWord(tokens[position], in: .fillers)
                        || vocabulary.isWord(tokens[position], in: .orderLeadIns)
                }
        }
    }

    /// The intent one check finds, or `nil` when it does not hold (for the checks `reading` does not read itself).
    private static func intent(
        of words: Words, clues: Clues, check: Lexicon.Check, _ vocabulary: Vocabulary
    ) -> DialogueIntent? {
        let limits = vocabulary.limits
        switch check {
        case .recall:
            let topic = recallTopic(
                of: words, givesOrigin: clues.givesOrigin, givesOccupation: clues.givesOccupation,
                clauseStarts: clues.clauseStarts, vocabulary)
            return topic != nil ? .recall : nil
        case .sell: return isSell(words, clues, vocabulary) ? .sell : nil
        case .haggle: return isHaggle(words, clues, vocabulary) ? .haggle : nil
        case .buy, .namedItem: return reading(of: words, clues: clues, check: check, vocabulary)?.intent
        case .offerGift: return isGift(words, clues, vocabulary) ? .offerGift : nil
        case .askPrice:
            // "Got owt to drink besides the cider?": a question that leaves out the thing it names asks for the rest.
            // (The phrase, then only determiners before the thing: "besides *the* cider".)
            if clues.isQuestion, let item = clues.itemStart,
                vocabulary.phrases(.besides).contains(where: { phrase in
                    guard let at = words.firstIndex(of: phrase), at + phrase.count <= item else { return false }
                    return item - (at + phrase.count) <= 2
                        && words.tokens[(at + phrase.count)..<item].allSatisfy { vocabulary.isWord($0, in: .determiners) }
                })
                    || isExcluded(at: item, in: words, vocabulary)
            {
                return .askStock
            }
            if asksWhatIsLaidOut(words, clues, vocabulary) { return .askStock }
            let asksPrice =
                words.containsAny(vocabulary.phrases(.price)) || asksCostWithVerb(words, clues, vocabulary)
            // ("Anything else you're looking to sell?": what the NPC has to sell.)
            let asksStock =
                words.containsAny(vocabulary.phrases(.stock))
                || words.tokens.indices.contains { index in
                    vocabulary.isWord(words.tokens[index], in: .sellVerbs) && hasToSell(at: index, in: words, clues, vocabulary)
                }
            guard asksPrice || asksStock else { return nil }
            // "Got any gossip, smith?": a question for news that names no item asks no price.
            if clues.itemStart == nil, words.containsAny(vocabulary.phrases(.rumors)) { return nil }
            // "Do you have any children?": a question after the NPC's people asks nothing of the stock.
            if clues.itemStart == nil, words.tokens.contains(where: { vocabulary.isWord($0, in: .kinWords) }) {
                return nil
            }
            // "Know any good stocks to put my coins in?": money matters, not the NPC's goods.
            if clues.itemStart == nil, words.tokens.contains(where: { vocabulary.isWord($0, in: .investWords) }) {
                return nil
            }
            // "Do you sell anything besides the owl?" asks for the rest of the stock.
            if words.containsAny(vocabulary.phrases(.besides)) { return .askStock }
            if asksPrice, clues.namesSomething, let start = clues.itemStart, start > 0,
                vocabulary.isWord(words.tokens[start - 1], in: .mine)
            {
                return .sell
            }
            return asksPrice || clues.itemStart != nil
                ? (asksStock && clues.itemStart == nil ? .askStock : .askPrice)
                : .askStock
        case .no:
            return words.count <= limits.shortAnswer && words.containsAny(vocabulary.phrases(.no)) ? .no : nil
        case .farewell:
            let holds =
                words.containsAny(vocabulary.phrases(.farewell))
                || (words.count <= limits.shortLine && words.containsAny(vocabulary.phrases(.shortFarewell)))
            return holds ? .farewell : nil
        case .thanks:
            // ("Ta ever so, that was a lovely pie": a `shortThanks` phrase opening a longer line, in a part of the
            // sentence of at most `shortAnswer` words that names no item.)
            let firstPart = clues.clauseStarts.filter { $0 > 0 }.min() ?? words.count
            let opens =
                firstPart <= limits.shortAnswer && (clues.itemStart.map { $0 >= firstPart } ?? true)
                && vocabulary.phrases(.shortThanks).contains { words.matches($0, at: 0) }
            let holds =
                words.containsAny(vocabulary.phrases(.thanks)) || opens
                || (words.count <= limits.shortLine && words.containsAny(vocabulary.phrases(.shortThanks)))
            return holds ? .thanks : nil
        case .greet: return greets(words, vocabulary) ? .greet : nil
        case .yesOrNo:
            guard words.count <= limits.shortAnswer else { return nil }
            if let first = words.tokens.first {
                if vocabulary.isWord(first, in: .noWords) { return .no }
                if vocabulary.isWord(first, in: .yesWords) { return .yes }
            }
            if words.containsAny(vocabulary.phrases(.no)) { return .no }
            if words.containsAny(vocabulary.phrases(.yes)) { return .yes }
            return nil
        case .introduce:
            if words.containsAny(vocabulary.phrases(.introduce)) { return .introduce }
            if asksWhoTheListenerIs(words, clues, vocabulary) { return .introduce }
            // "You the blacksmith round here?": a question that drops its verb and opens with a `listener` word and an
            // article asks who the NPC is, when it names no item.
            let tokens = words.tokens
            if clues.isQuestion, clues.itemStart == nil, tokens.count >= 3, vocabulary.isWord(tokens[0], in: .listener),
                vocabulary.isWord(tokens[1], in: .articles)
            {
                return .introduce
            }
            return nil
        case .rumors: return words.containsAny(vocabulary.phrases(.rumors)) ? .rumors : nil
        case .smallTalk: return words.containsAny(vocabulary.phrases(.smallTalk)) ? .smallTalk : nil
        }
    }

    /// Whether the line greets: a `greeting` phrase in it with no `timeOfDayLeadIns` word right before it ("what time
    /// do you close up *of an* evening?" asks the hour, "good evening" greets).
    static func greets(_ words: Words, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        return vocabulary.phrases(.greeting).contains { phrase in
            var start = 0
            while let index = words.firstIndex(of: phrase, from: start) {
                if index == 0 || !vocabulary.isWord(tokens[index - 1], in: .timeOfDayLeadIns) { return true }
                start = index + 1
            }
            return false
        }
    }

    /// Whether a part of the line asks who the NPC is with a word or two set in: it opens with a `whoWords` word
    /// (after `orderLeadIns` words), then at most two words, then a `copulas`, `subjects` or `futureModals` word and a
    /// `listener` word, then at most one word to the end of the part, naming no item: "who on
    /// earth are you, then?", "who are you exactly, love?", "who precisely might you be?". "Who else are you
    /// expecting in tonight?" says more after `you`.
    static func asksWhoTheListenerIs(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        let starts = ([0] + clues.clauseStarts.filter { $0 < tokens.count }).sorted()
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : tokens.count
            var who = start
            while who < end, vocabulary.isWord(tokens[who], in: .orderLeadIns) { who += 1 }
            guard who < end, vocabulary.isWord(tokens[who], in: .whoWords) else { continue }
            if let item = clues.itemStart, item >= start, item < end { continue }
            guard who + 2 < end else { continue }
            let listeners = ((who + 2)..<min(end, who + 5)).filter { listener in
                vocabulary.isWord(tokens[listener], in: .listener)
                    && [.copulas, .subjects, .futureModals].contains { vocabulary.isWord(tokens[listener - 1], in: $0) }
            }
            guard let listener = listeners.first else { continue }
            if end - (listener + 1) <= 1 { return true }
        }
        return false
    }

    /// Whether the thing named at `item` is said as what is not wanted: a `pronouns` word, a copula and a `negations`
    /// word right before it, only determiners between ("anything to drink *that is not* ale?", "any grub going *that
    /// isn't* bread?"). In a question, that asks for the rest of the stock; "is that not ale?" asks about the ale.
    static func isExcluded(at item: Int, in words: Words, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        var at = item
        while at > 0, vocabulary.isWord(tokens[at - 1], in: .determiners) { at -= 1 }
        return at >= 3 && vocabulary.isWord(tokens[at - 1], in: .negations)
            && vocabulary.isWord(tokens[at - 2], in: .copulas) && vocabulary.isWord(tokens[at - 3], in: .pronouns)
    }

    /// Whether a part of the line asks what the NPC has on show, naming nothing: it opens with an `asking` word and a
    /// copula (after `orderLeadIns` words), then perhaps the first word of an `everything` phrase (`all`), then a `pronouns` word (`this`,
    /// `that`) and perhaps a `things` word (`lot`), then a `listener` word and an `offering` word ("what's all *that you
    /// have* got hung up along the back wall?") or a `displayWords` word ("so what's this lot *spread* out on your
    /// crate?"). "What's that you said?" and "what's this place called?" ask no such thing.
    static func asksWhatIsLaidOut(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard clues.itemStart == nil, clues.otherItemStarts.isEmpty else { return false }
        let starts = ([0] + clues.clauseStarts.filter { $0 < tokens.count }).sorted()
        // (The first word of an `everything` phrase that is no article: `all`, `every`.)
        let everyWords = Set(
            vocabulary.phrases(.everything).compactMap(\.tokens.first).filter { !vocabulary.isWord($0, in: .articles) })
        for start in Set(starts) {
            var index = start
            while index < tokens.count, vocabulary.isWord(tokens[index], in: .orderLeadIns) { index += 1 }
            guard index + 3 < tokens.count, vocabulary.isWord(tokens[index], in: .asking),
                vocabulary.isWord(tokens[index + 1], in: .copulas)
            else { continue }
            index += 2
            if everyWords.contains(tokens[index]) { index += 1 }
            guard index + 1 < tokens.count, vocabulary.isWord(tokens[index], in: .pronouns) else { continue }
            index += 1
            if vocabulary.isWord(tokens[index], in: .things) { index += 1 }
            guard index < tokens.count else { continue }
            if vocabulary.isWord(tokens[index], in: .displayWords) { return true }
            if index + 1 < tokens.count, vocabulary.isWord(tokens[index], in: .listener),
                vocabulary.isWord(tokens[index + 1], in: .offering)
            {
                return true
            }
        }
        return false
    }

    // MARK: - Memory

    /// What a question about the conversation's past asks, from the lexicon's `recall...` phrases, or `nil`. A
    /// line that gives the player's name ("my name is Tamsin") asks nothing; "what I'm called" gives none.
    ///
    /// - Parameters:
    ///   - words: The line's words.
    ///   - givesOrigin: Whether the line says where the player is from.
    ///   - givesOccupation: Whether the line says what the player does for a living ("my trade is smithing" asks
    ///     nothing, though it holds "my trade").
    ///   - clauseStarts: Where the line's sentences and comma-separated parts start (`Utterance.clauseStarts`).
    ///   - vocabulary: The pack's words.
    /// - Returns: The topic asked about, or `nil`.
    static func recallTopic(
        of words: Words, givesOrigin: Bool, givesOccupation: Bool = false, clauseStarts: Set<Int> = [],
        _ vocabulary: Vocabulary
    ) -> RecallTopic? {
        let givesName = vocabulary.phrases(.selfName).contains { phrase in
            words.firstIndex(of: phrase).map { $0 + phrase.count < words.count } ?? false
        }
        // ("What do the townsfolk call me, then?" holds `call me` but gives no name.)
        if (givesName && !asksWhatPlayerIsCalled(words, clauseStarts: clauseStarts, vocabulary)) || givesOrigin
            || givesOccupation
        {
            return nil
        }
        if let topic = recallTable(in: words, clauseStarts: clauseStarts, vocabulary) { return topic }
        if asksWhatPlayerIsCalled(words, clauseStarts: clauseStarts, vocabulary) { return .name }
        // "What'd I get off you just now?": `'d` is spelled out as `would`, but a `pastTime` phrase closing the
        // question makes it `did`; "what'd I get for my boots before I go?" still asks what they would fetch.
        let closesAClause = vocabulary.phrases(.pastTime).contains { phrase in
            var from = 0
            while let start = words.firstIndex(of: phrase, from: from) {
                let end = start + phrase.count
                if end == words.count || clauseStarts.contains(end) { return true }
                from = start + 1
            }
            return false
        }
        if closesAClause, let past = pastReading(of: words, vocabulary),
            let topic = recallTable(in: past, clauseStarts: clauseStarts, vocabulary)
        {
            return topic
        }
        // "Where'd I say I come from?", "sorry, which town did I say I hail from?": a question that ends with a
        // `selfOrigin` phrase and no place after it, in a part of the sentence that opens with an `inquiry` word.
        if vocabulary.phrases(.selfOrigin).contains(where: { phrase in
            let start = words.count - phrase.count
            let clause = clauseStarts.filter { $0 <= start }.max() ?? 0
            return start >= 0 && words.matches(phrase, at: start)
                && vocabulary.isWord(words.tokens[clause], in: .inquiry)
        }) {
            return .origin
        }
        if asksOrigin(words, clauseStarts: clauseStarts, vocabulary) { return .origin }
        return askedAbout(words, clauseStarts: clauseStarts, vocabulary)
    }

    /// The other topics a question about the past asks besides `topic`, in `RecallTopic`'s order: "what's my name,
    /// and what did I buy off you?" asks the name and the dealings; "remind me what name I gave you, and where I said
    /// I'm from" the name and the origin. Each is found as `recallTopic` finds one (its `recall…` phrases, and for
    /// the origin a question about where the player came from, and what was asked or dealt in any words: "where did
    /// I say I was from, and what was it I asked you about?").
    static func alsoRecalled(
        besides topic: RecallTopic, in words: Words, clauseStarts: Set<Int>, _ vocabulary: Vocabulary
    ) -> [RecallTopic] {
        let askedBack = askedAbout(words, clauseStarts: clauseStarts, vocabulary)
        return RecallTopic.allCases.filter { other in
            guard other != topic else { return false }
            if recallTable(in: words, clauseStarts: clauseStarts, vocabulary, among: [other]) != nil { return true }
            // (Only what was asked: a dealt verb may belong to another topic's words, "what name I *gave* you".)
            if other == .asked, askedBack == .asked { return true }
            return other == .origin && asksOrigin(words, clauseStarts: clauseStarts, vocabulary)
        }
    }

    /// What the line asks back about the player's own past, in any words: an `inquiry` word, later in its clause a
    /// `firstPerson` word at most four words after it and right after that an `askedVerbs` word (what the player asked: "what was it I just asked
    /// you about?", "which piece was it I asked about?"; the lexicon's synonyms read `I just` as `I`) or a `dealtVerbs`
    /// word (what they bought, sold or gave: "remember what I gave you earlier?"). "I asked about the gate, what of
    /// it?" asks neither (the `inquiry` word must come first in the clause), nor "what's this cloak worth to you if I
    /// sold it?" (the question is about something else, far before `I`). `nil` when it asks neither.
    static func askedAbout(_ words: Words, clauseStarts: Set<Int>, _ vocabulary: Vocabulary) -> RecallTopic? {
        let tokens = words.tokens
        if asksWhatItCost(words, clauseStarts: clauseStarts, vocabulary) { return .dealings }
        // "How many ales did I have off you?": a `pastAuxiliaries` word, a `firstPerson` word and a `takeVerbs` word,
        // then, in the same part of the sentence, a `fromWords` word and a `listener` word: what the player got.
        for index in tokens.indices.dropFirst(2) where vocabulary.isWord(tokens[index], in: .takeVerbs) {
            guard vocabulary.isWord(tokens[index - 1], in: .firstPerson),
                vocabulary.isWord(tokens[index - 2], in: .pastAuxiliaries)
            else { continue }
            let end = clauseStarts.filter { $0 > index }.min() ?? tokens.count
            let after = tokens.indices[(index + 1)..<end]
            if after.contains(where: {
                vocabulary.isWord(tokens[$0], in: .fromWords) && $0 + 1 < end
                    && vocabulary.isWord(tokens[$0 + 1], in: .listener)
            }) {
                return .dealings
            }
        }
        for index in tokens.indices.dropFirst() {
            let topic: RecallTopic
            if vocabulary.isWord(tokens[index], in: .askedVerbs) {
                topic = .asked
            } else if vocabulary.isWord(tokens[index], in: .dealtVerbs) {
                topic = .dealings
            } else {
                continue
            }
            let subject = index - 1
            guard vocabulary.isWord(tokens[subject], in: .firstPerson) else { continue }
            let clause = clauseStarts.filter { $0 <= subject }.max() ?? 0
            if tokens[max(clause, subject - 4)..<subject].contains(where: { vocabulary.isWord($0, in: .inquiry) }) {
                return topic
            }
        }
        return nil
    }

    /// Whether the line asks back what something cost the player: in a part of the sentence that opens with an
    /// `inquiry` word (after `orderLeadIns` words), a `pastAuxiliaries` word, then a `billVerbs` word right before a
    /// `speaker` word ("how much *did* that ale *cost me* again?", "what *did* you *charge me* for the dagger?", "what
    /// *did* that rope *set me* back?"). "How much will it cost me?" asks a price; "did it cost much?" asks nothing
    /// back.
    ///
    /// A `recallLeadIns` phrase opening the part stands for the past auxiliary: "*remind me* how much that candle cost
    /// me?", "*tell me again* how much the cider set me back" ask back too; "remind me how much you charge for lamp
    /// oil" asks the price.
    static func asksWhatItCost(_ words: Words, clauseStarts: Set<Int>, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        for verb in tokens.indices.dropLast() where vocabulary.isWord(tokens[verb], in: .billVerbs) {
            guard vocabulary.isWord(tokens[verb + 1], in: .speaker) else { continue }
            var clause = clauseStarts.filter { $0 <= verb }.max() ?? 0
            while clause < verb, vocabulary.isWord(tokens[clause], in: .orderLeadIns) { clause += 1 }
            var reminded = false
            if let leadIn = vocabulary.phrases(.recallLeadIns).filter({ words.matches($0, at: clause) })
                .map(\.count).max(), clause + leadIn < verb
            {
                clause += leadIn
                reminded = true
            }
            guard vocabulary.isWord(tokens[clause], in: .inquiry),
                reminded || tokens[clause..<verb].contains(where: { vocabulary.isWord($0, in: .pastAuxiliaries) })
            else { continue }
            return true
        }
        return false
    }

    /// Whether the line asks back what the player is called in any words: in a part of the sentence that opens with
    /// an `asking` word (after `orderLeadIns` words), a `nameVerbs` word right before a `speaker` word, at most three
    /// words after the `asking` word and with at most two words after it in its part ("what do the townsfolk *call
    /// me*, then?", "so what does everybody *call me* round here?"). "What do they call this square?" names no one;
    /// "what would you call me if I bought the lot and left you nothing to sell?" says too much after it.
    static func asksWhatPlayerIsCalled(_ words: Words, clauseStarts: Set<Int>, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        for verb in tokens.indices.dropLast() where vocabulary.isWord(tokens[verb], in: .nameVerbs) {
            guard vocabulary.isWord(tokens[verb + 1], in: .speaker) else { continue }
            var clause = clauseStarts.filter { $0 <= verb }.max() ?? 0
            while clause < verb, vocabulary.isWord(tokens[clause], in: .orderLeadIns) { clause += 1 }
            let end = clauseStarts.filter { $0 > verb }.min() ?? tokens.count
            guard vocabulary.isWord(tokens[clause], in: .asking), verb - clause <= 4, end - (verb + 2) <= 2 else {
                continue
            }
            return true
        }
        return false
    }

    /// Whether the line asks back where the player came from, in any words: a `whereWords` word (or an `inquiry` word
    /// and a `placeWords` word: "which *town*"), later a `firstPerson` word, then a `travelVerbs` word (or none:
    /// "where am I from") and a `fromWords` word with at most two words after it in its part of the sentence ("where
    /// did I say I'd travelled from?", "remember where I sailed in from?", "where did we ride from, did I tell you?",
    /// "what town am I from again?"). "Where can I buy rope from?" names no travel and asks no such thing.
    static func asksOrigin(_ words: Words, clauseStarts: Set<Int>, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard let from = tokens.lastIndex(where: { vocabulary.isWord($0, in: .fromWords) }),
            (clauseStarts.filter { $0 > from }.min() ?? tokens.count) - from <= 3,
            let place = tokens.indices[..<from].first(where: { index in
                vocabulary.isWord(tokens[index], in: .whereWords)
                    || (index > 0 && vocabulary.isWord(tokens[index], in: .placeWords)
                        && vocabulary.isWord(tokens[index - 1], in: .inquiry))
            }),
            let subject = tokens[place..<from].lastIndex(where: { vocabulary.isWord($0, in: .firstPerson) })
        else { return false }
        let between = tokens[(subject + 1)..<from]
        return between.isEmpty || between.contains { vocabulary.isWord($0, in: .travelVerbs) }
    }

    /// The first topic one of whose `recall…` phrases the line holds. A `recallName` phrase that ends with a
    /// `subjects` word ("who am I") is a whole question: it asks the player's name only where its clause ends after
    /// it or a `nameStops` word follows ("who am I?", "who am I again?"), not where more words make it another
    /// question ("who am I talking to?", "who am I supposed to ask about the locket?").
    private static func recallTable(
        in words: Words, clauseStarts: Set<Int>, _ vocabulary: Vocabulary, among topics: [RecallTopic] = RecallTopic.allCases
    ) -> RecallTopic? {
        for topic in topics {
            for phrase in vocabulary.phrases(topic.table) {
                let whole = topic == .name && phrase.tokens.last.map { vocabulary.isWord($0, in: .subjects) } == true
                var from = 0
                while let start = words.firstIndex(of: phrase, from: from) {
                    let end = start + phrase.count
                    if !whole || end == words.count || clauseStarts.contains(end)
                        || vocabulary.isWord(words.tokens[end], in: .nameStops)
                    {
                        return topic
                    }
                    from = start + 1
                }
            }
        }
        return nil
    }

    /// The line with each `would` right after an `inquiry` word ("what'd", "where'd", spelled out by `Words`) read
    /// as `did`, or `nil` when it has none. Only English contractions are spelled out so, so only an English line has
    /// one.
    private static func pastReading(of words: Words, _ vocabulary: Vocabulary) -> Words? {
        var tokens = words.tokens
        var changed = false
        for index in tokens.indices.dropFirst()
        where tokens[index] == "would" && vocabulary.isWord(tokens[index - 1], in: .inquiry) {
            tokens[index] = "did"
            changed = true
        }
        return changed ? Words(tokens: tokens) : nil
    }

    // MARK: - Trade

    /// Whether a `negations` word comes up to three words before `index`, in the same part of the sentence ("I do
    /// *not* want to *buy* it", but not "a cloak I do not need, *you buying*?"): the request there asks for nothing.
    static func isNegated(at index: Int, in words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let before = words.tokens[max(0, index - 3)..<index]
        guard let negation = before.lastIndex(where: { vocabulary.isWord($0, in: .negations) }) else { return false }
        return !clues.clauseStarts.contains { $0 > negation && $0 <= index }
    }

    /// Whether a `sellVerbs` word at `index` is followed, within four words, by a `speaker` word: "sell *me* a
    /// pie", "sell it to *me*" ask the NPC to sell.
    private static func sellsToSpeaker(at index: Int, in words: Words, _ vocabulary: Vocabulary) -> Bool {
        words.tokens[(index + 1)..<min(words.count, index + 5)].contains { vocabulary.isWord($0, in: .speaker) }
    }

    /// The earliest of the phrases in the line that no `negations` word negates, if any.
    static func firstAffirmed(_ phrases: [Words], in words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Int? {
        affirmed(phrases, in: words, clues, vocabulary).first
    }

    /// Where the phrases are in the line, each time no `negations` word negates them, in order.
    static func affirmed(_ phrases: [Words], in words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> [Int] {
        phrases.flatMap { phrase -> [Int] in
            var found: [Int] = []
            var start = 0
            while let index = words.firstIndex(of: phrase, from: start) {
                if !isNegated(at: index, in: words, clues, vocabulary) { found.append(index) }
                start = index + 1
            }
            return found
        }.sorted()
    }

    /// `sell my sword`, `would you buy this`, `what would you pay for my boots`, `how much for my sword`.
    private static func isSell(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        if asksForASale(words, clues, vocabulary) { return true }
        if asksWhatOthersPay(words, clues, vocabulary) || asksSomethingForIt(words, clues, vocabulary) { return true }
        if asksForWhatItIsWorth(words, clues, vocabulary) { return true }
        let tokens = words.tokens
        // "What would a rusted old blade like mine fetch here?": an `appraise` phrase about a thing an `ownAfter`
        // phrase says is the player's.
        if let end = clues.itemEnd, words.containsAny(vocabulary.phrases(.appraise)),
            vocabulary.phrases(.ownAfter).contains(where: { words.matches($0, at: end) || words.matches($0, at: end + 1) })
        {
            return true
        }
        // "What'd my two mutton pies fetch here?": an `appraise` phrase about a thing named as the player's own.
        if let start = clues.itemStart, words.containsAny(vocabulary.phrases(.appraise)),
            Scene.namedAsOwn(at: start, in: words, vocabulary: vocabulary)
        {
            return true
        }
        // "What would you give me for my fan?", "what can I get for my boots?": a price asked for the player's own
        // item.
        if let start = clues.itemStart, start >= 2, vocabulary.isWord(tokens[start - 1], in: .mine),
            vocabulary.phrases(.priceLeadIns).contains(where: { $0.count == 1 && words.matches($0, at: start - 2) })
        {
            return true
        }
        return firstAffirmed(vocabulary.phrases(.sell), in: words, clues, vocabulary) != nil
    }

    /// Whether the line asks what someone else than the player would pay for a thing of the player's: a question with
    /// a `payVerbs` word that no `firstPerson` word comes up to two words before ("what would a connoisseur like
    /// yourself *pay* for this coin?"; not "what would I pay…"), then, in its part of the sentence, a one-word
    /// `priceLeadIns` word and a `mine` or `pronouns` word before the item, only `weak` words and one other between
    /// ("*for this* tarnished coin", "*for my* old boots", "*for this* rusty old blade").
    static func asksWhatOthersPay(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        let opensWithInquiry = tokens.first.map { vocabulary.isWord($0, in: .inquiry) } ?? false
        guard let item = clues.itemStart, clues.isQuestion || opensWithInquiry else { return false }
        // (`weak` words and one other between: "for this *rusty* old blade".)
        var owner = item - 1
        var others = 0
        while owner > 0, !vocabulary.isWord(tokens[owner], in: .mine), !vocabulary.isWord(tokens[owner], in: .pronouns),
            vocabulary.isWord(tokens[owner], in: .weak) || others == 0
        {
            if !vocabulary.isWord(tokens[owner], in: .weak) { others += 1 }
            owner -= 1
        }
        guard owner >= 1,
            vocabulary.isWord(tokens[owner], in: .mine) || vocabulary.isWord(tokens[owner], in: .pronouns),
            vocabulary.phrases(.priceLeadIns).contains(where: { $0.count == 1 && words.matches($0, at: owner - 1) })
        else { return false }
        let leadIn = owner - 1
        let clause = clues.clauseStarts.filter { $0 <= leadIn }.max() ?? 0
        return tokens.indices[clause..<leadIn].contains { verb in
            vocabulary.isWord(tokens[verb], in: .payVerbs)
                && !tokens[max(clause, verb - 2)..<verb].contains { vocabulary.isWord($0, in: .firstPerson) }
        }
    }

    /// Whether the line asks the NPC to give the player something for a thing of theirs: a `buy` phrase with a
    /// `speaker` word ("give us"), then, in its part of the sentence, no item and no `cheaper` phrase before a
    /// one-word `priceLeadIns` word that is also a `nameStops` word (`for`), followed by a `pronouns` or `mine` word
    /// ("give us whatever you can *for it*", "give me a fair price *for my* sword"). "Give me a pie for my coin" names
    /// what the player wants: a purchase; "let me have a think about it" asks nothing for anything.
    static func asksSomethingForIt(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        // (A lead-in that also ends a name, `for`: "let me have a think *about* it" asks nothing for it.)
        let leadIns = Set(
            vocabulary.phrases(.priceLeadIns).filter { $0.count == 1 }.map { $0.tokens[0] }
                .filter { vocabulary.isWord($0, in: .nameStops) })
        let named = [clues.itemStart].compactMap { $0 } + clues.otherItemStarts
        let asking = vocabulary.phrases(.buy).filter { $0.tokens.contains { vocabulary.isWord($0, in: .speaker) } }
        for phrase in asking {
            for start in affirmed([phrase], in: words, clues, vocabulary) {
                let end = start + phrase.count
                let clauseEnd = clues.clauseStarts.filter { $0 > start }.min() ?? tokens.count
                guard end < clauseEnd,
                    let leadIn = tokens.indices[end..<clauseEnd].first(where: { index in
                        leadIns.contains(tokens[index]) && index + 1 < tokens.count
                            && (vocabulary.isWord(tokens[index + 1], in: .pronouns)
                                || vocabulary.isWord(tokens[index + 1], in: .mine))
                    }),
                    !named.contains(where: { $0 >= end && $0 < leadIn }),
                    !vocabulary.phrases(.cheaper).contains(where: { phrase in
                        words.firstIndex(of: phrase, from: end).map { $0 < leadIn } ?? false
                    })
                else { continue }
                return true
            }
        }
        return false
    }

    /// Whether the line asks the NPC to pay the player what a thing is worth: a `buy` phrase with a `speaker` word
    /// ("give us") or a `payVerbs` word and a `speaker` word ("pay me"), then an `asking` word ("what", "whatever"),
    /// then within five words in the same part of the sentence, naming no item, a one-word `appraise` phrase ("give
    /// us *whatever* it's *worth* in coin", "pay me *what* it's *worth* and it's yours", "give me *what* they're
    /// *worth*"). The NPC offers to buy; "tell me what it's worth" asks only the value.
    static func asksForWhatItIsWorth(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        let appraisals = Set(vocabulary.phrases(.appraise).filter { $0.count == 1 }.map { $0.tokens[0] })
        let named = [clues.itemStart].compactMap { $0 } + clues.otherItemStarts
        var ends = vocabulary.phrases(.buy).filter { $0.tokens.contains { vocabulary.isWord($0, in: .speaker) } }
            .flatMap { phrase in affirmed([phrase], in: words, clues, vocabulary).map { $0 + phrase.count } }
        ends += tokens.indices.dropLast().filter { index in
            vocabulary.isWord(tokens[index], in: .payVerbs) && vocabulary.isWord(tokens[index + 1], in: .speaker)
                && !isNegated(at: index, in: words, clues, vocabulary)
        }.map { $0 + 2 }
        for end in ends where end < tokens.count && vocabulary.isWord(tokens[end], in: .asking) {
            let clauseEnd = clues.clauseStarts.filter { $0 > end }.min() ?? tokens.count
            guard let worth = tokens.indices[(end + 1)..<min(clauseEnd, end + 6)].first(where: {
                appraisals.contains(tokens[$0])
            }) else { continue }
            if !named.contains(where: { $0 > end && $0 < worth }) { return true }
        }
        return false
    }

    /// Whether a `sellVerbs` word at `index` names what the NPC has to sell: a `wantTo` word right before it, and
    /// earlier in its part of the sentence a `listener` word with no `firstPerson` or `speaker` word after it ("what've
    /// *you* got left *to sell* today?", "anything else *you*'re looking *to sell*, sir?"). "I've got a rusty sword to
    /// sell" and "would you like me to sell it to you?" still sell.
    static func hasToSell(at index: Int, in words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard index > 0, vocabulary.isWord(tokens[index - 1], in: .wantTo) else { return false }
        let clause = clues.clauseStarts.filter { $0 <= index }.max() ?? 0
        guard let listener = tokens.indices[clause..<index].last(where: { vocabulary.isWord(tokens[$0], in: .listener) })
        else { return false }
        return !tokens[listener..<index].contains { token in
            vocabulary.isWord(token, in: .firstPerson) || vocabulary.isWord(token, in: .speaker)
        }
    }

    /// Whether the line asks the NPC, in so many words, to buy from the player: a `sellVerbs` word not said to the
    /// speaker ("I'll sell you my sword"), a `buyVerbs` word with the listener before it or a `mine` word after it
    /// ("you buy my boots?"), "buy it off me" or "take these off me" (a `takeVerbs` word that opens its part of the
    /// sentence or follows a `listener` word), or "want to buy it?" asked of the NPC.
    static func asksForASale(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        for (index, token) in tokens.enumerated() where !isNegated(at: index, in: words, clues, vocabulary) {
            let next = index + 1 < tokens.count ? tokens[index + 1] : ""
            let before = tokens[max(0, index - 2)..<index]
            let listenerBefore = before.contains { vocabulary.isWord($0, in: .listener) }
            if vocabulary.isWord(token, in: .sellVerbs) {
                if sellsToSpeaker(at: index, in: words, vocabulary) { continue }
                if listenerBefore { continue }
                if hasToSell(at: index, in: words, clues, vocabulary) { continue }
                return true
            }
            // "Take these two loaves off me, will you?": taken from the speaker, by the NPC (an imperative, or after
            // a `listener` word: not "can I take a rope off you").
            if vocabulary.isWord(token, in: .takeVerbs), !vocabulary.isWord(token, in: .buyVerbs),
                listenerBefore || clues.clauseStarts.contains(index) || index == 0
            {
                let clauseEnd = clues.clauseStarts.filter { $0 > index }.min() ?? tokens.count
                let after = tokens.indices[(index + 1)..<min(clauseEnd, index + 7)]
                if after.contains(where: { away in
                    vocabulary.isWord(tokens[away], in: .fromWords) && away + 1 < clauseEnd
                        && vocabulary.isWord(tokens[away + 1], in: .speaker)
                }) {
                    return true
                }
            }
            if vocabulary.isWord(token, in: .buyVerbs) {
                if listenerBefore || vocabulary.isWord(next, in: .mine) { return true }
                // "Buy it off me?", "buy this from us": bought from the speaker.
                let clauseEnd = clues.clauseStarts.filter { $0 > index }.min() ?? tokens.count
                let after = tokens[(index + 1)..<min(clauseEnd, index + 7)]
                if let away = after.firstIndex(where: { vocabulary.isWord($0, in: .fromWords) }),
                    away + 1 < tokens.count, vocabulary.isWord(tokens[away + 1], in: .speaker)
                {
                    return true
                }
                // "would you like to buy", "want to buy my coin?", "care to buy a fan?": asking the NPC to buy; so is
                // a question that starts a part of a sentence so ("found this old coin, wanna buy it?").
                if index >= 2, vocabulary.isWord(tokens[index - 1], in: .wantTo) {
                    let asker = tokens[max(0, index - 4)..<(index - 1)]
                    if asker.contains(where: { vocabulary.isWord($0, in: .listener) }) || index == 2 { return true }
                    let asked = clues.isQuestion || clues.questionSentences.contains { $0.contains(index) }
                    if asked, clues.clauseStarts.contains(index - 2) { return true }
                }
            }
        }
        return false
    }

    /// A `gift` phrase, or an `offering` word right before the item (an article between), with no `subjects` word
    /// just before it: "here kid, have an apple".
    private static func isGift(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        // "A red apple for you, for all the fishing tips": a thing for the NPC, with no price said, is a gift though
        // another item is named after it.
        if clues.numbers.isEmpty, isMeantForTheListener(words, clues, vocabulary) { return true }
        // "Give you my sword *for* the dagger?": something asked in return is a trade, never a gift.
        if asksSomethingInReturn(words, clues, vocabulary) { return false }
        if firstAffirmed(vocabulary.phrases(.gift), in: words, clues, vocabulary) != nil { return true }
        guard let item = clues.itemStart else { return false }
        let tokens = words.tokens
        return tokens.indices.contains { index in
            guard vocabulary.isWord(tokens[index], in: .offering), index < item, item - index <= 4,
                !isNegated(at: index, in: words, clues, vocabulary)
            else { return false }
            // "Have *an* apple", "have *one of my* loaves": only articles, counts and `of my` between.
            let between = tokens[(index + 1)..<item].allSatisfy { token in
                vocabulary.isWord(token, in: .articles) || vocabulary.isWord(token, in: .quantityGap)
                    || vocabulary.numberWords[token] != nil
            }
            return between && (index == 0 || !vocabulary.isWord(tokens[index - 1], in: .subjects))
        }
    }

    /// Whether a part of the line hands the item it names to the NPC as "a thing for you": the part opens with the
    /// item (only articles, fillers and counts before it), then (perhaps after a copula: "this pie *is* for you") a
    /// one-word `priceLeadIns` word and a `listener` word end it, or an `address` word follows them, in a sentence that does not ask: "here, an apple for you, smith,
    /// keep your strength up", "a red apple for you, Pip, for all the fishing tips". `Scene` turns it into a price
    /// question when the player does not carry the thing and the NPC sells it ("a pie for you, love?").
    static func isMeantForTheListener(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard let item = clues.itemStart, let end = clues.itemEnd, end + 1 < tokens.count,
            !clues.questionSentences.contains(where: { $0.contains(item) })
        else { return false }
        let clause = clues.clauseStarts.filter { $0 <= item }.max() ?? 0
        let partEnd = clues.clauseStarts.filter { $0 > end }.min() ?? tokens.count
        // ("This mutton pie *is* for you": a copula may come between.)
        let lead = vocabulary.isWord(tokens[end], in: .copulas) ? end + 1 : end
        guard lead + 1 < tokens.count,
            tokens[clause..<item].allSatisfy({ token in
                vocabulary.isWord(token, in: .articles) || vocabulary.isWord(token, in: .fillers)
                    || vocabulary.numberWords[token] != nil
            }),
            vocabulary.phrases(.priceLeadIns).contains(where: { $0.count == 1 && words.matches($0, at: lead) }),
            vocabulary.isWord(tokens[lead + 1], in: .listener)
        else { return false }
        return lead + 2 == partEnd || (lead + 2 < partEnd && vocabulary.isWord(tokens[lead + 2], in: .address))
    }

    /// Whether the line asks for something in return for the item it names: a one-word price lead-in (`for`, `für`)
    /// after the item, followed by another item or a number ("my sword for the dagger", "my fan for 10"; not "an
    /// apple for the road"). Only `weak` words and determiners may come between the lead-in and what is asked: "with a
    /// lamp … *at* the bottom was this little silver thing" asks nothing in return.
    private static func asksSomethingInReturn(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        guard let item = clues.itemStart else { return false }
        let tokens = words.tokens
        let leadIns = Set(vocabulary.phrases(.priceLeadIns).filter { $0.count == 1 }.map { $0.tokens[0] })
        let asked = clues.otherItemStarts + clues.numbers.map(\.range.lowerBound)
        return tokens.indices.contains { index in
            index > item && leadIns.contains(tokens[index])
                && asked.contains { start in
                    start > index
                        && tokens[(index + 1)..<start].allSatisfy {
                            vocabulary.isWord($0, in: .weak) || vocabulary.isWord($0, in: .determiners)
                                || vocabulary.isWord($0, in: .quantityGap)
                        }
                }
        }
    }

    /// A price (`would you take 20`, `18 gold?`, `for 20`), or a plea for a better one (`too expensive`).
    private static func isHaggle(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        if clues.numbers.contains(where: { $0.role == .price }) { return true }
        let unmarked = clues.numbers.contains { $0.role == .unmarked }
        if unmarked, words.containsAny(vocabulary.phrases(.bid)) { return true }
        // (Not a number that counts something else: "30 feet?", "rope, 30 feet?", "30 feet of it?")
        let bare = clues.numbers.filter {
            $0.role == .unmarked && !countsSomethingElse($0, in: words, clues: clues, vocabulary: vocabulary)
        }
        if !bare.isEmpty, clues.hasPriceContext, words.count <= vocabulary.limits.shortLine { return true }
        // "30 is steep. 25?", "30? you're having a laugh. twenty and it's a deal": after a price, a last part of the
        // line that opens with a bare number, names no item and is short, bids it (`Scene` takes the last number).
        if clues.hasPriceContext, let last = clues.clauseStarts.filter({ $0 < words.count }).max(), last > 0,
            words.count - last <= vocabulary.limits.shortAnswer,
            bare.contains(where: { $0.range.lowerBound == last }),
            !([clues.itemStart].compactMap { $0 } + clues.otherItemStarts).contains(where: { $0 >= last }),
            !words.containsAny(vocabulary.phrases(.buy)), !words.containsAny(vocabulary.phrases(.howMany))
        {
            return true
        }
        // "Dagger. 18.": a short line naming an item with one bare number after it, larger than any quantity, bids
        // that much for it (a bare small number counts it: "dagger, 2").
        if let item = clues.itemStart, words.count <= vocabulary.limits.shortAnswer, clues.numbers.count == 1,
            let number = bare.first, number.range.lowerBound > item,
            number.value > vocabulary.limits.largestQuantity, !words.containsAny(vocabulary.phrases(.howMany))
        {
            return true
        }
        // "I could stretch to 40", "3 and we're square?", "bit steep. 12 and it's mine": after a price, a short
        // answer naming no item whose one number nothing marks, and that asks for no goods ("I'll take 2", "I want
        // 3"), is a bid.
        if clues.hasPriceContext, clues.itemStart == nil, words.count <= vocabulary.limits.shortAnswer + 1,
            clues.numbers.count == 1, bare.count == 1,
            !words.containsAny(vocabulary.phrases(.buy)), !words.containsAny(vocabulary.phrases(.want)),
            !words.containsAny(vocabulary.phrases(.howMany))
        {
            return true
        }
        // "Is the mill cellar lower down than the river?": a question about something else, named after an article,
        // compares that thing and pleads for nothing.
        if asksAboutSomethingElse(words, clues, vocabulary) { return false }
        // "Go on, knock a bit off", "do me a better one", "can you go any cheaper": after a quote, a plea said to the
        // NPC without a price word.
        if clues.hasPriceContext, pleadsForLess(words, clues, vocabulary) { return true }
        guard !clues.picksByPrice, words.containsAny(vocabulary.phrases(.cheaper)) else { return false }
        // "Is the rope expensive?" asks what it costs; "too expensive!" with an offer on the table haggles.
        if let first = words.tokens.first, vocabulary.isWord(first, in: .questions), clues.itemStart != nil,
            !clues.hasPendingOffer
        {
            return false
        }
        return true
    }

    /// Whether a bare number counts something else than an item: the word right after it, in its part of the
    /// sentence and not an item's name, is none that leads on to a thing (`fillers`, `articles`, `determiners`,
    /// `quantityGap`, `please`, `gold`, `things`, `pronouns`, `address`, `nameStops`): "two *nights*", "30 *feet*".
    static func countsSomethingElse(
        _ number: SpokenNumber, in words: Words, clues: Clues, vocabulary: Vocabulary
    ) -> Bool {
        let next = number.range.upperBound
        let itemStarts = [clues.itemStart].compactMap { $0 } + clues.otherItemStarts
        guard number.role == .unmarked, next < words.count, !itemStarts.contains(next),
            !clues.clauseStarts.contains(next)
        else { return false }
        // "Found three green old coins": an item named within three words after it, in its part of the sentence and
        // with no `nameStops` word between, is what it counts ("three *green* old coins", not "two nights *in* the
        // cellar, a pie").
        let clauseEnd = clues.clauseStarts.filter { $0 > next }.min() ?? words.count
        if let item = itemStarts.filter({ $0 > next && $0 <= next + 3 && $0 < clauseEnd }).min(),
            !words.tokens[next..<item].contains(where: { vocabulary.isWord($0, in: .nameStops) })
        {
            return false
        }
        let word = words.tokens[next]
        // (A word that ends a name leads on too: "I'll grab a couple *if* you've got 'em".)
        let leadsOn: [Lexicon.WordSet] = [
            .fillers, .articles, .determiners, .quantityGap, .please, .gold, .things, .pronouns, .address, .nameStops,
        ]
        return !leadsOn.contains { vocabulary.isWord(word, in: $0) }
    }

    /// Whether the line is a question about something the catalog does not sell: it opens with a `questions` word
    /// and a `determiners` word, and names no item and says no pronoun ("*is the* mill cellar lower down than the
    /// river?").
    private static func asksAboutSomethingElse(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard tokens.count > 2, clues.itemStart == nil, !clues.saysPronoun else { return false }
        return vocabulary.isWord(tokens[0], in: .questions) && vocabulary.isWord(tokens[1], in: .determiners)
    }

    /// Whether a part of the line asks the NPC for a lower price without naming one: a `discountWords` word that is
    /// not the first word of its part of the sentence, with a `listener` or `speaker` word before it there ("can
    /// *you* go any *lower*", "do *us* a *better* one", "any chance of it *cheaper* for *me*") or after a verb that
    /// opens the part ("*knock* a bit *off*", "*shave* some *off*"), not negated, in a line that names no number
    /// and no item other than the one the talk is about. "I'm *off*" (a subject opens it) and "*better* get moving"
    /// do not plead.
    static func pleadsForLess(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        guard clues.numbers.isEmpty, clues.otherItemStarts.isEmpty else { return false }
        let tokens = words.tokens
        for index in tokens.indices where vocabulary.isWord(tokens[index], in: .discountWords) {
            guard !isNegated(at: index, in: words, clues, vocabulary) else { continue }
            let clause = clues.clauseStarts.filter { $0 <= index }.max() ?? 0
            var first = clause
            while first < index,
                vocabulary.isWord(tokens[first], in: .orderLeadIns) || vocabulary.isWord(tokens[first], in: .yesWords)
                    || vocabulary.isWord(tokens[first], in: .please)
            {
                first += 1
            }
            guard first < index else { continue }
            let before = tokens[first..<index]
            if before.contains(where: { vocabulary.isWord($0, in: .listener) || vocabulary.isWord($0, in: .speaker) }) {
                return true
            }
            // "Any chance of *it* cheaper?": a question about the thing quoted, not one that opens with a copula ("is
            // that one better?" compares).
            if clues.isQuestion, before.contains(where: { vocabulary.isWord($0, in: .pronouns) }),
                !vocabulary.isWord(tokens[first], in: .copulas), !vocabulary.isWord(tokens[first], in: .questions)
            {
                return true
            }
            // An imperative: the part opens with a verb, not a subject, a question word, a copula or an article.
            let opener = tokens[first]
            let opensWithVerb =
                !vocabulary.isWord(opener, in: .subjects) && !vocabulary.isWord(opener, in: .firstPerson)
                && !vocabulary.isWord(opener, in: .inquiry) && !vocabulary.isWord(opener, in: .copulas)
                && !vocabulary.isWord(opener, in: .determiners) && !vocabulary.isWord(opener, in: .articles)
                && !vocabulary.isWord(opener, in: .pronouns) && !vocabulary.isWord(opener, in: .negations)
                && !vocabulary.isWord(opener, in: .questions) && vocabulary.numberWords[opener] == nil
                && clues.itemStart.map({ $0 > first }) ?? true
            if opensWithVerb, index - first <= 4 { return true }
        }
        return false
    }

    /// Whether the line asks an item's price with a verb of costing no price phrase has: it opens with an `inquiry`
    /// word, or the part of the sentence that names the item does (after `orderLeadIns` words: a greeting before it,
    /// "good morning to you! *what*'s a horseshoe *running* these days?"), and that part holds a `costVerbs` word
    /// ("what's an iron dagger *run* these days", "what are you *parting* with the cheese for", "how much would a
    /// trout *sting* me?").
    static func asksCostWithVerb(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard let item = clues.itemStart, let first = tokens.first else { return false }
        let clause = clues.clauseStarts.filter { $0 <= item }.max() ?? 0
        var opener = clause
        while opener < item, vocabulary.isWord(tokens[opener], in: .orderLeadIns) { opener += 1 }
        guard vocabulary.isWord(first, in: .inquiry) || vocabulary.isWord(tokens[opener], in: .inquiry) else {
            return false
        }
        let end = clues.clauseStarts.filter { $0 > item }.min() ?? tokens.count
        // (Not a verb of an `introduce` phrase: "who *runs* this forge?" asks who.)
        let introducing = vocabulary.phrases(.introduce).flatMap { phrase in
            words.firstIndex(of: phrase).map { Array($0..<($0 + phrase.count)) } ?? []
        }
        return tokens.indices[clause..<end].contains {
            vocabulary.isWord(tokens[$0], in: .costVerbs) && !introducing.contains($0)
        }
    }

    /// Whether the phrase at `index` (of `length` words) is asked about with an `asking` word before it in the same
    /// part of the sentence, and no item is named after it there: "*what* should I take with me?", "*what* will I
    /// need?" ask what to get, not for something named earlier ("I'm after the locket. What should I take?").
    private static func asksWhat(
        before index: Int, length: Int, in words: Words, _ clues: Clues, _ vocabulary: Vocabulary
    ) -> Bool {
        let start = clues.clauseStarts.filter { $0 <= index }.max() ?? 0
        guard words.tokens[start..<index].contains(where: { vocabulary.isWord($0, in: .asking) }) else { return false }
        let end = clues.clauseStarts.filter { $0 > index }.min() ?? words.count
        let named = ([clues.itemStart].compactMap { $0 } + clues.otherItemStarts).contains {
            $0 >= index + length && $0 < end
        }
        return !named
    }

    /// Whether a `whereWords` word comes before `index` in its part of the sentence: "*where* can I buy rope?" asks
    /// where, and buys nothing.
    private static func asksWhere(before index: Int, in words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let start = clues.clauseStarts.filter { $0 <= index }.max() ?? 0
        return words.tokens[start..<index].contains { vocabulary.isWord($0, in: .whereWords) }
    }

    /// Whether a request ending at `end` takes something other than the item the line names: a word that is no
    /// article, count or filler, then a `nameStops` word that is no `quantityGap` word, before the item ("can I have
    /// *a look at* the lantern", "give me *a minute with* the rope"). "Give me two of your best candles" still buys.
    private static func takesSomethingElse(
        after end: Int, in words: Words, _ clues: Clues, _ vocabulary: Vocabulary
    ) -> Bool {
        // (The first thing named after the phrase: "I'll take *an ale* and a wedge of cheese" takes the ale.)
        guard let item = ([clues.itemStart].compactMap { $0 } + clues.otherItemStarts).filter({ $0 > end }).min()
        else { return false }
        let tokens = words.tokens
        var sawOtherWord = false
        for index in end..<item {
            let word = tokens[index]
            let plain = isPlain(at: index, in: words, clues, vocabulary)
            if sawOtherWord, vocabulary.isWord(word, in: .nameStops), !vocabulary.isWord(word, in: .quantityGap) {
                return true
            }
            if !plain { sawOtherWord = true }
        }
        return false
    }

    /// Whether the word at `index` only leads up to a thing's name: a filler, an article, a determiner, a
    /// `quantityGap` word or part of a number ("*two of your* candles").
    private static func isPlain(at index: Int, in words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let word = words.tokens[index]
        return vocabulary.isWord(word, in: .fillers) || vocabulary.isWord(word, in: .articles)
            || vocabulary.isWord(word, in: .determiners) || vocabulary.isWord(word, in: .quantityGap)
            || clues.numbers.contains { $0.range.contains(index) }
    }

    /// How a line asks to buy: with a `buy` phrase, or by wanting something.
    private enum Buying: Equatable {
        /// A `buy` phrase, or a `want` phrase with `to` and a `wantVerbs` word: "I'll take", "I want to buy".
        case said
        /// A `want` phrase with the thing wanted: "I need a lantern", "I'd like some wine".
        case wanted
        /// An imperative that hands over the thing named at this word: "chuck us a trout" (`handsOver`).
        case handed(Int)
    }

    /// Whether the line asks for an item it names (or `it`) as a request: a `requestModals` word and a `firstPerson`
    /// word ("can I"), a `firstPerson` word and a `futureModals` word ("I'll"), or a `permitVerbs` word and a `speaker`
    /// word ("let me", "lemme"), then a `takeVerbs` word, at most one word apart ("can I *just* get"), not negated,
    /// not a question about what to get ("what can I get for a fiver?"), and the item named after the verb with
    /// nothing but articles and counts between ("can I grab *two* ales", "I'll grab one of yours", "lemme get a
    /// beer"; "can I have a look at the lantern" asks to see it).
    private static func requests(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard clues.itemStart != nil || clues.saysPronoun else { return false }
        let openers: [(Lexicon.WordSet, Lexicon.WordSet)] = [
            (.requestModals, .firstPerson), (.firstPerson, .futureModals), (.permitVerbs, .speaker),
        ]
        for index in tokens.indices.dropLast(2) {
            guard openers.contains(where: { first, second in
                vocabulary.isWord(tokens[index], in: first) && vocabulary.isWord(tokens[index + 1], in: second)
            }) else { continue }
            let verbs = tokens.indices[(index + 2)..<min(tokens.count, index + 4)]
            guard let verb = verbs.first(where: { vocabulary.isWord(tokens[$0], in: .takeVerbs) }),
                !isNegated(at: verb, in: words, clues, vocabulary),
                !asksWhat(before: index, length: verb + 1 - index, in: words, clues, vocabulary),
                !asksWhere(before: index, in: words, clues, vocabulary)
            else { continue }
            // Only articles, counts and the like between the verb and the thing: "can I have *a look at* the lantern"
            // asks to see it.
            // (Or a count of what the line is about, right after the verb: "I'll grab *a couple* if you've got 'em".)
            let counted = clues.numbers.first { $0.range.lowerBound > verb && $0.range.lowerBound <= verb + 2 }
            let pointed = [
                tokens[(verb + 1)...].firstIndex(where: { vocabulary.isWord($0, in: .pronouns) }),
                counted.map { $0.range.upperBound - 1 },
            ].compactMap { $0 }.min()
            let thing = clues.itemStart.flatMap { $0 > verb ? $0 : nil } ?? pointed
            guard let thing else { continue }
            // A pronoun or a count is the thing only where its name would end: "I'll grab *one* of yours", "can I get
            // *it*?"; not "let me get *this* straight".
            if thing != clues.itemStart, thing + 1 < tokens.count, !clues.clauseStarts.contains(thing + 1) {
                let next = tokens[thing + 1]
                guard vocabulary.isWord(next, in: .nameStops) || vocabulary.isWord(next, in: .please)
                    || vocabulary.isWord(next, in: .speaker) || vocabulary.isWord(next, in: .pronouns)
                else { continue }
            }
            if tokens.indices[(verb + 1)..<thing].allSatisfy({ isPlain(at: $0, in: words, clues, vocabulary) }) {
                return true
            }
        }
        return false
    }

    /// Whether a part of the line orders an item it names with an imperative: a `handVerbs` word that opens the part
    /// (only `orderLeadIns`, `yesWords` and `please` words before it there), then at most a `speaker` word and a
    /// `handParticles` word, then only articles and counts, then the item: "so *chuck us a* trout, would you?", "go
    /// on, *stick a* loaf in a bag for me", "*hand over a* horseshoe". Not negated ("don't chuck me a trout"), not
    /// handed to someone else ("give bread *to your mother*": the `give` command's `recipient` word and no `speaker` word), and not a verb in the
    /// middle of a statement ("I'd stick a candle in the window").
    /// - Returns: Where the item handed is named, or `nil`.
    private static func handsOver(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Int? {
        let tokens = words.tokens
        let items = [clues.itemStart].compactMap { $0 } + clues.otherItemStarts
        guard !items.isEmpty else { return nil }
        for verb in tokens.indices where vocabulary.isWord(tokens[verb], in: .handVerbs) {
            // The words before the verb in its part of the sentence are all lead-ins, or those right before it are
            // and start with a joiner ("take my coin *and* hand over a horseshoe").
            let clause = clues.clauseStarts.filter { $0 <= verb }.max() ?? 0
            var first = verb
            while first > clause,
                vocabulary.isWord(tokens[first - 1], in: .orderLeadIns) || vocabulary.isWord(tokens[first - 1], in: .yesWords)
                    || vocabulary.isWord(tokens[first - 1], in: .please)
            {
                first -= 1
            }
            let opens = first == clause || (first < verb && vocabulary.joiners.contains(tokens[first]))
            guard opens, !isNegated(at: verb, in: words, clues, vocabulary) else { continue }
            var next = verb + 1
            if next < tokens.count, vocabulary.isWord(tokens[next], in: .speaker) { next += 1 }
            if next < tokens.count, vocabulary.isWord(tokens[next], in: .handParticles) { next += 1 }
            // "Wrap me up *all your* candles", "bag up *every* trout you have": every one of them (`Scene` counts them).
            if let every = vocabulary.phrases(.everything).filter({ words.matches($0, at: next) }).map(\.count).max() {
                next += every
            }
            guard let item = items.filter({ $0 >= next }).min() else { continue }
            // "Give bread to your mother": handed to someone else than the speaker, it is no order.
            let end = item == clues.itemStart ? clues.itemEnd ?? item + 1 : item + 1
            if end + 1 < tokens.count, vocabulary.recipients.contains(tokens[end]),
                !vocabulary.isWord(tokens[end + 1], in: .speaker)
            {
                continue
            }
            if tokens.indices[next..<item].allSatisfy({ isPlain(at: $0, in: words, clues, vocabulary) }) {
                return item
            }
        }
        return nil
    }

    /// Whether the line wishes to buy the thing it names: a `wishVerbs` word with a `firstPerson` word up to three
    /// words before it in its part of the sentence, right before a `wantTo` word and a `wantVerbs` word, and the item
    /// named after them, not negated and not in a part that opens with an `inquiry` word: "I'm *hoping to get* a
    /// lantern before dark", "we're *aiming to pick up* some rope". "I'm hoping the lantern holds out" and "I'm hoping
    /// to get down to the cellar" wish nothing of the NPC.
    static func wishesToBuy(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        guard let item = clues.itemStart else { return false }
        for wish in tokens.indices where vocabulary.isWord(tokens[wish], in: .wishVerbs) {
            guard wish + 2 < tokens.count,
                vocabulary.isWord(tokens[wish + 1], in: .wantTo), vocabulary.isWord(tokens[wish + 2], in: .wantVerbs),
                !(wish + 3 < tokens.count && vocabulary.isDirection(tokens[wish + 3]))
            else { continue }
            let clause = clues.clauseStarts.filter { $0 <= wish }.max() ?? 0
            // (Only articles, determiners, counts and `quantityGap` words between the verb and the thing: "get *two of
            // your* pies", not "get rid of this rusty sword".)
            let between = tokens[(wish + 3)..<max(wish + 3, item)].allSatisfy { word in
                vocabulary.isWord(word, in: .articles) || vocabulary.isWord(word, in: .determiners)
                    || vocabulary.isWord(word, in: .quantityGap) || vocabulary.numberWords[word] != nil
                    || word.allSatisfy(\.isNumber)
            }
            guard tokens[max(clause, wish - 3)..<wish].contains(where: { vocabulary.isWord($0, in: .firstPerson) }),
                item > wish + 2, between, (clues.clauseStarts.filter { $0 > wish }.min() ?? tokens.count) > item,
                !isNegated(at: wish, in: words, clues, vocabulary),
                !vocabulary.isWord(tokens[clause], in: .inquiry)
            else { continue }
            return true
        }
        return false
    }

    /// `I'll take the lantern`, `give me two loaves`, `I want to buy rope`; `I want to know` is not buying, nor is
    /// `I don't want to buy it`.
    private static func buying(_ words: Words, _ clues: Clues, _ vocabulary: Vocabulary) -> Buying? {
        let said = vocabulary.phrases(.buy).flatMap { phrase in
            affirmed([phrase], in: words, clues, vocabulary).map { (start: $0, end: $0 + phrase.count) }
        }
        if !said.isEmpty {
            // "What will you give me if I find it?" and "what should I take with me?" ask; "what a lantern! give me
            // it", "what I'll take is the lantern" and "what should I take? I'll take the rope" name what they buy.
            // "Where can I buy rope?" asks where; "can I have a look at the lantern?" takes a look.
            return said.contains { phrase in
                !asksWhat(before: phrase.start, length: 0, in: words, clues, vocabulary)
                    && !asksWhere(before: phrase.start, in: words, clues, vocabulary)
                    && !takesSomethingElse(after: phrase.end, in: words, clues, vocabulary)
            } ? .said : nil
        }
        // "Can I grab two ales", "could we order a pie", "may I just get the rope": a request for something named.
        if requests(words, clues, vocabulary) { return .said }
        // "Chuck us a trout, would you?", "go on, stick a loaf in a bag for me": an order said as an imperative.
        if let item = handsOver(words, clues, vocabulary) { return .handed(item) }
        // "Sell it to me", "sell that one to us".
        if words.tokens.indices.contains(where: { index in
            vocabulary.isWord(words.tokens[index], in: .sellVerbs) && sellsToSpeaker(at: index, in: words, vocabulary)
                && !isNegated(at: index, in: words, clues, vocabulary)
        }) {
            return .said
        }
        if wishesToBuy(words, clues, vocabulary) { return .said }
        for phrase in vocabulary.phrases(.want) {
            guard let index = words.firstIndex(of: phrase), !isNegated(at: index, in: words, clues, vocabulary) else {
                continue
            }
            let after = index + phrase.count
            // "What will I need?", "what do I want for the cellar?": a question about what is needed buys nothing.
            if asksWhat(before: index, length: phrase.count, in: words, clues, vocabulary) { continue }
            // "I want *you* to have one of my loaves": what the player wants the NPC to do, not to buy.
            if after < words.count, vocabulary.isWord(words.tokens[after], in: .listener) { continue }
            if after < words.count, vocabulary.isWord(words.tokens[after], in: .wantTo) {
                // "I need to get a lantern" buys; "I need to get down into the cellar" goes somewhere.
                if after + 1 < words.count, vocabulary.isWord(words.tokens[after + 1], in: .wantVerbs),
                    !(after + 2 < words.count && vocabulary.isDirection(words.tokens[after + 2]))
                {
                    return .said
                }
                continue
            }
            // "I need a lantern" buys, and so does "I'd like some wine" (which the NPC then does not have); "I need
            // a light for the cellar" names nothing the catalog knows and goes on.
            if clues.itemStart != nil || clues.saysPronoun || clues.endsWithUnknownThing { return .wanted }
        }
        return nil
    }
}

/// What a question about the conversation's past asks about.
enum RecallTopic: CaseIterable, Sendable {
    /// The player's name.
    case name
    /// The player's family name.
    case surname
    /// Where the player said they are from.
    case origin
    /// What the player said they do for a living.
    case occupation
    /// What was agreed.
    case agreed
    /// What was bought, sold or given.
    case dealings
    /// What the player asked about.
    case asked
    /// Whether the NPC remembers the player.
    case met

    /// The lexicon's phrases for it.
    var table: Lexicon.PhraseTable {
        switch self {
        case .name: .recallName
        case .surname: .recallSurname
        case .origin: .recallOrigin
        case .occupation: .recallOccupation
        case .agreed: .recallAgreed
        case .dealings: .recallDealings
        case .asked: .recallAsked
        case .met: .recallMet
        }
    }
}
