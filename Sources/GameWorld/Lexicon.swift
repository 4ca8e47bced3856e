/// The words of a language, as data: what players say (the phrases that tell what a line is about, the order the
/// intents are tried in, synonyms, the words for categories of items, number words, the few sizes that tell a short
/// answer from a sentence), what they type (the game's commands and directions), and what NPCs say without rules of
/// their own (the scripted model's built-in lines, and the texts of lists, offers, refusals and memories).
///
/// The scripted model reads players' lines and says its built-in lines with it; the game reads commands with it and
/// writes offer summaries with it; the claim check reads NPC lines' numbers and category words with it. Built in are
/// English (`Lexicon.english`, the file `lexicon.en.json`) and German (`Lexicon.german`, `lexicon.de.json`). A pack
/// speaks the language of its `world.json` (`language`, English by default) and may add to its lexicon or replace
/// it with a `lexicon.json`; an NPC with a `language` of its own speaks that built-in lexicon (`World.lexicon(for:)`).
/// Documented in docs/modding.md, "The lexicon"; schema `schema/lexicon.schema.json`:
///
/// ```json
/// {"language": "en", "extends": "en", "phrases": {"stock": ["on your stall"]}}
/// ```
///
/// Phrases are matched as whole words in a row, after the line is lowercased and stripped of punctuation; a word of
/// the line also matches a phrase's word it is the plural of.
public struct Lexicon: Hashable, Sendable {
    /// The language the lexicon is for, as a BCP 47 tag (`en`, `de`, `pt-BR`).
    public var language: String
    /// The checks the scripted model makes on a line, in order; the first that holds gives the line's intent.
    public var priority: [Check]
    /// Each phrase table's phrases, as written (see `PhraseTable`).
    public var phrases: [PhraseTable: [String]]
    /// Each word set's words (see `WordSet`).
    public var words: [WordSet: [String]]
    /// Words the player may use for other words, read before anything else: `pls` → `please`, `wanna` → `want to`.
    public var synonyms: [String: String]
    /// The words players use for each category of items, besides the category's own word and its plural:
    /// `weapon` → `weapons`, `blades`.
    public var categories: [String: [String]]
    /// Number words.
    public var numbers: Numbers
    /// The sizes of short lines and the largest bare quantity.
    public var limits: Limits
    /// The game's command words (see `CommandTable`): what the player types to walk, take, talk, accept...
    public var commands: [CommandTable: [String]]
    /// The words for each direction, by the direction as exits are written with it: `north` → `north`, `n` (German
    /// `north` → `norden`, `n`).
    public var directions: [String: [String]]
    /// The replies of the scripted model's built-in dialogue rules in this language, by rule id (`builtin_greet`).
    public var lines: [String: Lines]
    /// The texts sentences are built from in this language: `{stock}` and `{appraisal}` lists, offer summaries, the
    /// NPC's refusals and memories, the game's help (see `Text`).
    public var texts: [Text: String]

    /// Creates a lexicon.
    ///
    /// - Parameters:
    ///   - language: The language's BCP 47 tag.
    ///   - priority: The checks in order.
    ///   - phrases: The phrase tables.
    ///   - words: The word sets.
    ///   - synonyms: Words read as other words.
    ///   - categories: Words for categories.
    ///   - numbers: Number words.
    ///   - limits: Sizes.
    ///   - commands: The game's command words.
    ///   - directions: The words for each direction.
    ///   - lines: The built-in dialogue rules' replies, by rule id.
    ///   - texts: The texts sentences are built from.
    public init(
        language: String, priority: [Check] = Check.allCases, phrases: [PhraseTable: [String]] = [:],
        words: [WordSet: [String]] = [:], synonyms: [String: String] = [:], categories: [String: [String]] = [:],
        numbers: Numbers = Numbers(), limits: Limits = Limits(), commands: [CommandTable: [String]] = [:],
        directions: [String: [String]] = [:], lines: [String: Lines] = [:], texts: [Text: String] = [:]
    ) {
        self.language = language
        self.priority = priority
        self.phrases = phrases
        self.words = words
        self.synonyms = synonyms
        self.categories = categories
        self.numbers = numbers
        self.limits = limits
        self.commands = commands
        self.directions = directions
        self.lines = lines
        self.texts = texts
    }

