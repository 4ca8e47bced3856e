import GameWorld

/// Finds the built-in intent of a player's line, by the priority documented in `docs/modding.md`: selling, then
/// haggling, buying, gifts, prices, stock; then farewells, thanks and greetings; then yes and no; then
/// introductions, rumours and small talk; otherwise `unknown`.
enum IntentDetector {
    /// What the detector knows besides the words.
    struct Clues: Sendable {
        /// The numbers in the line.
        var numbers: [SpokenNumber] = []
        /// Where the best mention of a catalog item starts, if the line names one.
        var itemStart: Int?
        /// Where that mention ends.
        var itemEnd: Int?
        /// Whether the line names an item or says `it`, `that`, `one`...
        var namesSomething = false
        /// Whether the line says `it`, `that`, `one`...
        var saysPronoun = false
        /// Whether an offer is pending or prices were quoted, so a bare number is a bid.
        var hasPriceContext = false
    }

    /// The intent of a line.
    ///
    /// - Parameters:
    ///   - words: The line's words.
    ///   - clues: Numbers, item mentions and context.
    /// - Returns: The intent; never a game-event intent, `greetAgain` or `returning` (the caller decides those).
    static func intent(of words: Words, clues: Clues) -> DialogueIntent {
        guard !words.isEmpty else { return .unknown }
        if isSell(words, clues) { return .sell }
        if isHaggle(words, clues) { return .haggle }
        if isBuy(words, clues) { return .buy }
        if words.containsAny(Phrases.gift) { return .offerGift }
        let asksPrice = words.containsAny(Phrases.price)
        let asksStock = words.containsAny(Phrases.stock)
        if asksPrice || asksStock {
            if asksPrice, clues.namesSomething, let start = clues.itemStart, start > 0, words.tokens[start - 1] == "my"
            {
                return .sell
            }
            return asksPrice || clues.itemStart != nil
                ? (asksStock && clues.itemStart == nil ? .askStock : .askPrice)
                : .askStock
        }
        if clues.itemStart != nil, !clues.numbers.isEmpty || words.tokens.contains("please") { return .buy }
        if let start = clues.itemStart, clues.itemEnd == words.count,
            words.tokens[..<start].allSatisfy({ Phrases.fillers.contains($0) })
        {
            return .askPrice
        }
        if words.count <= 6, words.containsAny(Phrases.no) { return .no }
        if words.containsAny(Phrases.farewell) || (words.count <= 3 && words.containsAny(Phrases.shortFarewell)) {
            return .farewell
        }
        if words.containsAny(Phrases.thanks) || (words.count <= 3 && words.tokens.contains("ta")) { return .thanks }
        if words.containsAny(Phrases.greeting) { return .greet }
        if words.count <= 6 {
            if let first = words.tokens.first {
                if Phrases.noWords.contains(first) { return .no }
                if Phrases.yesWords.contains(first) { return .yes }
            }
            if words.containsAny(Phrases.no) { return .no }
            if words.containsAny(Phrases.yes) { return .yes }
        }
        if words.containsAny(Phrases.introduce) { return .introduce }
        if words.containsAny(Phrases.rumors) { return .rumors }
        if words.containsAny(Phrases.smallTalk) { return .smallTalk }
        return .unknown
    }

    // MARK: - Trade

    /// `sell my sword`, `would you buy this`, `what would you pay for my boots`, `how much for my sword`.
    private static func isSell(_ words: Words, _ clues: Clues) -> Bool {
        let tokens = words.tokens
        for (index, token) in tokens.enumerated() {
            let next = index + 1 < tokens.count ? tokens[index + 1] : ""
            let before = tokens[max(0, index - 2)..<index]
            if token == "sell" {
                if next == "me" || next == "us" { continue }
                if before.contains("you") { continue }
                return true
            }
            if token == "buy" || token == "buying" {
                if before.contains("you") || next == "my" { return true }
            }
        }
        return words.containsAny(Phrases.sell)
    }

    /// A price (`would you take 20`, `18 gold?`, `for 20`), or a plea for a better one (`too expensive`).
    private static func isHaggle(_ words: Words, _ clues: Clues) -> Bool {
        if clues.numbers.contains(where: { $0.role == .price }) { return true }
        let unmarked = clues.numbers.contains { $0.role == .unmarked }
        if unmarked, words.containsAny(Phrases.bid) { return true }
        if unmarked, clues.hasPriceContext, words.count <= 3 { return true }
        return words.containsAny(Phrases.cheaper)
    }

    /// `I'll take the lantern`, `give me two loaves`, `I want to buy rope`; `I want to know` is not buying.
    private static func isBuy(_ words: Words, _ clues: Clues) -> Bool {
        if words.containsAny(Phrases.buyAlways) { return true }
        for phrase in Phrases.buyWanting {
            guard let index = words.firstIndex(of: phrase) else { continue }
            let after = index + phrase.count
            if after < words.count, words.tokens[after] == "to" {
                if after + 1 < words.count,
                    ["buy", "purchase", "get", "have", "take"].contains(words.tokens[after + 1])
                {
                    return true
                }
                continue
            }
            // "I need a lantern" buys; "I need a light for the cellar" names nothing the catalog knows.
            if clues.itemStart != nil || clues.saysPronoun { return true }
        }
        return false
    }

