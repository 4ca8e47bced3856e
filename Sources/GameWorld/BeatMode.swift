/// Whether a beat's line comes before the model's reply or replaces it (`"mode"` in a beat).
public enum BeatMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The NPC says the beat's line, then the model replies as usual.
    case before
    /// The NPC says the beat's line and the model is not asked: the line is the whole reply.
    case instead
}