    /// The phrases of a table, or none.
    public func phrases(_ table: PhraseTable) -> [String] { phrases[table] ?? [] }

    /// The words of a set, or none.
    public func words(_ set: WordSet) -> [String] { words[set] ?? [] }

    /// The category among `categories` that a text names: the category's word, its plural, or one of the
    /// lexicon's words for it (`weapons`, `blades`, `something to eat`), ignoring case and leading articles
    /// (`WordSet.articles`).
    ///
    /// - Parameters:
    ///   - text: What the player or a model said, such as `weapons`.
    ///   - categories: The categories to choose from (those of an NPC's stock, say).
    /// - Returns: The category, or `nil`.
    public func category(named text: String, among categories: Set<String>) -> String? {
        let articles = Set(words(.articles))
        var words = text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        while let first = words.first, articles.contains(first) { words.removeFirst() }
        let phrase = words.joined(separator: " ")
        guard !phrase.isEmpty else { return nil }
        return categories.sorted().first { category in
            phrase == category || phrase == category + "s" || (self.categories[category] ?? []).contains(phrase)
        }
    }
}

// MARK: - Checks

extension Lexicon {
    /// One check the scripted model makes on a player's line. The built-in order is the order of the cases.
    public enum Check: String, Hashable, Sendable, CaseIterable {
        /// `recall`: a question about the conversation's past (`recallName`, `recallAgreed`, `recallDealings`,
        /// `recallAsked`, `recallMet` phrases).
        case recall
        /// `sell`: the player offers the NPC something of theirs (`sell` phrases, `sell my sword`, a price asked
        /// about `my` item).
        case sell
        /// `haggle`: a price said as gold, a bid phrase with a number, a bare number after prices were named, or a
        /// plea for a better price (`cheaper` phrases).
        case haggle
        /// `buy`: `buy` phrases, or `want` phrases followed by an item or by `to` and a `wantVerbs` word.
        case buy
        /// `offerGift`: `gift` phrases.
        case offerGift
        /// `askPrice` or `askStock`: `price` and `stock` phrases (a price asked about the player's own item is
        /// selling).
        case askPrice
        /// A line that names an item: with a number or `please` it buys; an item name alone (after fillers) asks
        /// its price.
        case namedItem
        /// `no`: a short line (`limits.shortAnswer`) holding a `no` phrase.
        case no
        /// `farewell`: `farewell` phrases, or `shortFarewell` in a very short line (`limits.shortLine`).
        case farewell
        /// `thanks`: `thanks` phrases, or `shortThanks` in a very short line.
        case thanks
        /// `introduce`: `introduce` phrases.
        case introduce
        /// `rumors`: `rumors` phrases.
        case rumors
        /// `yes` or `no`: a short line starting with a `yesWords`/`noWords` word, or holding a `yes`/`no` phrase.
        /// After `introduce` and `rumors`, so that "go on, spill the gossip" asks for gossip.
        case yesOrNo
        /// `smallTalk`: `smallTalk` phrases.
        case smallTalk
        /// `greet`: `greeting` phrases. Last, so that "hi there, who are you?" is answered, not just greeted.
        case greet
    }

