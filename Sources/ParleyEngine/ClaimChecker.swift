import Foundation
import GameWorld
import LanguageModels
import NPCContract

/// Reads one NPC line and reports the statements in it that are false in the game: prices, stock, quantities, what
/// the player has, and offers.
///
/// Precision comes first: a statement is only checked when its words say plainly what it claims (an item named with
/// an amount of gold in the same sentence, "I don't have any …", "you've no …"); anything else is not a claim. What
/// is checked and what is not is listed in docs/npc-contract.md ("Claim check").
///
/// ```swift
/// let checker = ClaimChecker(world: state.world)        // once per world
/// checker.falseClaims(in: "Weapons? Not on my rack.", npc: "brannoc", state: state, turnEntries: [],
///                     pendingOffer: nil)
/// // [stock: "Weapons? Not on my rack" (true: Brannoc Ashdown has and sells weapon: Iron Dagger, …)]
/// ```
///
/// The world's words are indexed once, in `init`; checking a line then costs in proportion to the line and the
/// turn's entries, never to the catalog or the transcript.
public struct ClaimChecker: Sendable {
    /// The world's words.
    let vocabulary: ClaimVocabulary

    /// Indexes a world's items, categories and NPC names.
    ///
    /// - Parameter world: The world whose lines will be checked (its catalog does not change during a game).
    public init(world: World) {
        vocabulary = ClaimVocabulary(world: world)
    }

    /// The false statements in one NPC line.
    ///
    /// - Parameters:
    ///   - line: What the NPC said.
    ///   - npc: The NPC.
    ///   - state: The game after the turn.
    ///   - turnEntries: The turn's transcript entries: the prices and stock its tool outputs gave (`StockReport`,
    ///     `ActionResult`) count as true for this turn, and its refusal reasons, repeated word for word, are the
    ///     game's words rather than the NPC's.
    ///   - pendingOffer: The offer pending after the turn, if any.
    /// - Returns: Every false statement, in the order of the line; empty when none was found.
    public func falseClaims(
        in line: String, npc: NPCID, state: GameState, turnEntries: [Transcript.Entry], pendingOffer: PendingOffer?
    ) -> [FalseClaim] {
        guard let speaker = state.world.npcs[npc] else { return [] }
        // The speaker's numbers: an NPC speaking another language than the pack's writes its own number words.
        let numbers = state.world.lexicon(for: npc).numbers
        let facts = ClaimTurnFacts(entries: turnEntries, pendingOffer: pendingOffer, npc: npc) { summary in
            offerTerms(in: summary, numbers: numbers)
        }
        var text = line
        for sentence in facts.gameSentences where !sentence.isEmpty {
            text = text.replacingOccurrences(of: sentence, with: ". ")
        }
        let readings = ClaimText(text).sentences.map {
            ClaimReading($0, vocabulary: vocabulary, numbers: numbers)
        }
        var context = Context(npc: speaker, state: state, facts: facts)
        for index in readings.indices {
            let previous = index > 0 ? readings[index - 1] : nil
            let next = index + 1 < readings.count ? readings[index + 1] : nil
            check(readings[index], previous: previous, next: next, in: &context)
        }
        var seen: Set<String> = []
        return context.claims.filter { seen.insert($0.description).inserted }
    }

    /// What one check needs and what it found.
    struct Context {
        /// The NPC speaking.
        var npc: NPC
        /// The game after the turn.
        var state: GameState
        /// What the turn says is true.
        var facts: ClaimTurnFacts
        /// The false statements found.
        var claims: [FalseClaim] = []

        /// Records a false statement.
        mutating func add(_ kind: FalseClaim.Kind, _ claim: String, _ truth: String) {
            claims.append(FalseClaim(kind: kind, claim: claim, truth: truth))
        }
    }

    // MARK: - One sentence

