import GameWorld
import LanguageModels

/// The outcome a model's reply answered (`DialogueOutcome`), as the scripted model records it in the response
/// entry's `assetIDs`, after the answering rule: `"outcome:priced"`, `"outcome:clarify"`.
///
/// It tells readers of a transcript what kind of answer a line got without reading the reply's words: above all,
/// whether the NPC asked the player back (`asksBack`) rather than answering or acting, which `parley eval` counts.
/// A reply chosen for no outcome (a greeting, small talk) records none.
///
/// ```swift
/// let asked = response.answeringOutcome?.asksBack == true   // "The lantern or the lamp oil, friend?"
/// ```
public struct AnsweringOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The outcome.
    public var outcome: DialogueOutcome

    /// Creates a record of an outcome.
    ///
    /// - Parameter outcome: The outcome the reply answered.
    public init(_ outcome: DialogueOutcome) {
        self.outcome = outcome
    }

    static let prefix = "outcome:"

    /// The outcome as an asset id: `outcome:<name>`.
    public var assetID: String { Self.prefix + outcome.rawValue }

    /// Reads an outcome from an asset id.
    ///
    /// - Parameter assetID: An asset id; one that names no outcome (a model's `id@version`, a rule) gives `nil`.
    public init?(assetID: String) {
        guard assetID.hasPrefix(Self.prefix),
            let outcome = DialogueOutcome(rawValue: String(assetID.dropFirst(Self.prefix.count)))
        else { return nil }
        self.init(outcome)
    }

    /// The outcomes whose replies ask the player back, naming what they could mean, instead of answering or
    /// acting: `clarify` (not sure the player asked to trade), `ambiguous` (which of several items), `noItem` (which
    /// item at all).
    public static let askingBack: Set<DialogueOutcome> = [.clarify, .ambiguous, .noItem]

    /// Whether the reply is a clarifying question (see `askingBack`).
    public var asksBack: Bool { Self.askingBack.contains(outcome) }

    /// The asset id.
    public var description: String { assetID }
}

extension Transcript.Response {
    /// The outcome the reply answered, when the model recorded one among the response's asset ids.
    public var answeringOutcome: AnsweringOutcome? {
        assetIDs.lazy.compactMap(AnsweringOutcome.init(assetID:)).first
    }
}
