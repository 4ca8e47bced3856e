/// A model whose server keeps the NPC's KV cache outside the process (llama-server's slot files), so that the first
/// turn after the game was closed and continued starts as fast as a warm turn; the game asks it to write what changed
/// when the game saves or closes.
///
/// `OpenAICompatibleLanguageModel` keeps caches for copies made with `keepingCache(as:)` (`ModelChoice` makes one
/// per NPC, keyed by the world's id and the NPC's id); `VoicedModel` forwards to its voice and planner. The engine
/// never needs more than this: when a cache is written and read during play is the backend's business (see
/// docs/model-servers.md, "Caches").
///
/// ```swift
/// struct MyServerModel: LanguageModel, ModelCacheKeeping {
///     func saveCaches() async { await server.saveSlots() }
///     …
/// }
/// ```
public protocol ModelCacheKeeping: Sendable {
    /// Writes the caches that changed since they were last written or read.
    ///
    /// It never fails visibly: a cache that cannot be written costs speed later, never correctness, since the
    /// server reuses a cache only as far as it matches the prompt.
    func saveCaches() async
}