    /// Words that make a sentence's amounts something other than the NPC's price: a refusal, a comparison, a
    /// condition.
    static let hedges: Set<String> = [
        "not", "no", "never", "won't", "can't", "cannot", "don't", "isn't", "wouldn't", "couldn't", "under", "below",
        "less", "more", "over", "than", "if", "nor", "without", "unless", "shan't", "ain't",
    ]
    /// Phrases that put an amount in the player's mouth.
    static let playersWords: [[String]] = [
        ["you", "offer"], ["you", "offered"], ["you", "said"], ["you", "say"], ["you", "asked"], ["you", "ask"],
        ["you", "want"], ["you're", "offering"], ["your", "offer"], ["you", "paid"], ["you", "bought"],
        ["you", "sold"],
    ]

    private func check(
        _ reading: ClaimReading, previous: ClaimReading?, next: ClaimReading?, in context: inout Context
    ) {
        let aboutOthers = vocabulary.namesAnotherNPC(reading.words, than: context.npc.id)
        checkAgreement(reading, next: next, in: &context)
        guard !reading.sentence.isQuestion, !aboutOthers else { return }
        checkPrices(reading, previous: previous, next: next, in: &context)
        checkStock(reading, previous: previous, in: &context)
        checkPossession(reading, in: &context)
    }

    // MARK: - Agreement

    /// Whether a sentence says an offer is on the table (`say accept`, `my offer stands`, `still yours for`).
    static func claimsAnOffer(_ reading: ClaimReading) -> Bool {
        let words = reading.plainWords
        return reading.contains(["say", "accept"]) || reading.contains(["say", "decline"])
            || words.first == "accept" || reading.contains(["offer", "stands"]) || reading.contains(["as", "agreed"])
            || reading.contains(["still", "yours", "for"])
            || (reading.contains(["my", "offer"]) && !words.contains("make"))
    }

    private func checkAgreement(_ reading: ClaimReading, next: ClaimReading?, in context: inout Context) {
        let cue = Self.claimsAnOffer(reading)
        let facts = context.facts
        if cue, !facts.offerPending {
            context.add(.agreement, reading.sentence.text, "no offer from \(context.npc.name) is pending")
            return
        }
        // The terms an offer sentence states: in the sentence with the cue, the one before "Say accept", or a
        // summary ("… offers 2 × Tallow Candle for 4 gold").
        let states = cue || reading.plainWords.contains("offers") || next.map(Self.claimsAnOffer) == true
        guard states, !reading.sentence.isQuestion else { return }
        for pair in pricePairs(reading, previous: nil) {
            guard let item = pair.mention.item else { continue }
            let said = (item: item, quantity: pair.mention.quantity, price: pair.amount.value)
            func matches(_ terms: ClaimTurnFacts.Terms) -> Bool {
                guard terms.item == said.item else { return false }
                if said.price == terms.price { return said.quantity == nil || said.quantity == terms.quantity }
                return pair.amount.perUnit && said.price * terms.quantity == terms.price
            }
            if let pending = facts.pending, matches(pending) { continue }
            // With no offer pending, the "Say accept" that follows is the claim.
            if facts.pending == nil, next.map(Self.claimsAnOffer) == true { continue }
            if facts.offers.contains(where: matches) { continue }
            let truth =
                facts.pending.map {
                    "the offer pending is \($0.quantity) × \(context.state.world.name(of: $0.item)) "
                        + "for \($0.price) gold"
                } ?? "no offer from \(context.npc.name) is pending"
            context.add(.agreement, reading.sentence.text, truth)
        }
    }

    // MARK: - Prices

    /// An item named with an amount of gold that is its price.
    struct PricePair {
        /// The item (and how many).
        var mention: ClaimReading.Mention
        /// The amount.
        var amount: ClaimReading.Amount
        /// The words.
        var text: String
    }

