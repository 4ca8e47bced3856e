/// What a model made of two is made of: a *voice* (a language-model server, the model the player hears) and a
/// *planner* (a model that decides turns, and answers whenever the voice cannot answer in time or truthfully), with
/// how the two share a turn.
///
/// A model says that it is such a pair with `LanguageModel.voicing`; a caller that voices turns itself reads the two
/// models and their settings there instead of asking which backend type it holds. Parley's game does (grounded
/// voicing, the first-words deadline of free mode, the prewarming of the voice); its `VoicedModel` is the model that
/// declares it.
///
/// ```swift
/// if let voicing = session.model.voicing, voicing.mode == .grounded {
///     // the planner's line, said by `voicing.voice` in at most `voicing.sentenceBudget` sentences
/// }
/// ```
public struct ModelVoicing: Sendable {
    /// How the voice and the planner share a turn.
    public enum Mode: String, Sendable, CaseIterable, CustomStringConvertible {
        /// The planner decides the turn (intent, tool calls, the offer, the facts the reply states) and the voice
        /// only says the planned reply in its own words; a voiced line that drops a fact or states something false
        /// is regenerated once, then the planned line is said. Parley's default with a server model
        /// (`--voice grounded`).
        case grounded
        /// The voice plans the turn and calls the tools itself, as any model does; the planner answers a turn whose
        /// first words come too late.
        case free

        /// `grounded` or `free`.
        public var description: String { rawValue }
    }

    /// The language-model server that speaks.
    public let voice: any LanguageModel
    /// The model that plans each turn, and answers when the voice cannot.
    public let planner: any LanguageModel
    /// How the voice plays its part.
    public let mode: Mode
    /// How long the player waits for the first words, from the start of the turn: a voice whose first checked
    /// sentence would come later is dropped and the planned line answers; the sentences after the first may take
    /// until the turn's time limit. At least 1 ms.
    public let firstWordsDeadline: Duration
    /// The most sentences a voiced line may have; a longer one is cut after them. At least 1.
    public let sentenceBudget: Int

    /// Describes a pair.
    ///
    /// - Parameters:
    ///   - voice: The language-model server.
    ///   - planner: The model that plans the turns.
    ///   - mode: How the voice plays its part.
    ///   - firstWordsDeadline: How long the first words may take (at least 1 ms: less is 1 ms).
    ///   - sentenceBudget: The most sentences of a voiced line (at least 1: less is 1).
    public init(
        voice: any LanguageModel, planner: any LanguageModel, mode: Mode, firstWordsDeadline: Duration,
        sentenceBudget: Int
    ) {
        self.voice = voice
        self.planner = planner
        self.mode = mode
        self.firstWordsDeadline = max(firstWordsDeadline, .milliseconds(1))
        self.sentenceBudget = max(sentenceBudget, 1)
    }

    /// The planner's `id@version`, as recordings name it.
    public var plannerName: String { "\(planner.id)@\(planner.version)" }

    /// The model that takes a session's steps: the planner in `grounded` mode, the voice in `free` mode.
    public var acting: any LanguageModel { mode == .grounded ? planner : voice }

    /// Text without the voice's secrets (a server's API key) nor the planner's.
    ///
    /// - Parameter text: The text.
    /// - Returns: The text without secrets.
    public func redactingSecrets(in text: String) -> String {
        planner.redactingSecrets(in: voice.redactingSecrets(in: text))
    }
}
