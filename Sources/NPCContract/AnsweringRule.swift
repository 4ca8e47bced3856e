import GameWorld
import LanguageModels

/// The dialogue rule that answered a turn, as the model that played it records it in the response entry's
/// `assetIDs`, after the model's own id: `"rule:mira/lantern_price"` for a rule of an NPC's content,
/// `"built-in-rule:greet"` for one of the scripted model's built-in rules.
///
/// The engine runs a content rule's `effects` from the committed transcript: only a turn whose entries were
/// appended to the conversation changes the game, and a turn that failed after its rule was chosen changes
/// nothing. Readers of a transcript (replays, evaluations) see which rule answered each line.
public struct AnsweringRule: Hashable, Sendable, CustomStringConvertible {
    /// Where the rule is written.
    public enum Source: Hashable, Sendable {
        /// In the NPC's content (`npcs/<id>.json`, `dialogue.rules`).
        case npc(NPCID)
        /// Among the scripted model's built-in rules.
        case builtIn
    }

    /// Where the rule is written.
    public var source: Source
    /// The rule's id, unique among the rules of its source.
    public var id: String

    /// Creates a rule reference.
    ///
    /// - Parameters:
    ///   - source: Where the rule is written.
    ///   - id: The rule's id.
    public init(source: Source, id: String) {
        self.source = source
        self.id = id
    }

    static let npcPrefix = "rule:"
    static let builtInPrefix = "built-in-rule:"

    /// The rule as an asset id: `rule:NPC/ID` or `built-in-rule:ID`.
    public var assetID: String {
        switch source {
        case .npc(let npc): Self.npcPrefix + npc.rawValue + "/" + id
        case .builtIn: Self.builtInPrefix + id
        }
    }

    /// Reads a rule from an asset id.
    ///
    /// - Parameter assetID: An asset id; one that names no rule (a model's own `id@version`) gives `nil`.
    public init?(assetID: String) {
        if assetID.hasPrefix(Self.builtInPrefix) {
            let id = assetID.dropFirst(Self.builtInPrefix.count)
            guard !id.isEmpty else { return nil }
            self.init(source: .builtIn, id: String(id))
        } else if assetID.hasPrefix(Self.npcPrefix) {
            let rest = assetID.dropFirst(Self.npcPrefix.count)
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let npc = rest[..<slash]
            let id = rest[rest.index(after: slash)...]
            guard !npc.isEmpty, !id.isEmpty else { return nil }
            self.init(source: .npc(NPCID(String(npc))), id: String(id))
        } else {
            return nil
        }
    }

    /// The asset id.
    public var description: String { assetID }

    /// The rule in an NPC's content that this reference names, if it names one of that NPC's rules.
    ///
    /// - Parameter npc: The NPC whose turn it was.
    /// - Returns: The rule, or `nil` for a built-in rule, another NPC's rule, or an id the NPC's rules lack (content
    ///   changed since the turn).
    public func rule(of npc: NPC) -> DialogueRule? {
        guard case .npc(let owner) = source, owner == npc.id else { return nil }
        return npc.dialogue.rules.first { $0.id == id }
    }
}

extension Transcript.Response {
    /// The dialogue rule that answered, when the model recorded one among the response's asset ids.
    public var answeringRule: AnsweringRule? {
        assetIDs.lazy.compactMap(AnsweringRule.init(assetID:)).first
    }
}