    /// The amounts of gold a sentence ties to an item: one item and one amount; items and amounts taking turns
    /// (`A (1 gold), B (2 gold)`), each amount with the item before it; or an amount alone right after a question
    /// that only names one item (`The Brass Lantern? 25 gold`).
    func pricePairs(_ reading: ClaimReading, previous: ClaimReading?) -> [PricePair] {
        let mentions = reading.mentions
        let amounts = reading.amounts
        let text = reading.sentence.text
        if mentions.count == 1, amounts.count == 1 {
            return [PricePair(mention: mentions[0], amount: amounts[0], text: text)]
        }
        if mentions.count > 1, mentions.count == amounts.count,
            zip(mentions, amounts).allSatisfy({ $0.range.upperBound <= $1.range.lowerBound }),
            zip(amounts.dropLast(), mentions.dropFirst()).allSatisfy({ $0.range.upperBound <= $1.range.lowerBound })
        {
            return zip(mentions, amounts).map { PricePair(mention: $0, amount: $1, text: text) }
        }
        if mentions.isEmpty, amounts.count == 1, let previous, let echoed = Self.echoedItem(previous) {
            return [PricePair(mention: echoed, amount: amounts[0], text: previous.sentence.text + " " + text)]
        }
        return []
    }

    /// The item a short sentence only names (`The Brass Lantern?`, `Weapons?`, `Claw Hammer.`), if that is all
    /// it says.
    static func echoedItem(_ reading: ClaimReading) -> ClaimReading.Mention? {
        guard reading.mentions.count == 1, reading.amounts.isEmpty else { return nil }
        let mention = reading.mentions[0]
        let others = reading.plainWords.count - mention.range.count
        return others <= 2 ? mention : nil
    }

    private func checkPrices(
        _ reading: ClaimReading, previous: ClaimReading?, next: ClaimReading?, in context: inout Context
    ) {
        let npc = context.npc
        guard npc.trade.trades, !reading.containsAny(Self.hedges),
            !Self.playersWords.contains(where: reading.contains)
        else { return }
        for pair in pricePairs(reading, previous: previous) {
            guard let id = pair.mention.item, let item = context.state.world.items[id] else { continue }
            let amount = pair.amount.value
            let facts = context.facts
            var units = [1]
            if let quantity = pair.mention.quantity, quantity > 1, !pair.amount.perUnit { units.append(quantity) }
            let policy = npc.trade
            let lowest = policy.lowestPrice(forValue: item.value)
            let asking = policy.askingPrice(forValue: item.value)
            let buyBack = policy.buyBackPrice(forValue: item.value)
            let known = facts.prices[id] ?? []
            let offers = facts.offers + (facts.pending.map { [$0] } ?? [])
            let isTrue =
                units.contains { unit in
                    (lowest * unit...max(lowest, asking) * unit).contains(amount) || amount == buyBack * unit
                        || (amount % unit == 0 && known.contains(amount / unit))
                } || offers.contains { $0.item == id && $0.price == amount }
            guard !isTrue else { continue }
            var truth = "\(npc.name) asks \(asking) gold for one \(item.name)"
            if lowest < asking { truth += ", takes no less than \(lowest)" }
            truth += ", and pays \(buyBack) for one"
            if let pending = facts.pending {
                truth += "; the offer pending is \(pending.quantity) × \(context.state.world.name(of: pending.item))"
                truth += " for \(pending.price) gold"
            }
            context.add(.price, pair.text, truth)
        }
    }

    /// The offers a summary states (`Mira Quickcoin offers 2 × Tallow Candle for 4 gold.`), read with the number
    /// words of the NPC's lexicon.
    func offerTerms(in summary: String, numbers: Lexicon.Numbers) -> [ClaimTurnFacts.Terms] {
        ClaimText(summary).sentences.flatMap { sentence in
            pricePairs(ClaimReading(sentence, vocabulary: vocabulary, numbers: numbers), previous: nil).compactMap {
                pair in
                pair.mention.item.map {
                    ClaimTurnFacts.Terms(item: $0, quantity: pair.mention.quantity ?? 1, price: pair.amount.value)
                }
            }
        }
    }
}
