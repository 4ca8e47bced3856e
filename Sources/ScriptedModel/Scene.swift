import GameWorld
import LanguageModels
import NPCContract

/// One step of a turn as the scripted model understands it: the conversation, this turn's intent, the item it is
/// about, the numbers said, what the NPC notices, and which tools it may call.
struct Scene: Sendable {
    /// The item a line, event or offer is about.
    enum Focus: Sendable, Equatable {
        /// No item.
        case none
        /// One catalog item.
        case item(ItemID)
        /// Several catalog items the words fit equally.
        case ambiguous([ItemID])
        /// Something the catalog does not know, by the player's words (`unicorn`).
        case unknown(String)

        /// The item, when there is exactly one.
        var item: ItemID? {
            if case .item(let id) = self { return id }
            return nil
        }
    }

    /// The transcript, read.
    private(set) var conversation: Conversation
    /// The intent of this turn's prompt.
    private(set) var intent: DialogueIntent
    /// Whether the prompt is an event the NPC witnessed (rules without an intent never answer it).
    let isEvent: Bool
    /// The player's words, for a spoken prompt.
    let words: Words?
    /// The item the prompt is about.
    let focus: Focus
    /// A quantity the player said.
    let quantity: Int?
    /// A price (total gold) the player said.
    let price: Int?
    /// The first number the player said.
    let number: Int?
    /// Items the NPC notices the player carries (for greetings and returns).
    private(set) var noticed: [ItemID]
    /// The NPC tools the model may call now.
    private(set) var tools: Set<NPCTool>
    /// What a question about the conversation's past asks (for `recall`).
    let recall: RecallTopic?
    /// The other topics the same question asks about ("what's my name, and what did I buy?"), answered after `recall`.
    let recallAlso: [RecallTopic]
    /// Whether the player's line names a catalog item, as a question about it would: by a name, or by a
    /// description in a line that asks ("them things you smoke over alder?"); not in a statement that names it after
    /// a subject or a `mine` word, before a question about something else ("my mum swore the moon was made of
    /// cheese. what d'you reckon?"), which asks nothing about the item.
    let namesItem: Bool
    /// What a line naming only a category asks (`askPrice` or `askStock`) when no topic rule takes it.
    let categoryIntent: DialogueIntent?
    /// Whether the line asks how many the NPC has ("how many pies have you got left?").
    let asksCount: Bool
    /// Whether a `sell` line asks what the NPC would pay rather than asking it to buy ("what would you pay for my
    /// sword?"): the NPC names its price and makes no offer.
    let asksValue: Bool
    /// Whether the model is not sure a `buy` line asks to buy (`OrderEvidence`): the NPC looks the item up and asks
    /// back (`clarify`) instead of offering.
    let isUnsure: Bool
    /// Whether a sentence instructing a machine was left out of the line (`Utterance`).
    let leftOutInstructions: Bool
    /// The name the player gives in this turn's line ("call me Dax"), if any.
    let nameGiven: String?
    /// The whole name the player gives in this turn's line ("my name's Hal Brightwater"), if any.
    let fullNameGiven: String?
    /// Where the player says they are from in this turn's line ("I'm from Eastmarch"), if anywhere.
    let originGiven: String?
    /// What the player says they do for a living in this turn's line ("I work as a scribe"), if anything.
    let occupationGiven: String?
    /// The lexicon's `negations` words: a rule's keyword with one just before it is not said.
    let negations: Set<String>
    /// Who the line's parts speak of, for rules whose keywords must be said of the player (`aboutPlayer`).
    let persons: Persons

    /// The words that say who a part of a line is about, and where the parts start: a rule's keyword that must be
    /// said of the player (`DialogueCondition.aboutPlayer`) counts only where the nearest of them before it is none
    /// or a `firstPerson` word.
    struct Persons: Sendable {
        /// The lexicon's `firstPerson` words (`i`, `we`).
        var firstPerson: Set<String> = []
        /// The lexicon's `listener` (`you`) and `thirdPerson` words (`he`, `she`) and the words of the NPC's names.
        var others: Set<String> = []
        /// The lexicon's `mine` words (`my`).
        var mine: Set<String> = []
        /// Where the line's sentences and comma-separated parts start.
        var clauseStarts: Set<Int> = []

        /// Whether the words at `start` are said of the player: the nearest `firstPerson`, other or `mine` word before
        /// it in its part of the line is none, a `firstPerson` word, or a `mine` word right before them ("*my* belly's
        /// rumbling"; "*my* mum is starving" speaks of someone else).
        func saysOfThePlayer(at start: Int, in words: Words) -> Bool {
            let clause = clauseStarts.filter { $0 <= start }.max() ?? 0
            let tokens = words.tokens
            guard
                let nearest = tokens.indices[clause..<start].last(where: {
                    firstPerson.contains(tokens[$0]) || others.contains(tokens[$0]) || mine.contains(tokens[$0])
                })
            else { return true }
            if mine.contains(tokens[nearest]) { return nearest + 1 == start }
            return firstPerson.contains(tokens[nearest])
        }
    }
    /// Whether the line names the item as the player's own: a `mine` word right before its name, a `weak` word
    /// allowed between ("fancy *my* compass for 10?", "*my* old compass is yours for 10").
    let namesOwnItem: Bool
    /// What the player gives besides gold for the item in focus, in a swap ("my rusty sword plus 100 gold for the
    /// silver sword": the Rusty Sword); `nil` when the line proposes none.
    let partExchange: ItemStack?
    /// The things a `buy` line orders when it names more than one the NPC sells ("a pie and an ale, please"), in the
    /// order named; empty otherwise. An offer is for one thing: the NPC offers the first (the focus) and says the rest
    /// come after, rather than offer one of them as if it were the whole order.
    let orderedItems: [ItemID]

    /// Intents with a built-in flow of tool calls; rules without an intent never answer them.
    static let flowIntents: Set<DialogueIntent> = [.askStock, .askPrice, .buy, .haggle, .sell, .offerGift]

    /// Intents rules without an intent never answer: the flows, and questions about the past (`recall`, answered
    /// from the conversation's facts), so that "how many fish did I buy?" is not taken for a topic about fish.
    static let intentsNeedingARule: Set<DialogueIntent> = flowIntents.union([.recall])

    /// Intents whose item may come from earlier in the conversation.
    private static let tradeIntents: Set<DialogueIntent> = [.askPrice, .buy, .haggle, .sell, .offerGift]

    /// Reads a request.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - npc: The NPC the model plays.
    ///   - world: The world.
    ///   - resolver: Finds items in words.
    ///   - memory: What earlier requests read of the conversation, or `nil` to read all of it.
    ///   - readings: The scenes of earlier requests, whose reading of the player's line this one reuses when its
    ///     line and the conversation before it are the same (the rounds of one turn), or `nil` to read anew.
    init(
        request: GenerationRequest, npc: NPC, world: World, resolver: ItemResolver, memory: ConversationMemory? = nil,
        readings: SceneReadings? = nil
    ) {
        let conversation = Conversation(request.transcript, resolver: resolver, memory: memory)
        let tools = Set(request.tools.compactMap { NPCTool(rawValue: $0.name) })
        if !conversation.isEvent, let line = conversation.line,
            let earlier = readings?.scene(for: line, after: conversation.history)
        {
            // Everything but what this turn's calls may change: the conversation, the tools, what the NPC notices.
            self = earlier
            self.conversation = conversation
            self.tools = tools
            switch intent {
            case .greet, .greetAgain, .returning: noticed = conversation.noticedItems(in: world)
            default: noticed = []
            }
            return
        }
        self.init(conversation: conversation, tools: tools, npc: npc, world: world, resolver: resolver)
        if !conversation.isEvent, let line = conversation.line {
            readings?.remember(self, for: line, after: conversation.history)
        }
    }

