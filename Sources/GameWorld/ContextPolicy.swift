/// How an NPC's conversation is shortened when it outgrows the model's context window.
///
/// Written in the NPC's file as `"context": {"policy": "summary"}` (the default) or `{"policy": "firstAndLast"}`.
public enum ContextPolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Keep the instructions, a running summary of the trimmed turns, the facts that matter (the player's name,
    /// prices agreed, items exchanged, the pending offer) and as many recent turns as fit.
    case summary
    /// Apple's example: keep the instructions and the most recent turns, drop the rest.
    case firstAndLast
}