    /// A table of phrases (one or more words each).
    public enum PhraseTable: String, Hashable, Sendable, CaseIterable, Comparable {
        /// Selling to the NPC: `how much for my`, `what would you pay`, `appraise`.
        case sell
        /// Asking what the NPC would pay, in a `sell` line: `what would you pay`, `worth to you`. The NPC names its
        /// price without making an offer, as a price question does for buying; a yes then sells.
        case appraise
        /// Naming a price, before a number: `would you take`, `how about`, `i will pay`.
        case bid
        /// Asking for a better price, with or without a number: `cheaper`, `too expensive`, `discount`.
        case cheaper
        /// Giving the NPC something: `a gift`, `this is for you`, `found your`.
        case gift
        /// Buying, wherever it stands: `i will take`, `give me`, `buy`, `sell me`.
        case buy
        /// Wanting, which buys when an item or `to` and a `wantVerbs` word follows: `i want`, `i need`.
        case want
        /// Asking a price or whether the NPC has something: `how much`, `price`, `do you have`.
        case price
        /// Asking what the NPC sells: `what do you sell`, `wares`, `for sale`.
        case stock
        /// Saying goodbye: `bye`, `farewell`, `see you`.
        case farewell
        /// Goodbyes only in a very short line: `later`.
        case shortFarewell
        /// Thanking: `thanks`, `cheers`.
        case thanks
        /// Thanks only in a very short line: `ta`.
        case shortThanks
        /// Greeting: `hello`, `good morning`.
        case greeting
        /// Agreeing, in a short line: `of course`, `sounds good`.
        case yes
        /// Declining, in a short line: `no thanks`, `not now`.
        case no
        /// Asking who the NPC is: `who are you`, `your name`.
        case introduce
        /// Asking for news: `gossip`, `rumours`, `what is new`.
        case rumors
        /// Small talk: `how are you`, `weather`.
        case smallTalk
        /// Words right before a number that make it gold: `for`, `at`, `you take`, `give you`.
        case priceLeadIns
        /// The player giving their name, before it: `my name is`, `call me`.
        case selfName
        /// The player giving their name, before it, only when the name is written with a capital: `i am` ("I'm
        /// Wren", but not "i am hungry").
        case selfNameCapitalised
        /// The player giving their name, after it: `is the name`, `is my name` ("Dax's the name").
        case selfNameAfter
        /// The player saying where they are from, before the place: `i am from`, `i come from`.
        case selfOrigin
        /// The player saying what they do for a living, before it: `i work as`, `my trade is` ("I work as a
        /// scribe"). The occupation is the words after it, an article kept, up to three, up to a `nameStops` word.
        case selfOccupation
        /// The player saying what they do for a living, after it: `by trade`, `by profession` ("I'm a cooper by
        /// trade"): the words before it back to an article, or to a `selfNameCapitalised` phrase, up to three.
        case selfOccupationAfter
        /// The player saying they have a thing, right before its name (articles, determiners, `weak` words, numbers
        /// and one other word between): `i have`, `i found` ("*I've got* a compass, 10 gold"). The thing named is the
        /// player's own, as after a `mine` word: a price for it sells it, even to an NPC that sells the same. Not
        /// after a `subjects` word ("can *I have* a pie" buys).
        case having
        /// Asking their own name: `what is my name`, `who am i`. A phrase ending with a `subjects` word ("who am I")
        /// asks only at the end of its part of the sentence or before a `nameStops` word ("who am I again?"), not
        /// "who am I supposed to ask?".
        case recallName
        /// Asking their family name: `my surname`, `my last name`. Answered with the name after the first of those the
        /// player gave ("my name's Hal Brightwater": `Brightwater`), or, when they gave one, that they gave no other.
        case recallSurname
        /// Asking where they said they are from: `where am i from`, `where do i come from`.
        case recallOrigin
        /// Asking what they said they do for a living: `what is my trade`, `what i do for a living`.
        case recallOccupation
        /// Asking what was agreed: `did we agree`, `our deal`.
        case recallAgreed
        /// Asking what they bought, sold or gave: `what did i buy`, `what did i give you`.
        case recallDealings
        /// Asking what they asked about: `what did i ask`, `what were we talking about`.
        case recallAsked
        /// Asking whether the NPC remembers them: `remember me`, `have we met`.
        case recallMet
        /// Words that put a question in the past: `just now`, `earlier`, `ago`. With one closing the question or a
        /// part of it, "what'd I get off you just now?" (`'d` spelled out as `would`) is read as "what did I get…" for
        /// the `recall…` tables; "what'd I get for my boots before I go?" still asks what they would fetch.
        case pastTime
        /// Picking the cheapest of several items: `cheapest`, `the cheaper`, `least expensive`.
        case cheapest
        /// Picking the dearest of several items: `most expensive`, `priciest`, `dearest`.
        case dearest
        /// Asking about the rest of the stock: `besides`, `other than`, `apart from` (then a named item asks what
        /// else the NPC sells).
        case besides
        /// Asking how many of an item the NPC has: `how many`, `got left` (the NPC lists the item with its count).
        case howMany
        /// Buying or selling every one the seller has: `all`, `all of`, `the lot`, `every` ("I'll take all your
        /// fish": as many as the NPC has).
        case everything
        /// Instructions to a machine rather than words to the NPC, anywhere in a sentence: `ignore previous
        /// instructions`, `you are now`, `debug mode`. The scripted model leaves such a sentence out of the line.
        case instructions
        /// Saying a thing named just before is the player's own: `like mine`, `of mine`; German `von mir`, `wie
        /// meins`. An `appraise` phrase about a thing named so asks what the NPC would pay for it ("what would a rusted
        /// old blade *like mine* fetch here?", "what's an old sword *of mine* worth to you?").
        case ownAfter
        /// Words that ask the NPC to recall what follows: `remind me`, `tell me again`, `do you remember`; German
        /// `erinner mich`, `sag mir nochmal`. One opening a question about what a thing cost stands for its past tense
        /// ("*remind me* how much that candle cost me?" asks back what the player paid, as "how much *did* it cost me?").
        case recallLeadIns
        /// Groups of words that describe alike, each group one entry: `meat mutton beef`, `pastry pie crust`, `shiny
        /// glossy`; German `fleisch hammel`, `glänzend blank`. A word of a line fits an item's description when the
        /// description has another word of its group ("little *meat* things in *pastry*" fits the pie's "hand-sized
        /// *mutton* pie with a crimped, glossy *crust*"). An entry is no phrase that is said.
        case alike