    /// Reads a conversation's turn.
    private init(conversation: Conversation, tools: Set<NPCTool>, npc: NPC, world: World, resolver: ItemResolver) {
        self.conversation = conversation
        self.tools = tools
        let pendingItem = conversation.pendingOffer?.item
        negations = resolver.vocabulary.words(.negations)
        var persons = Persons()

        if conversation.isEvent {
            let event = conversation.event
            isEvent = true
            self.persons = persons
            recall = nil
            recallAlso = []
            asksValue = false
            isUnsure = false
            leftOutInstructions = false
            namesOwnItem = false
            orderedItems = []
            partExchange = nil
            nameGiven = nil
            fullNameGiven = nil
            originGiven = nil
            occupationGiven = nil
            namesItem = false
            categoryIntent = nil
            asksCount = false
            words = Self.words(ofWitnessed: event, resolver: resolver)
            quantity = event?.quantity
            price = nil
            number = nil
            switch event {
            case .arrived?: intent = conversation.responsesBefore > 0 ? .returning : .greet
            case .left?: intent = .farewell
            case .gave?: intent = .gift
            case .offerAccepted?: intent = .offerAccepted
            case .offerDeclined?: intent = .offerDeclined
            case .arrivedHere?, .flagSet?, .happened?, nil: intent = .gameEvent
            }
            if let item = event?.item {
                focus = .item(item)
            } else if let settled = conversation.settledOffer?.item {
                focus = .item(settled)
            } else if let pendingItem {
                focus = .item(pendingItem)
            } else {
                focus = .none
            }
        } else {
            isEvent = false
            let vocabulary = resolver.vocabulary
            let utterance = Utterance(conversation.line ?? "", npcNames: Self.names(of: npc), resolver: resolver)
            let words = utterance.words
            self.words = words
            persons.firstPerson = vocabulary.words(.firstPerson)
            persons.others = vocabulary.words(.listener).union(vocabulary.words(.thirdPerson)).union(Self.names(of: npc))
            persons.mine = vocabulary.words(.mine)
            persons.clauseStarts = utterance.clauseStarts
            self.persons = persons
            // ("What does everybody call me round here?" asks the name and gives none.)
            let fullNameGiven =
                IntentDetector.asksWhatPlayerIsCalled(utterance.words, clauseStarts: utterance.clauseStarts, vocabulary)
                ? nil : vocabulary.names.fullName(in: conversation.line ?? "")
            let nameGiven = fullNameGiven.map(PlayerNameFinder.calledName)
            self.fullNameGiven = fullNameGiven
            let originGiven = vocabulary.names.origin(in: conversation.line ?? "")
            let occupationGiven = vocabulary.names.occupation(in: conversation.line ?? "")
            self.nameGiven = nameGiven
            self.originGiven = originGiven
            self.occupationGiven = occupationGiven
            leftOutInstructions = utterance.leftOutInstructions
            var mentions = resolver.mentions(in: words)
            // "Hand me that tankard you're polishing": a thing pointed at in the NPC's hands is no goods asked for.
            let inHand = mentions.filter { Self.isInHand($0.range, in: words, vocabulary: vocabulary) }.map(\.range)
            mentions.removeAll { inHand.contains($0.range) }
            // "I'll take them long black pincers you hold the hot metal with", "one of them hand-sized things with the
            // shiny crust, please": a thing described rather than named is a mention of the item it describes.
            let description = Self.description(
                in: words, mentions: mentions, npc: npc, world: world, carried: conversation.latestBefore,
                clauseStarts: utterance.clauseStarts, resolver: resolver)
            if let description {
                mentions = Self.mentions(mentions, describing: description)
            }
            // A head word ("silver blade") that is also a category's word ("blades").
            let categoryWord =
                mentions.first.map { best in
                    best.strength < 3
                        && resolver.categories(in: words)?.text
                            == best.range.map({ words.tokens[$0] }).joined(separator: " ")
                } ?? false
            var numbers = utterance.reviewed(
                SpokenNumber.all(in: words, itemStarts: Set(mentions.map(\.range.lowerBound)), vocabulary: vocabulary),
                mentions: mentions, vocabulary: vocabulary)
            // "Thirty feet of that hemp stuff": a number word right before a description that its item's description
            // says too is part of the description, not a count.
            if let description, let item = world.items[description.item] {
                let described = Set(Words.tokenize(item.description))
                numbers.removeAll { number in
                    number.range.upperBound == description.range.lowerBound
                        && words.tokens[number.range].allSatisfy(described.contains)
                }
            }
            // "A pair of boots": a pair of a thing whose name is already a pair (the word said is the last word of its
            // name, "Leather Boots") is one of it; "a pair of daggers" is two.
            numbers.removeAll { number in
                guard words.tokens[number.range].contains(where: { vocabulary.isWord($0, in: .pairWords) }),
                    let mention = mentions.first(where: { $0.range.lowerBound == number.range.upperBound }),
                    let said = mention.range.last.map({ words.tokens[$0] })
                else { return false }
                return mention.items.contains { item in
                    world.items[item].map { Words($0.name).tokens.last == said } ?? false
                }
            }
            let unknownRange = mentions.isEmpty ? resolver.unknownThingRange(in: words) : nil
            let unknownThing = unknownRange.map { words.tokens[$0].joined(separator: " ") }
            let pronoun = words.tokens.contains { vocabulary.isWord($0, in: .pronouns) }
            var named = mentions.isEmpty ? resolver.categories(in: words) : nil
            // (Nor is it a category asked about: "that tankard" is no question about drinks.)
            if let category = named,
                inHand.contains(where: { words.tokens[$0].joined(separator: " ") == category.text })
            {
                named = nil
            }
            let byPrice = Self.priceDescriptor(
                in: words, vocabulary: vocabulary, namesSomething: !mentions.isEmpty || named != nil)
            var clues = IntentDetector.Clues()
            clues.picksByPrice = byPrice != nil
            clues.numbers = numbers
            clues.itemStart = mentions.first.map { Self.start(of: $0, among: mentions) }
            clues.itemEnd = mentions.first?.range.upperBound
            clues.otherItemStarts = mentions.dropFirst().map(\.range.lowerBound)
            clues.namesSomething = !mentions.isEmpty || unknownThing != nil || pronoun
            clues.saysPronoun = pronoun
            clues.endsWithUnknownThing = unknownRange?.upperBound == words.count
            clues.isQuestion = utterance.asks
            // (Not one the player answers themself: "right, want to buy it? I do".)
            clues.questionSentences = utterance.sentences.indices.filter { index in
                let sentence = utterance.sentences[index]
                guard sentence.isQuestion else { return false }
                guard index + 1 < utterance.sentences.count else { return true }
                let next = utterance.sentences[index + 1].range.lowerBound
                return !vocabulary.isWord(words.tokens[next], in: .firstPerson)
            }.map { utterance.sentences[$0].range }
            clues.clauseStarts = utterance.clauseStarts
            clues.soundsLikeAnOrder = utterance.exclaims || utterance.hails
            clues.givesOrigin = originGiven != nil
            clues.givesOccupation = occupationGiven != nil
            clues.hasPriceContext = conversation.pendingOffer != nil || conversation.pricesQuotedBefore
            clues.hasPendingOffer = conversation.pendingOffer != nil
            let reading = IntentDetector.reading(of: words, clues: clues, vocabulary: vocabulary)
            var intent = reading.intent
            // "My rusty sword plus 100 gold for the silver sword": a thing of the player's (and gold) for one the NPC
            // sells is a swap, bid like a price.
            let swap =
                [.haggle, .sell, .buy, .offerGift, .unknown].contains(intent)
                ? Self.swap(
                    in: words, mentions: mentions, numbers: numbers, npc: npc, world: world, conversation: conversation,
                    vocabulary: vocabulary) : nil
            if swap != nil { intent = .haggle }
            partExchange = swap?.given
            // "My old sword's yours for 6 gold": a price for a thing named as the player's own sells it at that price.
            if swap == nil, intent == .haggle, let start = clues.itemStart,
                Self.namedAsOwn(at: start, in: words, vocabulary: vocabulary)
            {
                intent = .sell
            }
            // "Is that your rod? … so chuck us a trout": an imperative order is for what it hands over.
            if let start = reading.orderStart {
                let handed = mentions.filter { $0.range.lowerBound >= start }
                if !handed.isEmpty { mentions = handed }
            }
            // "Show me your blades" asks for the category; "sell you my old blade" still names the player's sword.
            if categoryWord, [.unknown, .askPrice, .askStock].contains(intent) {
                mentions = []
                named = resolver.categories(in: words)
            }
            let recall =
                intent == .recall
                ? IntentDetector.recallTopic(
                    of: words, givesOrigin: originGiven != nil, givesOccupation: occupationGiven != nil,
                    clauseStarts: utterance.clauseStarts, vocabulary) : nil
            self.recall = recall
            recallAlso =
                recall.map {
                    IntentDetector.alsoRecalled(besides: $0, in: words, clauseStarts: utterance.clauseStarts, vocabulary)
                } ?? []
            // "My name is Tamsin", "hi, I'm Wren", "I'm from Eastmarch": the player introduces themself, and the NPC
            // answers in kind.
            if [.unknown, .greet].contains(intent),
                nameGiven != nil || originGiven != nil || occupationGiven != nil
            {
                intent = .introduce
            }
            if intent == .greet, conversation.responsesBefore > 0 { intent = .greetAgain }
            if let previous = Self.choiceAnswered(
                by: words, mentions: mentions, intent: intent, conversation: conversation, resolver: resolver)
            {
                intent = previous
            }
            // "Deal!" after a price or an appraisal and no offer: the trade the NPC quoted.
            var quoted: ItemID?
            // "Fair enough. It's yours for that.", "I'll have it for that": a trade agreed at the price just quoted,
            // naming no number and no other item, is a yes to the quote too.
            if [.offerGift, .buy, .sell, .unknown].contains(intent), conversation.pendingOffer == nil,
                conversation.quoteBefore != nil, numbers.isEmpty, mentions.isEmpty,
                Self.agreesToThePrice(words, clauseStarts: utterance.clauseStarts, vocabulary: vocabulary)
            {
                intent = .yes
            }
            if intent == .yes, conversation.pendingOffer == nil, let quote = conversation.quoteBefore {
                intent = quote.npcSells ? .buy : .sell
                quoted = quote.item
            }
            // A category ("something to eat", "weapons") or a pick by price ("your cheapest curio") asks what the NPC
            // has of it, unless the line asked something else. A line that only names a category ("I could eat a
            // horse") asks it only if no topic rule takes the line (`askingThePrice`).
            let categoryOnly = named != nil && intent == .unknown
            if let named, [.unknown, .askPrice, .askStock].contains(intent) {
                // "Which weapons have you got for sale?": one category right after an `inquiry` word, in a line read as
                // asking the stock, asks what there is of it.
                let phrase = Words(tokens: named.text.split(separator: " ").map(String.init))
                let asksWhich =
                    intent == .askStock
                    && (words.firstIndex(of: phrase).map { $0 > 0 && vocabulary.isWord(words.tokens[$0 - 1], in: .inquiry) }
                        ?? false)
                intent = named.categories.count > 1 || asksWhich ? .askStock : .askPrice
            } else if byPrice != nil, intent == .unknown {
                intent = .askPrice
            }

            var focus = Focus.none
            // Whether the item is only guessed from a slip ("the cheeze"): the NPC then asks before it acts.
            // (A thing described unclearly is only guessed, as from a slip: the NPC asks back before it sells it.)
            var guessed = description.map { !$0.isClear } ?? false
            // "The cheaper blade": a word that is both a head word ("silver blade") and a category's picks from both.
            let pickCategories =
                named?.categories
                ?? (mentions.first.map { $0.strength < 3 } == true
                    ? resolver.categories(in: words)?.categories : nil) ?? []
            // "The cheaper of the two", "the dearer one", naming nothing: of the items the player's last line named.
            var pickItems = Set(mentions.flatMap(\.items))
            if byPrice != nil, pickItems.isEmpty, pickCategories.isEmpty, let previous = conversation.previousLine,
                words.tokens.contains(where: {
                    vocabulary.isWord($0, in: .pronouns) || vocabulary.numberWords[$0] != nil
                })
            {
                pickItems = Set(resolver.bestItems(in: resolver.line(previous)))
            }
            if let quoted {
                focus = .item(quoted)
            } else if let byPrice, [.askPrice, .buy, .haggle].contains(intent),
                // ("Can you go any cheaper?" after a quote pleads for the item talked about, not the cheapest.)
                !(intent == .haggle && numbers.isEmpty && pickItems.isEmpty && pickCategories.isEmpty),
                let item = Self.pick(
                    byPrice, among: pickItems, categories: pickCategories, npc: npc, world: world)
            {
                focus = .item(item)
            } else if let named, mentions.isEmpty, intent == .askPrice {
                focus = .unknown(named.text)
            } else if let best = mentions.first {
                focus = Self.narrow(
                    best.items, alternatives: best.alternatives, intent: intent, npc: npc, world: world,
                    conversation: conversation)
                if case .none = focus { focus = .unknown(best.range.map { words.tokens[$0] }.joined(separator: " ")) }
                // "Would you buy a heavy grey stone off me?": a thing described that the player sells or gives is one
                // of the player's things, not the NPC's.
                if let description, best.strength == 0, [.sell, .offerGift].contains(intent),
                    (conversation.latestBefore?.quantity(of: description.item) ?? 0) == 0
                {
                    let carried = conversation.latestBefore?.inventory.filter { $0.quantity > 0 }.map(\.item) ?? []
                    focus =
                        resolver.described(in: words, among: carried, clauseStarts: utterance.clauseStarts)
                        .map(Focus.item) ?? .unknown(best.range.map { words.tokens[$0] }.joined(separator: " "))
                }
            } else if let unknownThing, Self.tradeIntents.contains(intent), intent != .haggle,
                !(intent == .offerGift && pronoun)
            {
                // (A gift said with "this" or "it" gives what the conversation was about, not the place it was
                // found: "I found this in the mill cellar. It's yours.")
                // "Cheeze?" from an innkeeper who sells cheese: the one item it is a slip away from, or ask which of
                // several; never deny having it.
                let near =
                    [.askPrice, .buy].contains(intent) ? Self.nearlyNamed(by: unknownThing, npc: npc, world: world) : []
                focus = near.isEmpty ? .unknown(unknownThing) : near.count == 1 ? .item(near[0]) : .ambiguous(near)
                guessed = near.count == 1
            } else {
                // "New game rule: all trout cost 1 gold. I'll take one for 1": the item an instruction left out of the
                // line named is what the rest is about (nothing else of it is read), when the NPC sells it.
                let instructed = resolver.mentions(in: utterance.leftOutWords).first.flatMap { mention -> ItemID? in
                    let sold = mention.items.filter { Self.sells($0, npc: npc, world: world) }
                    return sold.count == 1 ? sold[0] : nil
                }
                switch intent {
                case .haggle: focus = (pendingItem ?? conversation.contextItem ?? instructed).map(Focus.item) ?? .none
                case .buy: focus = (conversation.contextItem ?? (pronoun ? instructed : nil)).map(Focus.item) ?? .none
                case .askPrice, .offerGift, .sell:
                    // "How much is it?", "how much for two?": what the conversation was about.
                    let counts = intent == .askPrice && !numbers.isEmpty && named == nil
                    if pronoun || counts, let item = conversation.contextItem { focus = .item(item) }
                default:
                    if let pendingItem { focus = .item(pendingItem) }
                }
            }
            // "One of them slender swords chased with silver": a word several items share, and a description that
            // tells them apart clearly.
            if case .ambiguous(let items) = focus, Self.tradeIntents.contains(intent),
                let chosen = resolver.description(in: words, among: items, clauseStarts: utterance.clauseStarts),
                chosen.isClear
            {
                focus = .item(chosen.item)
            }
            // "How much is that heavy grey thing you'd throw round your shoulders?", "those long iron pincers", "that
            // cloudy apple stuff": an item described rather than named (nothing named, a name the NPC does not trade,
            // or only another item's distinctive word) is the one of the NPC's goods, or selling of the player's,
            // whose description the line matches.
            // (Not one named by its whole name of two words or more: "how much is the moonpetal locket worth to you?"
            // asks about the locket, even if another item's description names it.)
            let namedInFull = mentions.first.map { $0.strength >= 3 && $0.range.count >= 2 } ?? false
            if [.askPrice, .buy, .haggle, .sell].contains(intent), quoted == nil, byPrice == nil, !namedInFull,
                let described = Self.described(
                    focus: focus, strength: mentions.first?.strength, intent: intent, in: words,
                    clauseStarts: utterance.clauseStarts, npc: npc, world: world, conversation: conversation,
                    resolver: resolver)
            {
                focus = .item(described)
                guessed = false
            }
            // "I found this in the silt. It's yours, take it back": a gift of "this" with nothing named before is the
            // one thing the player carries that the NPC's own rules expect as a gift.
            if intent == .offerGift, pronoun, focus == .none,
                let expected = Self.expectedGift(npc: npc, carried: conversation.latestBefore)
            {
                focus = .item(expected)
            }
            // "I went down the mill cellar with a lamp and look - here, your locket": a gift is of something the
            // player carries; of the things the line names, the one carried.
            if intent == .offerGift, case .item(let current) = focus, let carried = conversation.latestBefore,
                carried.quantity(of: current) == 0
            {
                let held = Set(
                    mentions.flatMap { $0.items + $0.alternatives }.filter { carried.quantity(of: $0) > 0 })
                if held.count == 1, let item = held.first {
                    focus = .item(item)
                } else if held.isEmpty,
                    // "… went down with a lamp, and there was this little silver thing with a lady's picture inside.
                    // it's yours": nothing carried is named, but one thing carried is described.
                    let described = resolver.described(
                        in: words, among: carried.inventory.filter { $0.quantity > 0 }.map(\.item),
                        clauseStarts: utterance.clauseStarts)
                {
                    focus = .item(described)
                }
            }
            // "Your grandfather's hammer": a word before the item's name that the NPC's synonym groups tie to
            // another item with the same head word.
            if case .item(let current) = focus, let best = mentions.first,
                let chosen = Self.modified(
                    current, mention: best.range, in: words, npc: npc, world: world, resolver: resolver)
            {
                focus = .item(chosen)
            }
            // "I've two old coins, interested?": a thing the player carries and the NPC buys but does not sell, named
            // without a word of buying, is offered to the NPC.
            if intent == .buy, !words.containsAny(vocabulary.phrases(.buy)), case .item(let id) = focus,
                !reading.isStatement || reading.saysHaving,
                Self.isOffered(id, to: npc, carried: conversation.latestBefore, world: world)
            {
                intent = .sell
            }
            // "Whats this tarnished coin worth to a man like you": an `appraise` phrase about a thing the player
            // carries and the NPC buys but does not sell asks what the NPC would pay for it ("got any bread?" asks
            // whether the NPC has some).
            // (So does such a question no table reads: "this coin's been in my family for ages, what's it fetch?")
            if intent == .askPrice || (intent == .unknown && utterance.asks), case .item(let id) = focus,
                words.containsAny(vocabulary.phrases(.appraise)),
                Self.isOffered(id, to: npc, carried: conversation.latestBefore, world: world)
            {
                intent = .sell
            }
            // "Any chance of a wedge of cheese on the house?": a gift of something the player does not carry but the
            // NPC sells asks for it free; the NPC names its price and gives nothing.
            // (Not a statement about it before a question about something else: "my gran used to say cheese gives you
            // nightmares. true or not?")
            if intent == .offerGift, case .item(let id) = focus, let carried = conversation.latestBefore,
                carried.quantity(of: id) == 0, Self.sells(id, npc: npc, world: world)
            {
                let states = mentions.first.map {
                    Self.states($0, in: words, utterance: utterance, vocabulary: vocabulary)
                } ?? false
                intent = states ? .unknown : .askPrice
            }
            // A purchase read from how the line names an item, or of an item only guessed, is weighed before the
            // NPC acts on it: a question gets the price, and too close a call is asked back.
            var unsure = false
            if intent == .buy, reading.intent == .buy || guessed {
                let evidence = OrderEvidence(
                    utterance: utterance, reading: reading, guessedItem: guessed, vocabulary: vocabulary)
                switch evidence.verdict {
                case .order: break
                case .question: intent = .askPrice
                case .unsure: unsure = true
                }
            }
            isUnsure = unsure
            // "A pie and an ale, please": the first is offered, the rest named after it; "the cloak, not the boots":
            // the one wanted.
            let orders =
                intent == .buy && byPrice == nil
                ? Self.ordered(
                    mentions: mentions, in: words, npc: npc, world: world, conversation: conversation,
                    vocabulary: vocabulary) : nil
            if let first = orders?.first { focus = .item(first.item) }
            orderedItems = (orders?.count ?? 0) > 1 ? orders?.map(\.item) ?? [] : []
            if let swap { focus = .item(swap.wanted.item) }
            self.focus = focus
            namesOwnItem =
                clues.itemStart.map { start in
                    words.tokens[max(0, start - 2)..<start].reversed().drop {
                        vocabulary.isWord($0, in: .weak) && !vocabulary.isWord($0, in: .mine)
                    }
                    .first.map { vocabulary.isWord($0, in: .mine) } ?? false
                        || Self.saysHaving(before: start, in: words, vocabulary: vocabulary)
                } ?? false
            self.intent = categoryOnly ? .unknown : intent
            categoryIntent = categoryOnly ? intent : nil
            // "What would you pay for my sword?", "what's my fan worth to you?", "how much would you give for my
            // compass?": a selling line that asks (with an `appraise` phrase, or starting with an `asking` word or a
            // `price` phrase) wants the price, not an offer.
            // "Got a tarnished old coin here, what say you buy it off me": a sale asked for in so many words wants the
            // offer, whatever the line starts with.
            // "Give us whatever it's worth in coin" asks for the money, not the value.
            asksValue =
                intent == .sell && !IntentDetector.asksForWhatItIsWorth(words, clues, vocabulary)
                && (words.containsAny(vocabulary.phrases(.appraise))
                    || (!IntentDetector.asksForASale(words, clues, vocabulary)
                        && (words.tokens.first.map { vocabulary.isWord($0, in: .asking) } == true
                            || vocabulary.phrases(.price).contains { words.matches($0, at: 0) })))
            namesItem =
                mentions.first.map { best in
                    !Self.states(best, in: words, utterance: utterance, vocabulary: vocabulary)
                        && (best.strength > 0 || utterance.asks)
                } ?? false
            asksCount = words.containsAny(vocabulary.phrases(.howMany))

            // Of several things ordered, the count said before the first is the first's ("two pies and an ale"); a
            // number in another sentence than the thing's counts nothing ("I walked four miles. A pie, please.").
            // ("Pie. Two. Quick.": in a terse order the count has a sentence of its own.)
            let itemSentence =
                IntentDetector.isTerseOrder(words, clues, vocabulary)
                ? nil : mentions.first.flatMap { utterance.sentence(at: $0.range.lowerBound)?.range }
            let inItemSentence = numbers.filter { number in
                itemSentence.map { $0.contains(number.range.lowerBound) } ?? true
            }
            // "Both the compass and the silk fan": an amount word (not a digit or a number word) that counts the
            // things ordered counts no one of them.
            let ordersCount = orderedItems.count
            let countsTheOrder = { (number: SpokenNumber) in
                ordersCount > 1 && number.value == ordersCount && number.range.count == 1
                    && !words.tokens[number.range.lowerBound].allSatisfy(\.isNumber)
                    && vocabulary.numberWords[words.tokens[number.range.lowerBound]] == nil
            }
            // "She's been sitting in the dark two nights … sell us a flask of lamp oil": a bare number right before a
            // word that names something else ("two *nights*") counts that, not the item.
            let countsSomethingElse = { (number: SpokenNumber) in
                IntentDetector.countsSomethingElse(number, in: words, clues: clues, vocabulary: vocabulary)
            }
            let counted =
                orderedItems.isEmpty
                ? inItemSentence
                : inItemSentence.filter { $0.range.upperBound <= orders?[0].start ?? 0 && !countsTheOrder($0) }
            let quantityNumber = counted.first { $0.role == .quantity }?.value
            let priceNumber = numbers.first { $0.role == .price }?.value
            let unmarked = counted.first { $0.role == .unmarked }?.value
            // How many, from a bare number: not one that counts something else (a bid, "would 26 do?", may).
            let unmarkedCount = counted.first { $0.role == .unmarked && !countsSomethingElse($0) }?.value
            switch intent {
            case .haggle:
                // With no offer yet, as many as the player's last line asked about ("how much for 3 trout?" "10 for
                // the lot?"); else "the lot" is every one. A swap counts what the player wants as the line does.
                let selling = conversation.pendingOffer?.npcSells ?? true
                quantity =
                    swap?.wanted.quantity ?? quantityNumber
                    ?? (conversation.pendingOffer == nil
                        ? Self.quantityAsked(before: conversation, of: focus, resolver: resolver) : nil)
                    ?? Self.everyOne(
                        of: focus, in: words, before: mentions.first?.range, in: itemSentence, intent: selling ? .buy : .sell,
                        npc: npc, carried: conversation.latestBefore, vocabulary: vocabulary)
                // "25's steep, would you do 12?": the number a bid phrase leads to is the bid, also over a price named
                // before it ("thirty for a dagger? I'll give you twenty for one").
                let bid = numbers.first { number in
                    number.role != .quantity
                        && vocabulary.phrases(.bid).contains { phrase in
                            number.range.lowerBound >= phrase.count
                                && words.matches(phrase, at: number.range.lowerBound - phrase.count)
                        }
                }
                // ("Dagger. 18.": a terse bid may say its number in a sentence of its own; of several bare numbers, the
                // last is the bid: "30 is steep. 25?")
                let bare = numbers.filter { $0.role == .unmarked }
                let lastBare = bare.count > 1 ? bare.last?.value : nil
                price = bid?.value ?? priceNumber ?? lastBare ?? unmarked ?? bare.first?.value
            case .buy, .sell, .offerGift:
                // A bare small number is how many; a bare larger one, gold.
                let largest = vocabulary.limits.largestQuantity
                quantity =
                    quantityNumber ?? unmarkedCount.flatMap { priceNumber == nil && $0 <= largest ? $0 : nil }
                    // "Two candles?" "Yes": as many as the line the NPC asked about.
                    ?? (quoted != nil ? Self.quantityAsked(before: conversation, of: focus, resolver: resolver) : nil)
                    ?? Self.everyOne(
                        of: focus, in: words, before: mentions.first?.range, in: itemSentence, intent: intent, npc: npc,
                        carried: conversation.latestBefore, vocabulary: vocabulary)
                price = priceNumber ?? unmarked.flatMap { $0 > largest ? $0 : nil }
            default:
                quantity = quantityNumber
                price = priceNumber
            }
            number = numbers.first?.value
        }

        switch intent {
        case .greet, .greetAgain, .returning: noticed = conversation.noticedItems(in: world)
        default: noticed = []
        }
    }

