// MARK: - What a language's speakers type and hear besides their lines' intents

extension Lexicon {
    /// A table of the game's command words (one or more words each), or a word list the commands use.
    ///
    /// The player types a command as its words followed by what it takes: `go north`, `give bread to mira`,
    /// German `gehe nach norden`, `gib das brot an greta`. Several phrases may start the same line ("look" and
    /// "look at"): the longest that makes a command wins.
    public enum CommandTable: String, Hashable, Sendable, CaseIterable, Comparable {
        /// Describe the place: `look`, `l` (German `schau`).
        case look
        /// Describe someone here or an item: `examine`, `x`, `inspect`, `look at` (German `untersuche`).
        case examine
        /// Walk through an exit, before a direction (`directions`): `go`, `walk` (German `gehe nach`).
        case go
        /// Pick up an item lying here: `take`, `get`, `pick up` (German `nimm`).
        case take
        /// Put an item down: `drop` (German `lass`).
        case drop
        /// Hand an item to an NPC: `give`, `hand` (German `gib`), then the item, a `recipient` word and the NPC, or
        /// the NPC and the item.
        case give
        /// What the player carries: `inventory`, `i` (German `inventar`).
        case inventory
        /// Start talking to an NPC: `talk to`, `speak with` (German `rede mit`).
        case talk
        /// Say the rest to the NPC, whatever it is: `say` (German `sage`).
        case say
        /// List the offers waiting for an answer: `offers` (German `angebote`).
        case offers
        /// Accept the pending offer: `accept` (German `annehmen`).
        case accept
        /// Decline the pending offer: `decline` (German `ablehnen`).
        case decline
        /// End the conversation: `bye`, `leave` (German `tschüss`).
        case bye
        /// Show the conversation so far: `history` (German `verlauf`).
        case history
        /// Report the last reply as wrong: `report` (German `melden`).
        case report
        /// Save the game: `save` (German `speichern`).
        case save
        /// Load a saved game: `load` (German `laden`).
        case load
        /// List the saved games: `saves` (German `spielstände`).
        case saves
        /// Re-read the content pack: `reload` (German `neu laden`).
        case reload
        /// Show the commands: `help`, `commands` (German `hilfe`); `?` always does.
        case help
        /// Leave the game: `quit`, `exit` (German `beenden`).
        case quit
        /// The words between the item and the NPC in `give`: `to` (German `an`).
        case recipient
        /// Words left out before a name in a command: `the`, `a`, `my` (German `das`, `ein`, `mein`).
        case articles
        /// Words left out at the end of a command, the particle of a separable verb: `up` in "pick the apple up"
        /// (German `auf`, `ab`, `an`: "nimm das brot auf").
        case particles

        /// The tables that start a command, in the order of their cases.
        public static let commands: [CommandTable] = allCases.filter {
            ![.recipient, .articles, .particles].contains($0)
        }

        /// Tables in the order of their cases.
        public static func < (lhs: CommandTable, rhs: CommandTable) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The replies of one of the scripted model's built-in dialogue rules, in the lexicon's language: `replies` for
    /// any outcome without its own list, `outcomes` by outcome (as a dialogue rule writes them).
    public struct Lines: Hashable, Sendable {
        /// Reply variants for any outcome without its own list.
        public var replies: [String]
        /// Reply variants for particular outcomes.
        public var outcomes: [DialogueOutcome: [String]]

        /// Creates the lines of a rule.
        ///
        /// - Parameters:
        ///   - replies: Replies for any outcome.
        ///   - outcomes: Replies by outcome.
        public init(replies: [String] = [], outcomes: [DialogueOutcome: [String]] = [:]) {
            self.replies = replies
            self.outcomes = outcomes
        }
    }

    /// The words of a command table, or none.
    public func commands(_ table: CommandTable) -> [String] { commands[table] ?? [] }

    /// The direction a word names (`n`, `north`, German `norden`: `north`), ignoring case; `nil` for none.
    ///
    /// - Parameter text: What the player typed after a `go` word, or alone.
    /// - Returns: The direction as exits are written with it.
    public func direction(named text: String) -> String? {
        let text = text.lowercased()
        if directions[text] != nil { return text }
        return directions.sorted { $0.key < $1.key }.first { $0.value.contains(text) }?.key
    }

