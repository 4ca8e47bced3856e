import Foundation
import GameWorld
import Synchronization

/// The game state the engine and the NPC tools share while a turn runs.
///
/// Tools run inside `LanguageModelSession.respond`, on whatever task the session uses; they read and change the
/// game through this box, one at a time.
package final class SharedGameState: Sendable {
    /// What the box holds.
    package struct Contents: Sendable {
        /// The world and the player.
        package var game: GameState
        /// Offers NPCs made that wait for the player's answer, one per NPC.
        package var pendingOffers: [NPCID: PendingOffer] = [:]
        /// Offers the game refused this session, for feedback reports.
        package var refusedOffers: [RefusedOffer] = []
        /// The events applied since the box was filled, in order.
        package var events: [GameEvent] = []
        /// The per-unit prices each NPC quoted in its last answer, for the trade guard.
        package var quotes: [NPCID: [ItemID: Int]] = [:]
        /// Calls of the game's actions refused this session (their arguments did not fit), for feedback reports.
        package var refusedActions: [RefusedAction] = []
        /// The spoken line each NPC is answering now, while it is below its acting bar (`HeardSpeech.mayAct` is
        /// `false`): the NPC's tools that act refuse in its turn (`RefusalReason.unclearSpeech`). Set for the turn
        /// only, by `Game.say(_:to:output:)` with a `HeardSpeech`.
        package var unclearSpeech: [NPCID: HeardSpeech] = [:]
    }

    private let contents: Mutex<Contents>
    /// The rules trades follow.
    package let rules: TradeRules

    /// A box holding a game state, whose trades follow `rules`.
    ///
    /// - Parameters:
    ///   - game: The world and the player.
    ///   - rules: The rules trades follow.
    package init(_ game: GameState, rules: TradeRules = .standard) {
        contents = Mutex(Contents(game: game))
        self.rules = rules
    }

    /// Reads the contents.
    package func read<T: Sendable>(_ body: (Contents) -> T) -> T {
        contents.withLock { body($0) }
    }

    /// Changes the contents.
    package func update<T: Sendable>(_ body: (inout Contents) throws -> T) rethrows -> T {
        try contents.withLock { try body(&$0) }
    }

    /// The current game state.
    package var game: GameState { read(\.game) }

    /// Applies an event through the world's rules, or throws and changes nothing.
    package func apply(_ event: GameEvent) throws(GameEventError) {
        try contents.withLock { (contents: inout Contents) throws(GameEventError) in
            try contents.game.apply(event, rules: rules)
            contents.events.append(event)
        }
    }
}

/// An offer an NPC made that waits for the player's `accept` or `decline`.
public struct PendingOffer: Sendable, Equatable {
    /// The trade.
    public var offer: TradeOffer
    /// The offer in words, for example `Mira offers 1 Lantern for 20 gold.`
    public var summary: String

    /// Creates a pending offer.
    ///
    /// - Parameters:
    ///   - offer: The trade.
    ///   - summary: The offer in words.
    package init(offer: TradeOffer, summary: String) {
        self.offer = offer
        self.summary = summary
    }
}

/// An offer an NPC proposed that the game's rules refused.
public struct RefusedOffer: Sendable, Equatable {
    /// The NPC who proposed it.
    public var npc: NPCID
    /// What the model asked for, as the tool's arguments in JSON.
    public var proposal: String
    /// The trade, when the proposal named known items.
    public var offer: TradeOffer?
    /// Every rule the offer broke, in words.
    public var reasons: [String]
    /// Whether it was refused only because the player's spoken line was heard too unsurely to act on
    /// (`RefusalReason.unclearSpeech`): not the model's mistake, so no feedback report is filed for it.
    public var unclearSpeech = false
}

extension World {
    /// The item `text` names (id, name or alias, ignoring case and a plural `s`), preferring items in `preferred`.
    func item(named text: String, preferring preferred: Inventory? = nil) -> Item? {
        let cleaned = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        var candidates = [cleaned]
        if cleaned.hasSuffix("es") { candidates.append(String(cleaned.dropLast(2))) }
        if cleaned.hasSuffix("s") { candidates.append(String(cleaned.dropLast())) }
        candidates.append(cleaned.replacingOccurrences(of: " ", with: "_"))
        // Through the catalog's name index: a lookup follows the text, not the catalog.
        let names = itemNames
        let matches = Set(candidates.flatMap { names.items(named: $0) }).compactMap { items[$0] }
            .sorted { $0.id.rawValue < $1.id.rawValue }
        if let preferred, let owned = matches.first(where: { preferred.contains($0.id) }) { return owned }
        return matches.first
    }
}