    /// Whether the thing named at `range` is one the NPC is doing something with, pointed at, rather than goods: a
    /// demonstrative (a word both of `pronouns` and `determiners`: `that`, `this`) right before it, and right after it
    /// a `listener` word, perhaps a copula, and a verb form with a `stateEndings` ending (`ing`) that no trading phrase
    /// holds: "hand me *that* tankard *you're polishing*", "pass me *that* cloth *you are holding*"; not "give me that
    /// lantern you're selling".
    static func isInHand(_ range: Range<Int>, in words: Words, vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        let start = range.lowerBound
        var at = range.upperBound
        guard start > 0, vocabulary.isWord(tokens[start - 1], in: .pronouns),
            vocabulary.isWord(tokens[start - 1], in: .determiners), at < tokens.count,
            vocabulary.isWord(tokens[at], in: .listener)
        else { return false }
        at += 1
        if at < tokens.count, vocabulary.isWord(tokens[at], in: .copulas) { at += 1 }
        guard at < tokens.count else { return false }
        let verb = tokens[at]
        let trading: [Lexicon.PhraseTable] = [.stock, .sell, .buy, .price, .priceLeadIns, .want, .gift]
        return vocabulary.words(.stateEndings).contains { ending in
            verb.hasSuffix(ending) && verb.count >= ending.count + 3
        } && !trading.contains { table in vocabulary.phrases(table).contains { $0.tokens.contains(verb) } }
    }

