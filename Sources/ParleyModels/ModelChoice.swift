import Foundation
import GameWorld
import LanguageModels
import OpenAICompatible
import ParleyEngine
import ScriptedModel

/// Which model plays the NPCs: the embedded scripted model, or an OpenAI-compatible server.
///
/// The app chooses its backends; the engine only takes a provider (`Game(state:models:)`). This type is the
/// choice the `parley` command line offers (`--model`), in a module of its own so that a game embedding
/// `ParleyEngine` with models of its own links neither libcurl nor the server backend.
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

    /// For each NPC and the world it lives in, its model: the type of `Game.ModelProvider`, which a `Game` takes.
    public typealias Provider = @Sendable (_ npc: NPC, _ world: World) async throws -> any LanguageModel

    /// A choice that was not understood.
    public struct InvalidSpecification: Error, CustomStringConvertible {
        /// What was given.
        public let specification: String
        /// What is wrong with it, when it looks like a URL; `nil` when it is not one at all.
        public let problem: String?

        /// Creates the error.
        ///
        /// - Parameters:
        ///   - specification: What was given.
        ///   - problem: What is wrong with it, if it looks like a URL.
        public init(specification: String, problem: String? = nil) {
            self.specification = specification
            self.problem = problem
        }

        /// What is wrong and what to write instead.
        public var description: String {
            let shown = specification.unicodeScalars.map {
                $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0)
            }.joined()
            return "\"\(shown)\" is not a model\(problem.map { " (\($0))" } ?? ""): use scripted, or a server's URL "
                + "such as http://127.0.0.1:8080/v1 (add #name for servers that serve several models, e.g. "
                + "http://127.0.0.1:11434/v1#llama3.2)"
        }
    }

    /// The rules the model answers with besides the NPCs' own: the scripted model's built-in rules, which a server's
    /// NPCs answer with too (their planner is the scripted model, see `VoicedModel`). `EvalRunner` looks up the
    /// intents of a built-in answering rule in them.
    public var builtInRules: DialogueRules { ScriptedModel.builtInRules }

    /// Whether the choice is a server.
    public var isServer: Bool {
        if case .server = self { true } else { false }
    }

    /// Parses a choice, checking a URL as far as can be without contacting it: an `http` or `https` scheme, a
    /// host, a port from 1 to 65535 if one is given, and no spaces or control characters.
    ///
    /// - Parameters:
    ///   - specification: `scripted` or a URL, as above.
    ///   - seed: The scripted model's seed.
    /// - Returns: The choice.
    /// - Throws: `InvalidSpecification`, saying what is wrong.
    public static func parse(_ specification: String, seed: UInt64 = 0) throws -> ModelChoice {
        do {
            switch try ModelSpecification.parse(specification) {
            case .scripted: return .scripted(seed: seed)
            case .server(let url, let model): return .server(baseURL: url, model: model)
            }
        } catch {
            throw InvalidSpecification(specification: specification, problem: error.problem)
        }
    }

    /// `scripted` or the URL (with `#model`).
    public var description: String {
        switch self {
        case .scripted: "scripted"
        case .server(let url, let model): url + (model.map { "#\($0)" } ?? "")
        }
    }

    /// Makes the provider a `Game` asks for each NPC's model (`Game.ModelProvider`, given to `Game(state:models:)`
    /// or `GameHost`). A server is contacted once, here, so a server that is down is reported before the game
    /// starts. The server's API key comes from `OPENAI_API_KEY`.
    ///
    /// A server plays each NPC as a `VoicedModel`, with the scripted model (seeded with `voice.plannerSeed`) as its
    /// planner, in `voice.mode`: `grounded` unless told otherwise. Its replies are capped to the NPC's own sentence
    /// budget (`NPC.voice`, `"voice": {"sentences": N}` in its file), or `voice.sentenceBudget` for an NPC that sets
    /// none (in grounded mode, or as many as the planned line has), and cut where they start to loop.
    ///
    /// Each NPC's voice is a copy of one backend keyed by the world's id and the NPC's id
    /// (`keepingCache(as: SlotCacheKey(scope: world.id, name: npc.id))`): on llama-server started with
    /// `--slot-save-path` (as `scripts/llm-server start` does), its KV cache is kept in a file of its own, saved when
    /// its slot goes to another NPC and when the game saves or closes, and restored when it comes back, also in a
    /// later process. The file name also depends on the model and the server's build, which the NPC's saved
    /// conversation records (`model.id`, `model.version`), so a model change never restores a foreign cache. Other
    /// servers are used as without keys (docs/model-servers.md, "Caches").
    ///
    /// - Parameter voice: How a server plays the NPCs; ignored for the scripted model.
    /// - Returns: The provider: for each NPC and the world it lives in, its model.
    /// - Throws: `ModelServerError` when the server cannot be reached.
    public func makeProvider(voice: VoiceSettings = VoiceSettings()) async throws -> Provider {
        switch self {
        case .scripted(let seed):
            return { npc, world in ScriptedModel(npc: npc, world: world, seed: seed) }
        case .server(let url, let model):
            let configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: url, model: model)
            let backend = try await OpenAICompatibleLanguageModel.connect(configuration)
            return { npc, world in
                let sentences = voice.sentenceBudget(of: npc)
                // Free replies are capped by the server backend; grounded ones by the game, which lets a voiced list
                // of wares be as long as the planned one.
                let key = SlotCacheKey(scope: world.id, name: npc.id.rawValue)
                return VoicedModel(
                    voice: backend.replying(inAtMost: voice.mode == .free ? sentences : nil).keepingCache(as: key),
                    planner: ScriptedModel(npc: npc, world: world, seed: voice.plannerSeed),
                    mode: voice.mode, firstWordsDeadline: voice.firstWordsDeadline, sentenceBudget: sentences)
            }
        }
    }
}
