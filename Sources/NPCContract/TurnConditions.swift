import GameWorld
import LanguageModels

/// The game and the conversation as they are when the player speaks, given to the model with the turn so that it
/// can check its dialogue rules' conditions (`"if"` in a rule's `when`).
///
/// The engine puts it in the turn's `GenerationContext` for models that declare the `contextValues` capability (the
/// scripted model), and the model reads it from each `GenerationRequest`; nothing else passes between them while the
/// model answers. Every step of the turn sees the same conditions: the game as it was when the turn began.
///
/// ```swift
/// var context = GenerationContext()
/// context.conditions = ConditionContext(state: state, npc: "mira", conversation: facts)
/// let reply = try await session.respond(to: "Nice weather", context: context)
/// ```
public enum TurnConditions: GenerationContextKey {
    /// The game state, the NPC, and the conversation's facts.
    public typealias Value = ConditionContext
}

extension GenerationContext {
    /// The conditions' context of the turn (`TurnConditions`), or `nil` when the caller gave none: then rules with a
    /// condition never answer.
    public var conditions: ConditionContext? {
        get { self[TurnConditions.self] }
        set { self[TurnConditions.self] = newValue }
    }
}