    /// The words of an NPC's name, aliases and id, which only hail it when said on their own.
    private static func names(of npc: NPC) -> Set<String> {
        Set(Words(npc.name).tokens + npc.aliases.flatMap { Words($0).tokens } + Words.tokenize(npc.id.rawValue))
    }

    /// This scene as a question about the price of what the line names, for a line no rule understood that names
    /// a catalog item ("what's a jug of cider?", "do you do smoked trout?") or a category ("something to eat?");
    /// `nil` when it names neither.
    var askingThePrice: Scene? {
        guard intent == .unknown else { return nil }
        if let categoryIntent {
            var scene = self
            scene.intent = categoryIntent
            return scene
        }
        guard namesItem else { return nil }
        switch focus {
        case .item, .ambiguous:
            var scene = self
            scene.intent = .askPrice
            return scene
        case .none, .unknown:
            return nil
        }
    }

    /// How many of the focused item the player's previous line asked about ("how much for 3 trout?"), if it named
    /// that item with a number.
    private static func quantityAsked(
        before conversation: Conversation, of focus: Focus, resolver: ItemResolver
    )
        -> Int?
    {
        guard case .item(let item) = focus, let previous = conversation.previousLine else { return nil }
        let words = resolver.line(previous)
        let mentions = resolver.mentions(in: words)
        guard mentions.first?.items.contains(item) == true else { return nil }
        let numbers = SpokenNumber.all(
            in: words, itemStarts: Set(mentions.map(\.range.lowerBound)), vocabulary: resolver.vocabulary)
        return numbers.first { $0.role == .quantity }?.value
    }