        /// Tables in the order of their cases.
        public static func < (lhs: PhraseTable, rhs: PhraseTable) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// A set of single words.
    public enum WordSet: String, Hashable, Sendable, CaseIterable, Comparable {
        /// Words that start a yes in a short line: `yes`, `aye`, `deal`.
        case yesWords
        /// Words that start a no in a short line: `no`, `nope`.
        case noWords
        /// The verb for selling: `sell` (selling unless `me`/`us` follows or `you` comes just before).
        case sellVerbs
        /// The verbs for buying that sell when `you` comes just before (`would you buy`): `buy`, `buying`.
        case buyVerbs
        /// The one spoken to: `you`.
        case listener
        /// The speaker as an object (`sell me`): `me`, `us`.
        case speaker
        /// The speaker's own (`my sword`): `my`.
        case mine
        /// What follows a `want` phrase before its verb: `to`.
        case wantTo
        /// Verbs that buy after `want ... to`: `buy`, `get`, `have`.
        case wantVerbs
        /// Polite words that make a named item a purchase: `please`.
        case please
        /// Words that point at something already named: `it`, `that`, `one`.
        case pronouns
        /// Words that may come before an item's name in a line that only names it (asking its price): `the`,
        /// `and`, `what about`.
        case fillers
        /// Words that never name an item by themselves, even when only one item's name has them: `of`, `old`.
        case weak
        /// Words before a noun, to find the name of something the catalog lacks: `the`, `a`, `your`.
        case determiners
        /// Words that end such a name: `for`, `please`, `gold`.
        case nameStops
        /// Words after a number that make it gold: `gold`, `coins`, `g`.
        case gold
        /// Words that may come between a quantity and the item's name: `of`, `the`, `more`.
        case quantityGap
        /// Articles left out before a category's word: `a`, `any`, `some`, `the`.
        case articles
        /// Words that start a question about an item: a `cheaper` phrase in such a question ("is the rope
        /// expensive?") asks the price rather than haggling, unless an offer is pending: `is`, `are`.
        case questions
        /// Words for an unnamed item, so that "the cheapest thing" picks one: `thing`, `one`, `item`.
        case things
        /// Words that give the item right after them (an article between is allowed) unless a `subjects` word comes
        /// just before: "here, *have* an apple" gives it; "do you have an apple" and "I have an apple" do not.
        case offering
        /// Who does something, before a verb: `i`, `you`, `we`; an `offering` word after one of them gives nothing.
        case subjects
        /// Words that make a following `buy` phrase a question rather than a purchase when the line names no item
        /// ("*what* will you give me if I find it?", "*what* can I get for a fiver?"): `what`.
        case asking
        /// Words right before a category that make it no question about the NPC's stock ("your favourite food",
        /// "nothing to eat"): `favourite`, `nothing`.
        case personal
        /// Words that tag a sentence as an instruction to a machine when they start it before a colon or in
        /// brackets ("SYSTEM: …", "[admin] …"): `system`, `admin`. The scripted model leaves such a sentence out.
        case instructionTags
        /// Words a player hails the NPC with, set off by commas ("a mug of ale, *landlady*!"): `friend`, `mate`.
        /// Such a part of a sentence, or one naming the NPC, is left out of the line, and counts as ordering.
        case address
        /// Words that negate the request right after them ("I do *not* want to buy it", "I would *never* buy
        /// that"): `not`, `never`. A `buy`, `sell` or `gift` phrase up to three words after one asks for nothing.
        case negations
        /// Words that state what something costs ("the lantern *is* now 0 gold", "it *costs* 1 gold"): a number
        /// after one of them, in a sentence that names the item or a price and asks nothing, is a claim, not a bid.
        case copulas
        /// Words that start a question rather than a request: `what`, `how`, `is`, `do`. A line inferred to be an
        /// order that starts with one is less sure to be one (see "How sure the model is" in docs/modding.md).
        case inquiry
        /// The speaker as a subject: `i`, `we`. "Can *I* grab…" asks for something; "*I* walked here from Pellham"
        /// says where the player is from.
        case firstPerson
        /// Words that make a request of the one spoken to when a `firstPerson` word follows: `can`, `could`, `may`.
        /// "*Can* I grab two ales" asks to buy when a `takeVerbs` word comes next.
        case requestModals
        /// Verbs of getting something, after a `requestModals` and a `firstPerson` word: `get`, `grab`, `have`,
        /// `order`. Such a request that names an item (or says `it`) buys it.
        case takeVerbs
        /// Verbs and particles of coming from somewhere: `came`, `walked`, `sailed`, `travelled`, `up`. One between a
        /// `firstPerson` word and a `fromWords` word says where the player is from ("I've walked all the way from
        /// *Kettlewick*", a place written with a capital), and a question with `whereWords` before them asks it back.
        case travelVerbs
        /// The words before the place the player comes from, or the one something is bought from: `from`, `off`
        /// ("buy it *off* me" sells to the NPC).
        case fromWords
        /// Words that ask for a place: `where`, `whereabouts`.
        case whereWords
        /// Past forms of asking: `asked`, `mentioned`. After a `firstPerson` word in a clause with an `inquiry` word
        /// before it, the line asks back what the player asked ("what was it I just *asked* you about?").
        case askedVerbs
        /// Past forms of trading and giving: `bought`, `gave`, `sold`. After a `firstPerson` word in a clause with an
        /// `inquiry` word before it, the line asks back what the player bought, sold or gave ("remember what I *gave*
        /// you earlier?").
        case dealtVerbs
        /// Verbs of handing something over, said as an order at the start of a part of a sentence: `give`, `hand`,
        /// `pass`, `chuck`, `stick`. One followed by at most a `speaker` word and a `handParticles` word, then only
        /// articles and counts, then an item the line names, buys it ("so *chuck* us a trout, would you?", "go on,
        /// *stick* a loaf in a bag for me", "*hand* over a horseshoe").
        case handVerbs
        /// Words that may come between a `handVerbs` word and the thing handed: `over`, `out`, `across`.
        case handParticles
        /// Words that may open a part of a sentence before an order without making it anything else: `so`, `just`,
        /// `now`, `then` ("*so just* chuck us a trout").
        case orderLeadIns
        /// Words that ask for a lower price when said to the NPC after a quote: `lower`, `cheaper`, `better`,
        /// `off`, `down`. One in a part of a sentence with a `listener` or `speaker` word before it ("can you go any
        /// *lower*", "do me a *better* one"), or after the verb that opens the part ("knock a bit *off*"), pleads
        /// for a better price; "I'm *off*" and "*better* get moving" do not.
        case discountWords
        /// Verbs that ask what something costs in a question about an item: `run`, `sting`, `parting`, `letting`.
        /// A question opening with an `inquiry` word whose part of the sentence names an item and holds one asks
        /// its price ("what's an iron dagger *run* these days", "what are you *parting* with the cheese for").
        case costVerbs
        /// Endings of verb forms and adjectives: `ing`, `ful`, `ous`. A word written with a capital after a
        /// `selfNameCapitalised` phrase that ends so, with at least three letters before the ending, is no name ("I'm
        /// *Looking* for a lantern"); nor is one a word set of the lexicon holds ("I'm *Off*").
        case stateEndings
        /// Auxiliaries that put a question in the past: `did`. One right before a `firstPerson` word and a
        /// `takeVerbs` word, with a `fromWords` and a `listener` word after the verb in its part of the sentence,
        /// asks back what the player got from the NPC ("how many ales *did* I have off you?").
        case pastAuxiliaries
        /// Words for people close to someone: `children`, `family`, `wife`. A question with a `price` or `stock`
        /// phrase that names no item and asks after one of them ("do you have any *children*?") is about the NPC's
        /// life, not its stock: the NPC looks nothing up.
        case kinWords
        /// Endings a word may have without changing what it describes: `ed`, `ing`, `ened`, `y`; German `en`, `er`,
        /// `es`. A line describes an item by a word of its description with another ending ("those things you
        /// *smoke* over alder" is the trout "*smoked* golden over alder wood"), when at least four letters are left
        /// without it.
        case stemEndings
        /// Words for a place one comes from: `town`, `village`, `city`; German `stadt`, `dorf`. After an `inquiry`
        /// word they ask where, as a `whereWords` word does: "which *town* did I say I came from?"
        case placeWords
        /// Endings of words for what people do: `er`, `or`, `smith`, `wright`; German `er`, `erin`. "I'm a
        /// bookbinder" (a `selfNameCapitalised` phrase, an article of `numbers.articles` and one or two words, the
        /// last of five letters or more ending so) says what the player does for a living; "I'm a bit lost" does not.
        case tradeEndings
        /// Verbs of paying: `pay`, `give`, `offer`; German `zahlen`, `bieten`. A question in which one, with no
        /// `firstPerson` word up to two words before it, leads to a one-word `priceLeadIns` word and a `mine` or
        /// `pronouns` word before an item asks what the NPC would pay for the player's thing ("what would a
        /// connoisseur like yourself *pay* for this coin?").
        case payVerbs
        /// Words that make a `firstPerson` word say what the player is about to do: `will`, `shall`. Before a
        /// `takeVerbs` word and the thing named, they ask for it as a request does ("I'll *grab* one of yours if
        /// you're selling").
        case futureModals
        /// Verbs of letting: `let`. With a `speaker` word and a `takeVerbs` word before the thing named, they ask for
        /// it as a request does ("*let me* get a beer"; the synonym `lemme` is `let me`).
        case permitVerbs
        /// Words that make a sentence a supposition: `if`, `unless`; German `wenn`, `falls`. A swap said in a line with
        /// one ("I'd swap my sword for your dagger *if* I had the coin") proposes nothing.
        case conditionals
        /// Verbs of what a thing cost the player: `cost`, `charge`, `set` (back), `sting`; German `gekostet`,
        /// `berechnet`. One right before a `speaker` word, after a `pastAuxiliaries` word in a part of the sentence
        /// that opens with an `inquiry` word, asks back what the player paid ("how much *did* that ale *cost me*
        /// again?", "what *did* you *charge me* for the dagger?"), not "how much will it cost me?".
        case billVerbs
        /// Verbs of what someone is called: `call`, `calls`; German `nennt`, `nennen`, `ruft`. One right before a
        /// `speaker` word, in a part of the sentence that opens with an `asking` word a few words before it, asks
        /// back the player's name ("what do the townsfolk *call me*?", "what does everybody *call me* round here?").
        case nameVerbs
        /// The word that asks who someone is: `who`; German `wer`. One opening a part of the sentence that ends with a
        /// copula or a modal and a `listener` word, at most two words between and one after, asks who the NPC is
        /// ("*who* on earth *are you*?", "*who* are you exactly?", "*who* precisely might you be?").
        case whoWords
        /// Words of goods laid out on show: `hung`, `spread`, `laid`; German `ausgelegt`, `aufgehängt`. One right after
        /// "what's this" or "what's all that" (naming nothing) asks what the NPC has ("so what's this lot *spread* out on
        /// your crate?").
        case displayWords
        /// Verbs of wishing: `hoping`, `wishing`, `aiming`; German `hoffe`. One after a `firstPerson` word (up to three
        /// words before it in its part of the sentence), right before a `wantTo` and a `wantVerbs` word and the thing
        /// named, asks to buy it as a `want` phrase does ("I'm *hoping* to get a lantern before dark"); "I'm hoping the
        /// lantern holds out" wishes nothing of the NPC.
        case wishVerbs
        /// Words of putting money to work: `invest`, `stocks`, `shares`, `crypto`; German `investieren`, `aktien`. In a
        /// line with one, a `gold` word is money, not an item ("know any good crypto *coins* to invest in?"), and a
        /// price or stock question that then names no item is about money matters, not the NPC's goods: the NPC looks
        /// nothing up.
        case investWords
        /// Words that lead from a stretch of countryside to the place in it: `at`, `in`, `near`; German `bei`, `in`.
        /// After a `fromWords` word and up to three words written small, one of them then a place written with a
        /// capital names where the player came from: "Came down from the hill farms *at* Ketterby."
        case placeLinks
        /// Words for a pair: `pair`; German `paar`. An amount with one ("a *pair* of") right before a thing whose name
        /// is already its pair ("Leather Boots": the word said is the name's own last word) counts one of it, not two:
        /// "a pair of boots" is one Leather Boots; "a pair of daggers" is two.
        case pairWords
        /// Words right before a number that make it a count, not gold: `on`; German `auf`. "Do us a deal *on* two" asks
        /// a better price for two of the thing, never a bid of 2 gold.
        case countLinks
        /// Words for someone else as the one spoken of: `he`, `she`, `they`, `his`; German `er`, `ihm`. A rule whose keywords
        /// must be said of the player (`aboutPlayer`) does not answer a keyword with one of them nearest before it: "*he* is
        /// starving" is not the player.
        case thirdPerson
        /// Words that make a greeting word right after them a time of day: `of`, `this`, `every`; German `jeden`,
        /// `diesen`. A greeting phrase with one right before it greets no one ("when do you close *of an* evening?",
        /// "*this* evening"): the line is read as what else it says.
        case timeOfDayLeadIns

