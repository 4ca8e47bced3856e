import Foundation
import GameWorld
import LanguageModels
import OpenAICompatible
import ScriptedModel

/// Which model plays the NPCs: the embedded scripted model, or an OpenAI-compatible server.
///
/// Written as `scripted`, or as a server's `/v1` URL with an optional model name after `#`:
///
/// ```
/// scripted
/// http://127.0.0.1:8080/v1
/// http://127.0.0.1:11434/v1#llama3.2
/// ```
public enum ModelChoice: Sendable, Equatable, CustomStringConvertible {
    /// The embedded scripted model, each NPC played from its dialogue rules.
    case scripted(seed: UInt64)
    /// An OpenAI-compatible server, shared by all NPCs.
    case server(baseURL: String, model: String?)

    /// A choice that was not understood.
    public struct InvalidSpecification: Error, CustomStringConvertible {
        /// What was given.
        public let specification: String
        /// What is wrong and what to write instead.
        public var description: String {
            "\"\(specification)\" is not a model: use scripted, or a server's URL such as http://127.0.0.1:8080/v1 "
                + "(add #name for servers that serve several models, e.g. http://127.0.0.1:11434/v1#llama3.2)"
        }
    }

    /// Parses a choice.
    ///
    /// - Parameters:
    ///   - specification: `scripted` or a URL, as above.
    ///   - seed: The scripted model's seed.
    /// - Returns: The choice.
    /// - Throws: `InvalidSpecification`.
    public static func parse(_ specification: String, seed: UInt64 = 0) throws -> ModelChoice {
        let trimmed = specification.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "scripted" || trimmed.isEmpty { return .scripted(seed: seed) }
        guard trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") else {
            throw InvalidSpecification(specification: specification)
        }
        let parts = trimmed.split(separator: "#", maxSplits: 1).map(String.init)
        let model = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        return .server(baseURL: parts[0], model: model)
    }

    /// `scripted` or the URL (with `#model`).
    public var description: String {
        switch self {
        case .scripted: "scripted"
        case .server(let url, let model): url + (model.map { "#\($0)" } ?? "")
        }
    }

    /// Makes the provider a `Game` asks for each NPC's model. A server is contacted once, here, so a server that
    /// is down is reported before the game starts.
    ///
    /// - Returns: The provider.
    /// - Throws: `ModelServerError` when the server cannot be reached.
    public func makeProvider() async throws -> Game.ModelProvider {
        switch self {
        case .scripted(let seed):
            return { npc, world in ScriptedModel(npc: npc, world: world, seed: seed) }
        case .server(let url, let model):
            let backend = try await OpenAICompatibleLanguageModel.connect(.init(baseURL: url, model: model))
            return { _, _ in backend }
        }
    }
}