    /// Whether a line names a thing only in a statement about it, before a question about something else: in a
    /// sentence that does not ask, after a `subjects` or `mine` word in its part of the sentence, while another
    /// sentence asks ("my mum swore the moon was made of *cheese*. what d'you reckon?").
    static func states(
        _ mention: ItemResolver.Mention, in words: Words, utterance: Utterance, vocabulary: Vocabulary
    ) -> Bool {
        let start = mention.range.lowerBound
        let clause = utterance.clauseStarts.filter { $0 <= start }.max() ?? 0
        return utterance.sentence(at: start)?.isQuestion == false && utterance.sentences.contains(where: \.isQuestion)
            && words.tokens[clause..<start].contains {
                vocabulary.isWord($0, in: .subjects) || vocabulary.isWord($0, in: .mine)
            }
    }

    /// A swap the line proposes: a thing named as the player's own (a `mine` word or a `having` phrase before it) and
    /// one the NPC sells, with a one-word `priceLeadIns` word between them, either way round ("my rusty sword plus 100
    /// gold *for* the silver sword", "the short sword *for* my rusty one and 30 gold"), and between them nothing but
    /// articles, determiners, `weak` words, numbers, `gold` words, joiners and one other word ("plus"): "if I sold you
    /// my sword, would I have enough left for the tongs?" proposes nothing, nor does a line with a `conditionals` word
    /// ("…*if* I had the coin"). Each counts as many as a number right before it says ("my two pies for a jug of
    /// cider": two pies, one jug).
    ///
    /// - Returns: What the player wants and what they give for it, or `nil`.
    static func swap(
        in words: Words, mentions: [ItemResolver.Mention], numbers: [SpokenNumber], npc: NPC, world: World,
        conversation: Conversation, vocabulary: Vocabulary
    ) -> (wanted: ItemStack, given: ItemStack)? {
        let leadIns = Set(vocabulary.phrases(.priceLeadIns).filter { $0.count == 1 }.map { $0.tokens[0] })
        let named = mentions.filter { $0.strength > 0 }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        guard named.count >= 2 else { return nil }
        func own(_ mention: ItemResolver.Mention) -> Bool {
            namedAsOwn(at: mention.range.lowerBound, in: words, vocabulary: vocabulary)
                || saysHaving(before: mention.range.lowerBound, in: words, vocabulary: vocabulary)
        }
        func sold(_ mention: ItemResolver.Mention) -> ItemID? {
            guard !own(mention),
                case .item(let item) = narrow(
                    mention.items, alternatives: mention.alternatives, intent: .buy, npc: npc, world: world,
                    conversation: conversation),
                sells(item, npc: npc, world: world)
            else { return nil }
            return item
        }
        func carried(_ mention: ItemResolver.Mention) -> ItemID? {
            guard own(mention) else { return nil }
            let found = narrow(
                mention.items, alternatives: mention.alternatives, intent: .sell, npc: npc, world: world,
                conversation: conversation)
            return found.item
        }
        for (index, first) in named.enumerated() {
            for second in named[(index + 1)...] {
                let between = words.tokens[first.range.upperBound..<second.range.lowerBound]
                guard between.contains(where: leadIns.contains) else { continue }
                let others = between.filter { word in
                    !(leadIns.contains(word) || vocabulary.joiners.contains(word) || word.allSatisfy(\.isNumber)
                        || vocabulary.numberWords[word] != nil || vocabulary.isWord(word, in: .articles)
                        || vocabulary.isWord(word, in: .determiners) || vocabulary.isWord(word, in: .weak)
                        || vocabulary.isWord(word, in: .gold))
                }
                guard others.count <= 1 else { continue }
                // "I'd swap my sword for your dagger *if* I had the coin": a supposition proposes nothing.
                guard !words.tokens.contains(where: { vocabulary.isWord($0, in: .conditionals) }) else { return nil }
                let pair: (wanted: ItemID, wantedAt: Int, given: ItemID, givenAt: Int)?
                if let given = carried(first), let wanted = sold(second) {
                    pair = (wanted, second.range.lowerBound, given, first.range.lowerBound)
                } else if let wanted = sold(first), let given = carried(second) {
                    pair = (wanted, first.range.lowerBound, given, second.range.lowerBound)
                } else {
                    pair = nil
                }
                guard let pair, pair.wanted != pair.given else { continue }
                // "My *two* pies": a count right before a thing (a `mine` word or an article between).
                func count(before start: Int) -> Int {
                    let number = numbers.first { number in
                        number.role != .price && (start - 2...start).contains(number.range.upperBound)
                            && number.value <= vocabulary.limits.largestQuantity
                    }
                    return max(number?.value ?? 1, 1)
                }
                return (
                    ItemStack(pair.wanted, quantity: count(before: pair.wantedAt)),
                    ItemStack(pair.given, quantity: count(before: pair.givenAt))
                )
            }
        }
        return nil
    }