    // MARK: - Phrases

    /// The phrase tables, as words.
    private enum Phrases {
        static func words(_ phrases: [String]) -> [Words] { phrases.map { Words($0) } }

        static let sell = words([
            "how much for my", "what would you pay", "how much would you pay", "would you pay", "will you pay",
            "what will you pay", "what would you give me for", "how much would you give me for",
            "what will you give me for", "appraise", "interested in my", "take this off my hands", "off my hands",
            "what is my", "what are my", "trade my", "part with my",
        ])
        static let bid = words([
            "would you take", "will you take", "would you accept", "will you accept", "how about", "what about",
            "i will give you", "i will pay", "i can pay", "i could pay", "i offer", "make it", "do it for",
            "let it go for", "could you do", "can you do", "would you do", "i will give", "meet me at",
        ])
        static let cheaper = words([
            "cheaper", "discount", "lower", "too much", "too expensive", "too pricey", "too steep", "expensive",
            "come down", "better price", "best price", "bargain", "haggle", "knock off", "reduce", "less",
            "better deal", "special price", "rip off", "robbery",
        ])
        static let gift = words([
            "take this", "have this", "this is for you", "a gift", "gift", "a present", "present for",
            "keep it", "you can have", "brought you", "brought your", "found your", "here is your", "here are your",
            "i have your", "return your", "returning your", "give you", "accept this", "it is yours",
            "i give you", "free of charge",
        ])
        static let buyAlways = words([
            "i will take", "i would take", "i will have", "i will get", "give me", "gimme", "can i have",
            "can i get", "could i have", "could i get", "may i have", "let me have", "i will buy", "i would buy",
            "buy", "purchase", "sell me", "sell us", "i am buying", "i take", "wrap it up", "hand it over",
            "i want to buy", "i would like to buy",
        ])
        static let fillers: Set<String> = [
            "the", "a", "an", "and", "your", "some", "any", "what", "how", "about", "that", "or", "then", "so", "maybe",
            "perhaps", "also",
        ]
        static let buyWanting = words(["i want", "i need", "i would like", "i would love", "i am after"])
        static let price = words([
            "how much", "price", "prices", "cost", "costs", "what do you want for", "what do you ask for",
            "what is it worth", "worth", "do you have", "have you got", "got any", "do you sell", "you sell",
            "in stock", "do you carry", "any left",
        ])
        static let stock = words([
            "what do you sell", "what do you have", "what have you got", "what you got", "what are you selling",
            "for sale", "wares", "goods", "stock", "inventory", "merchandise", "what can i buy", "what do you offer",
            "show me", "selling", "browse", "catalog", "catalogue", "menu", "what is on offer", "on offer",
            "what else",
        ])
        static let farewell = words([
            "bye", "goodbye", "good bye", "farewell", "see you", "see ya", "take care", "so long", "good night",
            "i must go", "i have to go", "got to go", "gotta go", "i am off", "i am leaving", "cheerio",
            "until next time", "be seeing you", "i will be going", "i should go",
        ])
        static let shortFarewell = words(["later", "adieu", "ciao"])
        static let thanks = words(["thanks", "thank", "cheers", "obliged", "grateful", "thx", "ty"])
        static let greeting = words([
            "hello", "hi", "hey", "greetings", "good morning", "good afternoon", "good evening", "good day",
            "well met", "howdy", "hail", "ahoy", "hiya", "heya", "morning", "evening", "yo", "oi", "salutations",
        ])
        static let yesWords: Set<String> = [
            "yes", "yeah", "yep", "yup", "aye", "sure", "ok", "okay", "deal", "agreed", "alright", "fine", "done",
            "certainly", "absolutely", "indeed", "right",
        ]
        static let noWords: Set<String> = ["no", "nope", "nah", "never", "not"]
        static let yes = words(["very well", "of course", "sounds good", "why not", "go on", "i agree", "it is a deal"])
        static let no = words([
            "no thanks", "no thank you", "not now", "never mind", "nevermind", "maybe later", "no deal",
            "i will pass", "pass", "not interested", "i do not think so", "forget it",
        ])
        static let introduce = words([
            "who are you", "your name", "who is this", "what do you do", "what is your job", "about yourself",
            "yourself", "who might you be", "what are you", "what is this place", "where am i", "introduce",
        ])
        static let rumors = words([
            "news", "gossip", "rumour", "rumor", "rumours", "rumors", "heard anything", "what is new",
            "anything new", "what is happening", "what is going on", "tell me something", "latest", "any tales",
            "stories", "story", "heard about",
        ])
        static let smallTalk = words([
            "how are you", "how is business", "how is it going", "how do you do", "weather", "nice day",
            "lovely day", "fine day", "how are things", "what is up", "how have you been", "busy", "how is trade",
            "how goes it", "how is life", "rain", "sunny", "cold today",
        ])
    }
}
