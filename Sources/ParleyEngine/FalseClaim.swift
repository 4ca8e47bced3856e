/// A statement in an NPC's line that is false in the game, found by `ClaimChecker`.
///
/// ```swift
/// FalseClaim(kind: .stock, claim: "Weapons? Not on my rack",
///            truth: "Brannoc Ashdown has and sells weapon: Iron Dagger, Short Sword, Silver Sword")
/// ```
public struct FalseClaim: Sendable, Equatable, CustomStringConvertible {
    /// What the statement is about.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A price the NPC gives for a named item.
        case price
        /// Whether the NPC has, or sells, an item or a category of items.
        case stock
        /// How many of an item the NPC has.
        case quantity
        /// What the player has: an item, how many, or their gold.
        case possession
        /// The terms of an offer, or that there is one.
        case agreement
    }

    /// What the statement is about.
    public var kind: Kind
    /// The words of the statement, as the NPC said them (the sentence, or the two that make it).
    public var claim: String
    /// What is true in the game instead.
    public var truth: String

    /// Creates a false claim.
    ///
    /// - Parameters:
    ///   - kind: What it is about.
    ///   - claim: The words.
    ///   - truth: What is true instead.
    public init(kind: Kind, claim: String, truth: String) {
        self.kind = kind
        self.claim = claim
        self.truth = truth
    }

    /// `price: "Claw Hammer. 15 gold." (true: Brannoc Ashdown asks 12 gold for one Claw Hammer, …)`.
    public var description: String { "\(kind.rawValue): \"\(claim)\" (true: \(truth))" }
}