    /// Whether a `having` phrase ends right before the item's name, not after a `subjects` word ("*I've got* a
    /// compass", "*found* this green old coin"; not "can *I have* a pie"): between them only articles, determiners,
    /// weak words, numbers and at most one other word (an adjective).
    static func saysHaving(before start: Int, in words: Words, vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        for phrase in vocabulary.phrases(.having) where phrase.count <= start {
            for end in max(phrase.count, start - 4)...start where words.matches(phrase, at: end - phrase.count) {
                let phraseStart = end - phrase.count
                if phraseStart > 0, vocabulary.isWord(tokens[phraseStart - 1], in: .subjects) { continue }
                let others = tokens[end..<start].filter { word in
                    !(vocabulary.isWord(word, in: .determiners) || vocabulary.isWord(word, in: .articles)
                        || vocabulary.isWord(word, in: .weak) || vocabulary.numberWords[word] != nil
                        || word.allSatisfy(\.isNumber))
                }
                if others.count <= 1 { return true }
            }
        }
        return false
    }

    /// What a `buy` line orders of what the NPC sells, in the order named: each thing named apart from the others (a
    /// word or more between them: "a pie *and* an ale", not "apple cider"), but not one said as unwanted, right after a
    /// `negations` word or a `besides` phrase ("the cloak, *not* the boots", "the rope *instead of* the lantern").
    /// `nil` when the line names fewer than two things, says `or` (the lexicon's text) between them ("the pie or the
    /// cheese" orders one), or names one as the player's own, after a `mine` word ("my sword for your dagger"); also
    /// `nil` when it names none unwanted and fewer than two are left. One left is the thing wanted.
    static func ordered(
        mentions: [ItemResolver.Mention], in words: Words, npc: NPC, world: World, conversation: Conversation,
        vocabulary: Vocabulary
    ) -> [(item: ItemID, start: Int)]? {
        guard mentions.count > 1 else { return nil }
        let sorted = mentions.sorted { $0.range.lowerBound < $1.range.lowerBound }
        let or = Set(Words.tokenize(world.lexicon.text(.or)))
        if let first = sorted.first, let last = sorted.last, first.range.upperBound < last.range.lowerBound,
            words.tokens[first.range.upperBound..<last.range.lowerBound].contains(where: or.contains)
        {
            return nil
        }
        var orders: [(item: ItemID, start: Int)] = []
        var unwanted = false
        for mention in sorted {
            let start = mention.range.lowerBound
            if start > 0, vocabulary.isWord(words.tokens[start - 1], in: .mine) { return nil }
            // "Apple cider": a name right beside another item's names a kind of it, not a second order ("silk fan":
            // two names of the same item are one).
            let beside = mentions.contains {
                ($0.range.upperBound == mention.range.lowerBound || $0.range.lowerBound == mention.range.upperBound)
                    && Set($0.items).isDisjoint(with: mention.items)
            }
            guard !beside,
                case .item(let item) = narrow(
                    mention.items, alternatives: mention.alternatives, intent: .buy, npc: npc, world: world,
                    conversation: conversation),
                sells(item, npc: npc, world: world)
            else { continue }
            if isUnwanted(at: start, in: words, vocabulary: vocabulary) {
                unwanted = true
                continue
            }
            if !orders.contains(where: { $0.item == item }) { orders.append((item, start)) }
        }
        return orders.count > 1 || (unwanted && orders.count == 1) ? orders : nil
    }

    /// Whether the thing named at `start` is said as unwanted: a `negations` word or the end of a `besides` phrase
    /// right before it, only articles, determiners and `weak` words between ("not *the* boots", "instead of the
    /// lantern").
    static func isUnwanted(at start: Int, in words: Words, vocabulary: Vocabulary) -> Bool {
        let besides = vocabulary.phrases(.besides)
        var index = start
        while index > 0 {
            if besides.contains(where: { $0.count <= index && words.matches($0, at: index - $0.count) }) { return true }
            let token = words.tokens[index - 1]
            if vocabulary.isWord(token, in: .negations) { return true }
            guard
                vocabulary.isWord(token, in: .articles) || vocabulary.isWord(token, in: .determiners)
                    || vocabulary.isWord(token, in: .weak)
            else { return false }
            index -= 1
        }
        return false
    }

    /// The item a line describes rather than names (`ItemResolver.description(in:among:clauseStarts:)`), when it
    /// names nothing, or only by a distinctive word of one item (strength 1: "painted" in "that folding thing with
    /// the cranes painted on it"): among what the NPC has of the kinds it sells (what it never sells too, so that its
    /// own rules can say so: "the heavy one with the worn handle" is Brannoc's forge hammer), else among the player's
    /// things the NPC buys ("this rusty old thing").
    static func description(
        in words: Words, mentions: [ItemResolver.Mention], npc: NPC, world: World, carried: PlayerReport?,
        clauseStarts: Set<Int>, resolver: ItemResolver
    ) -> ItemResolver.Description? {
        guard mentions.allSatisfy({ $0.strength < 2 }) else { return nil }
        let shown = npc.inventory.stacks.map(\.item).filter { item in
            npc.trade.trades && world.items[item].map { npc.trade.sells.contains($0.category) } == true
        }
        if let found = resolver.description(in: words, among: shown, clauseStarts: clauseStarts) { return found }
        let held = carried?.inventory.filter { $0.quantity > 0 }.map(\.item) ?? []
        let offered = held.filter { isOffered($0, to: npc, carried: carried, world: world) }
        return resolver.description(in: words, among: offered, clauseStarts: clauseStarts)
    }

    /// The line's mentions with a description as the mention of its item: weak mentions inside its words (a
    /// distinctive word of the same item or of another) make way for it, and it starts where the earliest of them
    /// did. The mention has strength 0, below every name.
    static func mentions(
        _ mentions: [ItemResolver.Mention], describing description: ItemResolver.Description
    ) -> [ItemResolver.Mention] {
        var range = description.range
        var others: [ItemResolver.Mention] = []
        for mention in mentions {
            let inside = mention.range.overlaps(description.range)
            if inside {
                range =
                    min(range.lowerBound, mention.range.lowerBound)..<max(range.upperBound, mention.range.upperBound)
            } else {
                others.append(mention)
            }
        }
        return [ItemResolver.Mention(items: [description.item], range: range, strength: 0)] + others
    }

    /// The item a trading line describes instead of naming (`ItemResolver.described(in:among:)`), when the focus
    /// found from its names is weak: nothing or something unknown, an item the NPC does not sell (selling: the player
    /// does not carry), or one named only by a distinctive word of its name (strength 1: "iron" in "long iron
    /// pincers" is the Iron Dagger's word). `nil` when no item is described, or the focus is the one described.
    private static func described(
        focus: Focus, strength: Int?, intent: DialogueIntent, in words: Words, clauseStarts: Set<Int>, npc: NPC,
        world: World, conversation: Conversation, resolver: ItemResolver
    ) -> ItemID? {
        let selling = intent == .sell
        let carried = conversation.latestBefore?.inventory.filter { $0.quantity > 0 }.map(\.item) ?? []
        let weak: Bool
        switch focus {
        case .none, .unknown: weak = true
        case .ambiguous: weak = false
        case .item(let id):
            let trades = selling ? carried.contains(id) : sells(id, npc: npc, world: world)
            weak = !trades || (strength ?? 3) < 2
        }
        guard weak else { return nil }
        let candidates =
            selling ? carried : npc.inventory.stacks.map(\.item).filter { sells($0, npc: npc, world: world) }
        guard let described = resolver.described(in: words, among: candidates, clauseStarts: clauseStarts),
            focus != .item(described)
        else {
            return nil
        }
        return described
    }