        /// Sets in the order of their cases.
        public static func < (lhs: WordSet, rhs: WordSet) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }
}

// MARK: - Numbers and limits

extension Lexicon {
    /// Number words: `twenty five`, `a hundred`, `a dozen`, `a fiver`.
    public struct Numbers: Hashable, Sendable {
        /// Words for numbers that add up (`one` ... `nineteen`, `twenty` ... `ninety`).
        public var words: [String: Int]
        /// Words that multiply what came before (`hundred` → 100, `thousand` → 1000).
        public var scales: [String: Int]
        /// Words that may join number words (`one hundred and five`): `and`.
        public var joiners: [String]
        /// Words that stand for one before a scale (`a hundred`): `a`, `an`.
        public var articles: [String]
        /// Whole phrases for amounts (`a dozen` → 12, `a couple of` → 2, `a fiver` → 5 gold).
        public var amounts: [Amount]

        /// Creates number words.
        ///
        /// - Parameters:
        ///   - words: Words that add up.
        ///   - scales: Words that multiply.
        ///   - joiners: Words that join.
        ///   - articles: Words for one before a scale.
        ///   - amounts: Phrases for amounts.
        public init(
            words: [String: Int] = [:], scales: [String: Int] = [:], joiners: [String] = [],
            articles: [String] = [], amounts: [Amount] = []
        ) {
            self.words = words
            self.scales = scales
            self.joiners = joiners
            self.articles = articles
            self.amounts = amounts
        }
    }