    /// A text of the lexicon (`texts`) with its placeholders filled: `{npc} offers {goods} for {price} gold.`.
    ///
    /// A placeholder without a value is left out (with nothing in its place). A lexicon without the text uses the
    /// built-in English one.
    ///
    /// - Parameters:
    ///   - key: The text.
    ///   - values: The placeholders' values, by name (`"price": "20"`).
    /// - Returns: The text.
    public func text(_ key: Text, _ values: [String: String] = [:]) -> String {
        let template = texts[key] ?? Lexicon.english.texts[key] ?? ""
        var result = ""
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            if character == "{", let close = template[index...].firstIndex(of: "}") {
                let name = String(template[template.index(after: index)..<close])
                if key.placeholders.contains(name) {
                    result += values[name] ?? ""
                    index = template.index(after: close)
                    continue
                }
            }
            result.append(character)
            index = template.index(after: index)
        }
        return result
    }

    /// Items joined as the lexicon joins them: `a`, `a and b`, `a, b and c` (the `and` text, or with
    /// `conjunction: .or`, the `or` text).
    ///
    /// - Parameters:
    ///   - items: The items.
    ///   - conjunction: `.and` or `.or`.
    /// - Returns: The list.
    public func list(_ items: [String], conjunction: Text = .and) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " \(text(conjunction)) " + items[items.count - 1]
        }
    }

    // MARK: - Built-in lexicons

    /// The language tags of the built-in lexicons: `en`, `de`.
    public static let builtInLanguages = ["en", "de"]

    /// The built-in lexicon of a language: `en` (`lexicon.en.json`) or `de` (`lexicon.de.json`); a tag with a region
    /// (`de-AT`) gets its language's. `nil` for a language without one.
    ///
    /// - Parameter language: A BCP 47 tag, any case.
    /// - Returns: The lexicon.
    public static func builtIn(_ language: String) -> Lexicon? {
        switch language.lowercased().split(separator: "-").first.map(String.init) {
        case "en": .english
        case "de": .german
        default: nil
        }
    }

    /// Whether two language tags name the same language for choosing a lexicon: equal ignoring case, or one is the
    /// other's language (`de` and `de-AT`).
    public static func sameLanguage(_ first: String, _ second: String) -> Bool {
        let first = first.lowercased()
        let second = second.lowercased()
        return first == second || first.hasPrefix(second + "-") || second.hasPrefix(first + "-")
    }
}

// MARK: - Texts

