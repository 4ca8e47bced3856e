import OpenAICompatible
import ParleyEngine

// The server backend writes its slot caches when the game saves or closes. The conformance is declared here, in the
// one module that links both the backend and the engine (neither links the other); were `ModelCacheKeeping`
// declared in LanguageModels, beside `prewarm(for:)`, the backend could conform itself.

extension OpenAICompatibleLanguageModel: ModelCacheKeeping {
    /// Saves the server's slots whose caches changed to their holders' files (`saveSlotCaches()`).
    public func saveCaches() async {
        await saveSlotCaches()
    }
}