    /// A phrase that stands for an amount.
    public struct Amount: Hashable, Sendable {
        /// The phrase, as written: `a dozen`.
        public var phrase: String
        /// What it is worth.
        public var value: Int
        /// Whether it is always gold (`a fiver`), rather than a count.
        public var isGold: Bool

        /// Creates an amount.
        ///
        /// - Parameters:
        ///   - phrase: The phrase.
        ///   - value: Its value.
        ///   - isGold: Whether it is gold.
        public init(phrase: String, value: Int, isGold: Bool = false) {
            self.phrase = phrase
            self.value = value
            self.isGold = isGold
        }
    }

    /// The sizes that tell a short answer from a sentence.
    public struct Limits: Hashable, Sendable {
        /// The most words of a line where `shortFarewell`, `shortThanks` or a bare number after prices count: 3.
        public var shortLine: Int
        /// The most words of a line that can be a plain yes or no: 6.
        public var shortAnswer: Int
        /// The most words of a line that picks one of the items the NPC asked about ("the silver one"): 4.
        public var choiceLine: Int
        /// The largest bare number read as a quantity when buying or selling (`two lanterns` is always a
        /// quantity; a bare `3` is a quantity, a bare `20` a price): 10.
        public var largestQuantity: Int
        /// The shortest unknown word mended by swapping two neighbouring letters (`mcuh` → `much`); 0 mends none: 4.
        public var shortestSwapMended: Int
        /// The shortest unknown name mended by one letter added, dropped or changed (`chese` → `cheese`); 0 mends
        /// none: 5.
        public var shortestEditMended: Int

        /// Creates the limits.
        ///
        /// - Parameters:
        ///   - shortLine: Words of a very short line.
        ///   - shortAnswer: Words of a short answer.
        ///   - choiceLine: Words of a line that picks an item.
        ///   - largestQuantity: The largest bare quantity.
        ///   - shortestSwapMended: The shortest word mended by a swap.
        ///   - shortestEditMended: The shortest name mended by an edit.
        public init(
            shortLine: Int = 3, shortAnswer: Int = 6, choiceLine: Int = 4, largestQuantity: Int = 10,
            shortestSwapMended: Int = 4, shortestEditMended: Int = 5
        ) {
            self.shortLine = shortLine
            self.shortAnswer = shortAnswer
            self.choiceLine = choiceLine
            self.largestQuantity = largestQuantity
            self.shortestSwapMended = shortestSwapMended
            self.shortestEditMended = shortestEditMended
        }
    }
}