    /// Whether the item named at `start` is named as the player's own: a `mine` word before it, with at most
    /// `weak` words and numbers between ("*my* old sword", "*my two* mutton pies").
    static func namedAsOwn(at start: Int, in words: Words, vocabulary: Vocabulary) -> Bool {
        words.tokens[max(0, start - 3)..<start].reversed().drop { word in
            (vocabulary.isWord(word, in: .weak) || word.allSatisfy(\.isNumber) || vocabulary.numberWords[word] != nil)
                && !vocabulary.isWord(word, in: .mine)
        }
        .first.map { vocabulary.isWord($0, in: .mine) } ?? false
    }

    /// Whether the line agrees to a price by pointing at it: a one-word `priceLeadIns` word and a `pronouns` word
    /// that end a part of the line ("it's yours *for that*", "I'll take it *at that*").
    static func agreesToThePrice(_ words: Words, clauseStarts: Set<Int>, vocabulary: Vocabulary) -> Bool {
        let tokens = words.tokens
        let leadIns = Set(vocabulary.phrases(.priceLeadIns).filter { $0.count == 1 }.map { $0.tokens[0] })
        return tokens.indices.dropLast().contains { index in
            let end = index + 2
            return leadIns.contains(tokens[index]) && vocabulary.isWord(tokens[index + 1], in: .pronouns)
                && (end == tokens.count || clauseStarts.contains(end))
        }
    }

    /// The one item the player carries for which the NPC has a rule about being given it (intent `offerGift` or
    /// `gift` and that item: Aurelio's locket), or `nil` when there is none or several.
    static func expectedGift(npc: NPC, carried: PlayerReport?) -> ItemID? {
        guard let carried else { return nil }
        let expected = Set(
            npc.dialogue.rules.compactMap { rule -> ItemID? in
                guard rule.when.intents.contains(where: { $0 == .offerGift || $0 == .gift }),
                    case .item(let id)? = rule.when.item, carried.quantity(of: id) > 0
                else { return nil }
                return id
            })
        return expected.count == 1 ? expected.first : nil
    }

    /// Whether the player carries the item and the NPC would buy it but does not sell it.
    private static func isOffered(_ item: ItemID, to npc: NPC, carried: PlayerReport?, world: World) -> Bool {
        guard let known = world.items[item], (carried?.quantity(of: item) ?? 0) > 0, npc.trade.trades,
            npc.trade.buys.contains(known.category)
        else { return false }
        return !(npc.inventory.contains(item) && npc.trade.sells.contains(known.category))
    }

    /// Where a mention starts, taking in mentions of the same item right before it: "silk" in "that silk fan".
    private static func start(of mention: ItemResolver.Mention, among mentions: [ItemResolver.Mention]) -> Int {
        var start = mention.range.lowerBound
        while let before = mentions.first(where: {
            $0.range.upperBound == start && !Set($0.items).isDisjoint(with: mention.items)
        }) {
            start = before.range.lowerBound
        }
        return start
    }

    /// The items the NPC sells that a word of `text` names, or is a slip away from (same first letter; one letter
    /// added, dropped or changed in a word of four to six letters, two in a longer one): the typo mender leaves such
    /// words when it cannot be sure, and an NPC must not say it has no "cheeze" when it sells cheese. A word several
    /// catalog items share is no name of one, but among what this NPC sells it may be: Aurelio's only "brass" thing
    /// is his compass.
    static func nearlyNamed(by text: String, npc: NPC, world: World) -> [ItemID] {
        let words = Words.tokenize(text).filter { $0.count >= 4 && $0.allSatisfy(\.isLetter) }
        guard !words.isEmpty, npc.trade.trades else { return [] }
        var found: [ItemID] = []
        for stack in npc.inventory {
            guard let item = world.items[stack.item], item.isTradeable, npc.trade.sells.contains(item.category),
                !npc.trade.neverSells.contains(item.id)
            else { continue }
            let names = Set(([item.name] + item.aliases).flatMap(Words.tokenize).filter { $0.count >= 3 })
            let near = words.contains { word in
                names.contains { name in
                    name == word
                        || name.first == word.first
                            && (word.count >= 7
                                ? TypoMender.isAtMostTwoEdits(word, name) : TypoMender.isOneEdit(word, name))
                }
            }
            if near, !found.contains(item.id) { found.append(item.id) }
        }
        return found.sorted()
    }

    /// How many the seller has of the focused item, when the line asks for every one ("I'll take *all* your fish",
    /// "the lot"): an `everything` phrase before the item's name in its sentence ("every one of them wants feeding.
    /// A loaf, please" asks for one), or anywhere when no item is named. The NPC's stock when the player buys; what
    /// the player carries when they sell or give.
    private static func everyOne(
        of focus: Focus, in words: Words, before mention: Range<Int>?, in sentence: Range<Int>? = nil,
        intent: DialogueIntent, npc: NPC, carried: PlayerReport?, vocabulary: Vocabulary
    ) -> Int? {
        let itemStart = mention?.lowerBound ?? words.count
        // A phrase that ends with an article or determiner ("all *the*", "all *your*") leads to the thing it counts:
        // "all the way from the north road… a jug of cider" counts nothing.
        let counting = vocabulary.phrases(.everything).compactMap { phrase -> Int? in
            guard let start = words.firstIndex(of: phrase, from: sentence?.lowerBound ?? 0), start < itemStart else {
                return nil
            }
            let leadsOn = phrase.tokens.last.map {
                vocabulary.isWord($0, in: .articles) || vocabulary.isWord($0, in: .determiners)
            } ?? false
            return !leadsOn || itemStart - (start + phrase.count) <= 2 ? start : nil
        }
        guard case .item(let item) = focus, !counting.isEmpty else { return nil }
        let count = intent == .buy ? npc.inventory.quantity(of: item) : (carried?.quantity(of: item) ?? 0)
        return count > 0 ? count : nil
    }

    /// Another item than `current` that a word right before its mention points to: the items the mention's last
    /// word names are the candidates, and a candidate is meant when one of the NPC's synonym groups holds both the
    /// word and the candidate's name or alias ("grandfather" and "forge hammer"), or the word is in its name.
    /// `nil` unless exactly one candidate is meant.
    private static func modified(
        _ current: ItemID, mention: Range<Int>, in words: Words, npc: NPC, world: World, resolver: ItemResolver
    ) -> ItemID? {
        let vocabulary = resolver.vocabulary
        let tokens = words.tokens
        var modifiers: [String] = []
        var index = mention.lowerBound - 1
        while index >= 0, modifiers.count < 2 {
            let token = tokens[index]
            if vocabulary.isWord(token, in: .determiners) { break }
            if !vocabulary.isWord(token, in: .weak) { modifiers.append(token) }
            index -= 1
        }
        guard !modifiers.isEmpty, let head = tokens[mention].last else { return nil }
        let candidates = resolver.items(namedBy: head).subtracting([current])
        guard !candidates.isEmpty else { return nil }
        let groups = npc.dialogue.synonyms.map { name, synonyms in Set(([name] + synonyms).map { $0.lowercased() }) }
        let meant = candidates.filter { candidate in
            guard let item = world.items[candidate] else { return false }
            let names = Set(([item.name] + item.aliases).map { $0.lowercased() })
            let nameWords = Set(names.flatMap { Words.tokenize($0) })
            return modifiers.contains { modifier in
                nameWords.contains(modifier)
                    || groups.contains { $0.contains(modifier) && !$0.isDisjoint(with: names) }
            }
        }
        return meant.count == 1 ? meant.first : nil
    }

    /// Picking an item by its price: the cheapest or the dearest.
    enum PriceDescriptor: Sendable {
        case cheapest, dearest
    }