extension Lexicon {
    /// A text the game and the scripted model build sentences from, in the lexicon's language, with named
    /// placeholders (`{item}`, `{price}`...): the lists `{stock}` and `{appraisal}` hold, offer summaries
    /// (`{summary}`), the NPC's refusals (`{reasons}`), what it remembers (`{memory}`), and the game's help.
    public enum Text: String, Hashable, Sendable, CaseIterable, Comparable {
        /// The last joiner of a list: `and`.
        case and
        /// The last joiner of a list of choices: `or`.
        case or
        /// One item of `{stock}`: `{item} ({price} gold)`.
        case stockLine
        /// One item of `{stock}` with more than one in stock: `{item} ({price} gold, {quantity} in stock)`.
        case stockLineCounted
        /// `{appraisal}` for one thing: `{price} gold for your {item}`.
        case appraisalOne
        /// One thing of `{appraisal}` for several: `{item} ({price} gold)`.
        case appraisalLine
        /// `{total}`: `{price} gold for {quantity} × {item}`.
        case total
        /// One item in an offer's goods: `1 {item}`.
        case goodsOne
        /// Several of an item in an offer's goods: `{quantity} × {item}`.
        case goodsSeveral
        /// An offer selling to the player (`{summary}`): `{npc} offers {goods} for {price} gold.`
        case offerBuy
        /// An offer buying from the player: `{npc} offers {price} gold for your {goods}.`
        case offerSell
        /// An offer of goods (and gold) for the player's goods and gold, a swap: `{npc} offers {npcSide} for your
        /// {yourSide}.` Each side lists its goods and, when there is any, its gold (`1 Rusty Sword and 100 gold`);
        /// `{goods}`, `{gold}`, `{yourGoods}` and `{yourGold}` hold the parts apart.
        case offerSwap
        /// An amount of gold on one side of a swap: `{gold} gold`.
        case goldAmount
        /// The NPC gave the player something: `{npc} gives you {quantity} × {item}.`
        case given
        /// The NPC took the player's gift: `{player} gives you {quantity} × {item}.`
        case giftAccepted
        /// Refusal: the offer asks more than the NPC quoted: `I said {price} gold for the {item}, and {price} it is.`
        case refusalAsksMoreThanQuoted
        /// Refusal: the offer pays less than the NPC quoted for the player's item.
        case refusalPaysLessThanQuoted
        /// Refusal: the item is not for sale: `The {item} is not for sale.`
        case refusalNotForSale
        /// Refusal: the words name no item: `I don't know any "{text}".`
        case refusalNoSuchItem
        /// Refusal: nothing to be done.
        case refusalCannotBeDone
        /// Refusal: the offer could not be read.
        case refusalMuddled
        /// Refusal: the NPC does not trade.
        case refusalDoesNotTrade
        /// Refusal: the offer gives nothing.
        case refusalEmptyOffer
        /// Refusal: numbers out of bounds.
        case refusalNonsense
        /// Refusal: an unknown thing.
        case refusalUnknownThing
        /// Refusal: the player's quest item: `Keep your {item}; it's not for trade.`
        case refusalKeepYours
        /// Refusal: an untradeable item: `The {item} isn't something I trade.`
        case refusalUntradeable
        /// Refusal: none left: `I've no {item} left.`
        case refusalNoneLeft
        /// Refusal: fewer left: `I've only {quantity} {item} left.`
        case refusalOnlyLeft
        /// Refusal: the player has none: `You don't have any {item}.`
        case refusalPlayerHasNone
        /// Refusal: the player has fewer: `You've only {quantity} {item}.`
        case refusalPlayerHasOnly
        /// Refusal: a category the NPC does not sell: `I don't sell {category}.`
        case refusalDoesNotSell
        /// Refusal: a category the NPC does not buy: `I don't buy {category}.`
        case refusalDoesNotBuy
        /// Refusal: the player's gold: `You've only {gold} gold.`
        case refusalPlayerCannotPay
        /// Refusal: the NPC's gold: `I haven't {price} gold to give; I've {gold}.`
        case refusalNPCCannotPay
        /// Refusal: more than a purse or pack holds.
        case refusalTooMuch
        /// Refusal: below the NPC's lowest price: `I can't go below {price} gold.`
        case refusalBelowLowest
        /// Refusal: above what the NPC pays: `I can't pay more than {price} gold.`
        case refusalAboveHighest
        /// `{memory}` of the player's name: `You're {player}.`
        case recallName
        /// `{memory}` of the player's family name: `{surname}. You told me you're {player}.` (`{player}` the whole name
        /// given).
        case recallSurname
        /// `{memory}` for a family name asked when the player gave one name only: `You only ever told me {player}.`
        case recallNoSurname
        /// `{memory}` of where the player said they are from: `You told me you're from {place}.`
        case recallOrigin
        /// `{memory}` of what the player said they do for a living: `You told me you're {occupation}.`
        case recallOccupation
        /// `{memory}` of the pending sale: `We said {quantity} {item} for {price} gold, and it's yours when you
        /// accept.`
        case recallAgreedBuy
        /// `{memory}` of the pending purchase from the player.
        case recallAgreedSell
        /// `{memory}` of what the player ordered, not accepted yet.
        case recallOrderedBuy
        /// `{memory}` of what the player offered, not accepted yet.
        case recallOrderedSell
        /// `{memory}` of the last thing asked about: `You asked about the {item}.`
        case recallAsked
        /// `{memory}` of having met: `Of course I remember you.`
        case recallMet
        /// `{memory}` of having met, with the name: `Of course I remember you, {player}.`
        case recallMetName
        /// `{memory}` of a purchase: `You bought {quantity} {item} from me for {price} gold.`
        case recallBought
        /// `{memory}` of a sale: `You sold me {quantity} {item} for {price} gold.`
        case recallSold
        /// `{memory}` of a gift to the NPC: `You gave me {quantity} {item}.`
        case recallGave
        /// `{memory}` of a gift from the NPC: `I gave you {quantity} {item}.`
        case recallReceived
        /// `{memory}` of goods the player gave in part exchange for a purchase (a swap), said after that purchase:
        /// `You traded in {quantity} {item} for it.`
        case recallTradedIn
        /// Said after the NPC's offer for the first of several things ordered at once ("a pie and an ale"), naming
        /// the others: `Then the {item} after that, if you still want it.`
        case orderRest
        /// Said before the NPC's reply to a line that gives the player's name ("hi, I'm Tamsin") when the reply does
        /// not say the name itself: `{player}, is it? Glad to know you.`
        case nameHeard
        /// The game's `help`: the commands, one a line.
        case help
        /// What the game says at the start about `help`: `Type help for the commands.`
        case typeHelp
        /// A line the game does not understand: `I don't understand "{line}". {hint}`
        case notUnderstood
        /// An NPC's answer to a spoken line the speech recogniser was not sure of (`parley serve --listen`): `Sorry, I
        /// didn't catch that. Could you say it again?`
        case askAgain
        /// An NPC's answer to a spoken line heard too unsurely to act on (below the acting bar, `parley serve
        /// --listen-act-confidence`) that would have made it act (an offer, a gift, one of the game's actions), naming
        /// what it heard: `Sorry, I'm not sure I heard you right. Did you say "{heard}"? Say it again, please.`
        case askAgainToAct
        /// The hint for a line that is no command: `Type help for the commands, or talk to someone to speak freely.`
        case hintUnknown
        /// The hint for `say` alone.
        case hintSay
        /// The hint for `examine` alone.
        case hintExamine
        /// The hint for `load` without a slot.
        case hintLoad
        /// The hint for `go` alone.
        case hintGo
        /// The hint for `take` alone.
        case hintTake
        /// The hint for `drop` alone.
        case hintDrop
        /// The hint for `talk` alone.
        case hintTalk
        /// The hint for `/` alone.
        case hintSlash

