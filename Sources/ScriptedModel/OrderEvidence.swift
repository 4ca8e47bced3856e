import GameWorld

/// How sure the scripted model is that a line it read as a purchase asks to buy, when the purchase was inferred from
/// how the line names an item ("two candles?", "a mug of ale, landlady!", "I need a lantern") rather than said with
/// a `buy` phrase: cues for an order and cues for a question are added up, and the difference decides.
///
/// | Cue | For an order | For a question |
/// |---|---|---|
/// | the reading itself (a count, `please` or an article before the item; a `want` phrase) | 1 | |
/// | a `please` word | 2 | |
/// | a `want` phrase ("I need", "I'd like") | 1 | |
/// | the line ends with `!` | 1 | |
/// | the player hails the NPC, set off by commas ("…, landlady!") | 1 | |
/// | the line ends with `?` | | 1 |
/// | the line starts with an `inquiry` word ("what", "is", "do") | | 1 |
/// | a `price` or `stock` phrase ("how much", "do you have") | | 2 |
/// | the item is named after a subject or a `mine` word ("I once had one cheese", "my aunt loved a pie") | | 2 |
///
/// A difference of at least `margin` either way decides: an order (the NPC offers) or a question (the NPC names
/// the price). Below it the model is unsure, and the NPC names the item and its price and asks whether that is what
/// the player wants (`DialogueOutcome.clarify`), making no offer; a yes then buys. A purchase of an item the model
/// only guessed from a slip ("I'll take the *chese*", `Scene.nearlyNamed`) is never more than unsure.
struct OrderEvidence: Sendable, Equatable {
    /// What the evidence says.
    enum Verdict: Sendable, Equatable {
        /// The player asked to buy: the NPC may make an offer.
        case order
        /// The player asked a question: the NPC answers it and offers nothing.
        case question
        /// Too close to call: the NPC asks back.
        case unsure
    }

    /// The smallest difference between the two sides that decides.
    static let margin = 1

    /// The weight of the cues for an order.
    private(set) var forOrder = 0
    /// The weight of the cues for a question.
    private(set) var forQuestion = 0
    /// Whether the item was guessed from a slip.
    private(set) var guessedItem = false

    /// Weighs a line's cues.
    ///
    /// - Parameters:
    ///   - utterance: The line as read.
    ///   - reading: How the line was read: a purchase said with a `buy` phrase is always an order (unless the item
    ///     was guessed); one inferred is weighed.
    ///   - guessedItem: Whether the item was guessed from a slip.
    ///   - vocabulary: The pack's words.
    init(utterance: Utterance, reading: IntentDetector.Reading, guessedItem: Bool, vocabulary: Vocabulary) {
        self.guessedItem = guessedItem
        guard reading.isInferred else {
            forOrder = Self.margin
            return
        }
        let words = utterance.words
        forOrder = 1
        if words.tokens.contains(where: { vocabulary.isWord($0, in: .please) }) { forOrder += 2 }
        if words.containsAny(vocabulary.phrases(.want)) { forOrder += 1 }
        if utterance.exclaims { forOrder += 1 }
        if utterance.hails { forOrder += 1 }
        if utterance.asks { forQuestion += 1 }
        if let first = words.tokens.first, vocabulary.isWord(first, in: .inquiry) { forQuestion += 1 }
        if words.containsAny(vocabulary.phrases(.price)) || words.containsAny(vocabulary.phrases(.stock)) {
            forQuestion += 2
        }
        if reading.isStatement { forQuestion += 2 }
    }

    /// The verdict: an order or a question when one side leads by `margin`, otherwise unsure; never more than
    /// unsure for a guessed item.
    var verdict: Verdict {
        let lead = forOrder - forQuestion
        if lead <= -Self.margin { return .question }
        if lead >= Self.margin, !guessedItem { return .order }
        return .unsure
    }
}