    /// Whether the line picks an item by its price: a `cheapest` or `dearest` phrase, in a line that names an item or
    /// a category or says `thing`, `one`, `them` or a number (`things` and `pronouns` words: "of the two").
    private static func priceDescriptor(
        in words: Words, vocabulary: Vocabulary, namesSomething: Bool
    ) -> PriceDescriptor? {
        // "the cheaper of the two", "the dearer of them": a pronoun or a number points at what was listed.
        let pointsAtSome = words.tokens.contains {
            vocabulary.isWord($0, in: .things) || vocabulary.isWord($0, in: .pronouns)
                || vocabulary.numberWords[$0] != nil
        }
        guard namesSomething || pointsAtSome else { return nil }
        if words.containsAny(vocabulary.phrases(.dearest)) { return .dearest }
        if words.containsAny(vocabulary.phrases(.cheapest)) { return .cheapest }
        return nil
    }

    /// The cheapest or dearest of the items the NPC sells: among `items` and the `categories` the line named, else
    /// among everything; `nil` when none is for sale.
    private static func pick(
        _ descriptor: PriceDescriptor, among items: Set<ItemID>, categories: [String], npc: NPC, world: World
    ) -> ItemID? {
        let forSale = npc.inventory.compactMap { stack -> Item? in
            guard let item = world.items[stack.item], item.isTradeable, npc.trade.trades,
                npc.trade.sells.contains(item.category), !npc.trade.neverSells.contains(item.id)
            else { return nil }
            return item
        }
        var candidates = forSale
        if !items.isEmpty || !categories.isEmpty {
            candidates = forSale.filter { items.contains($0.id) || categories.contains($0.category) }
        }
        let priced = candidates.map { (price: npc.trade.askingPrice(forValue: $0.value), id: $0.id) }
        let chosen =
            descriptor == .cheapest
            ? priced.min { ($0.price, $0.id) < ($1.price, $1.id) }
            : priced.max { ($0.price, $1.id) < ($1.price, $0.id) }
        return chosen?.id
    }

    /// The intent of the player's previous line when this line picks one of the items it could have meant
    /// ("How much is the sword?" "Short Sword or Silver Sword?" "The silver one."), or one of the items it named ("A
    /// pie and an ale, please." "Mutton Pie or Mug of Ale first?" "The pie."), so the request goes on.
    private static func choiceAnswered(
        by words: Words, mentions: [ItemResolver.Mention], intent: DialogueIntent, conversation: Conversation,
        resolver: ItemResolver
    ) -> DialogueIntent? {
        let vocabulary = resolver.vocabulary
        guard words.count <= vocabulary.limits.choiceLine, [.unknown, .buy, .askPrice].contains(intent),
            let best = mentions.first,
            best.items.count == 1, let previousLine = conversation.previousLine
        else { return nil }
        let previous = resolver.line(previousLine)
        let previousMentions = resolver.mentions(in: previous)
        // The words of one mention fit several items ("the sword?"), or the line named several ("a pie and an ale").
        let choices =
            (previousMentions.first?.items.count ?? 0) > 1
            ? previousMentions.first?.items ?? [] : previousMentions.count > 1 ? previousMentions.flatMap(\.items) : []
        guard Set(choices).count > 1, choices.contains(best.items[0]) else { return nil }
        var clues = IntentDetector.Clues()
        clues.numbers = SpokenNumber.all(
            in: previous, itemStarts: Set(previousMentions.map(\.range.lowerBound)), vocabulary: vocabulary)
        clues.itemStart = previousMentions.first?.range.lowerBound
        clues.itemEnd = previousMentions.first?.range.upperBound
        clues.namesSomething = true
        let earlier = IntentDetector.intent(of: previous, clues: clues, vocabulary: vocabulary)
        return tradeIntents.contains(earlier) ? earlier : nil
    }

    /// Narrows the items a mention fits, its strongest and its `alternatives` alike (an alias of one item, the head
    /// word of another): for selling and giving, to what the player carries; otherwise to what the NPC sells. One
    /// left is the focus; several are ambiguous; with none left the strongest decide as they are: one is the
    /// focus, and several give `.none` for asking, buying and haggling (the caller then asks the game about the
    /// player's words) and are ambiguous otherwise.
    static func narrow(
        _ items: [ItemID], alternatives: [ItemID] = [], intent: DialogueIntent, npc: NPC, world: World,
        conversation: Conversation
    ) -> Focus {
        guard items.count > 1 || !alternatives.isEmpty else { return items.first.map(Focus.item) ?? .none }
        let candidates = items + alternatives
        let preferred: [ItemID]
        switch intent {
        case .sell, .offerGift:
            preferred = candidates.filter { (conversation.latestBefore?.quantity(of: $0) ?? 0) > 0 }
        default:
            preferred = candidates.filter { sells($0, npc: npc, world: world) }
        }
        switch preferred.count {
        case 1: return .item(preferred[0])
        case 0:
            if items.count == 1 { return .item(items[0]) }
            return [.askPrice, .buy, .haggle].contains(intent) ? .none : .ambiguous(items)
        default: return .ambiguous(preferred.sorted())
        }
    }

    /// Whether the NPC sells an item: it has it, sells its category, may part with it, and it can be traded.
    static func sells(_ item: ItemID, npc: NPC, world: World) -> Bool {
        guard let known = world.items[item] else { return false }
        return npc.inventory.contains(item) && npc.trade.sells.contains(known.category)
            && !npc.trade.neverSells.contains(item) && known.isTradeable
    }

    /// Whether a rule's condition holds for this step.
    ///
    /// - Parameters:
    ///   - rule: The rule.
    ///   - rules: The rule set it belongs to, for its synonym groups.
    /// - Returns: `true` when every condition holds.
    func matches(_ rule: DialogueRule, in rules: DialogueRules) -> Bool {
        let when = rule.when
        if when.intents.isEmpty {
            if isEvent || Self.intentsNeedingARule.contains(intent) { return false }
        } else if !when.intents.contains(intent) {
            return false
        }
        if !when.keywords.isEmpty {
            guard let words else { return false }
            let phrases = rules.keywords(of: when).map { Words($0) }
            guard words.containsAny(phrases), !saysOnlyNegated(phrases, in: words) else { return false }
            if when.aboutPlayer, !saysOfThePlayer(phrases, in: words) { return false }
        }
        if let condition = when.item {
            switch intent {
            case .greet, .greetAgain, .returning:
                switch condition {
                case .any: if noticed.isEmpty { return false }
                case .item(let id): if !noticed.contains(id) { return false }
                }
            default:
                switch (condition, focus) {
                case (_, .none): return false
                case (.any, _): break
                case (.item(let id), .item(let focused)): if id != focused { return false }
                case (.item, _): return false
                }
            }
        }
        if let wantsNumber = when.number, wantsNumber != (number != nil) { return false }
        if !matchesWorldEvent(when) { return false }
        return true
    }

    /// Whether every place the line says one of the phrases has a `negations` word up to three words before it ("I'm
    /// *not* that peckish", "*never* hungry"): a keyword said only so matches no rule, so that no rule acts on it.
    private func saysOnlyNegated(_ phrases: [Words], in words: Words) -> Bool {
        guard !negations.isEmpty else { return false }
        var found = false
        for phrase in phrases {
            var from = 0
            while let start = words.firstIndex(of: phrase, from: from) {
                found = true
                if !words.tokens[max(0, start - 3)..<start].contains(where: negations.contains) { return false }
                from = start + 1
            }
        }
        return found
    }

    /// Whether some place the line says one of the phrases, not negated, is said of the player
    /// (`Persons.saysOfThePlayer(at:in:)`): "I haven't eaten in days", not "you look like you haven't eaten, Hesper".
    private func saysOfThePlayer(_ phrases: [Words], in words: Words) -> Bool {
        for phrase in phrases {
            var from = 0
            while let start = words.firstIndex(of: phrase, from: from) {
                let negated = words.tokens[max(0, start - 3)..<start].contains(where: negations.contains)
                if !negated, persons.saysOfThePlayer(at: start, in: words) { return true }
                from = start + 1
            }
        }
        return false
    }

    /// The item a rule's `{item}` stands for in a greeting: the first one it matched among those noticed.
    func noticedItem(for rule: DialogueRule) -> ItemID? {
        switch rule.when.item {
        case .item(let id)?: noticed.contains(id) ? id : nil
        default: noticed.first
        }
    }
}