        /// The placeholders the text may use.
        public var placeholders: [String] {
            switch self {
            case .and, .or, .refusalCannotBeDone, .refusalMuddled, .refusalDoesNotTrade, .refusalEmptyOffer,
                .refusalNonsense, .refusalUnknownThing, .refusalTooMuch, .recallMet, .help, .typeHelp, .askAgain, .hintUnknown,
                .hintSay,
                .hintExamine, .hintLoad, .hintGo, .hintTake, .hintDrop, .hintTalk, .hintSlash:
                []
            case .stockLine, .appraisalOne, .appraisalLine, .refusalAsksMoreThanQuoted, .refusalPaysLessThanQuoted:
                ["item", "price"]
            case .stockLineCounted, .total, .recallAgreedBuy, .recallAgreedSell, .recallOrderedBuy, .recallOrderedSell,
                .recallBought, .recallSold:
                ["item", "price", "quantity"]
            case .goodsOne, .refusalNotForSale, .refusalKeepYours, .refusalUntradeable, .refusalNoneLeft,
                .refusalPlayerHasNone, .recallAsked, .orderRest:
                ["item"]
            case .goodsSeveral, .refusalOnlyLeft, .refusalPlayerHasOnly, .recallGave, .recallReceived, .recallTradedIn:
                ["item", "quantity"]
            case .offerBuy, .offerSell: ["npc", "goods", "price"]
            case .offerSwap: ["npc", "npcSide", "yourSide", "goods", "gold", "yourGoods", "yourGold"]
            case .goldAmount: ["gold"]
            case .given: ["npc", "item", "quantity"]
            case .giftAccepted: ["player", "item", "quantity"]
            case .refusalNoSuchItem: ["text"]
            case .askAgainToAct: ["heard"]
            case .refusalDoesNotSell, .refusalDoesNotBuy: ["category"]
            case .refusalPlayerCannotPay: ["gold"]
            case .refusalNPCCannotPay: ["price", "gold"]
            case .refusalBelowLowest, .refusalAboveHighest: ["price"]
            case .recallName, .recallMetName, .nameHeard, .recallNoSurname: ["player"]
            case .recallSurname: ["surname", "player"]
            case .recallOrigin: ["place"]
            case .recallOccupation: ["occupation"]
            case .notUnderstood: ["line", "hint"]
            }
        }

        /// Texts in the order of their cases.
        public static func < (lhs: Text, rhs: Text) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }
}
