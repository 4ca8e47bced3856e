/// What the player must achieve to win: a sentence for the player and requirements the game checks.
///
/// Defined in `world.json` under `goal`:
///
/// ```json
/// "goal": {
///   "description": "Return the Moonpetal Locket to Aurelio Finch.",
///   "requirements": [{ "type": "npcHasItem", "npc": "aurelio", "item": "moonpetal_locket" }]
/// }
/// ```
public struct GameGoal: Hashable, Sendable, Codable {
    /// The goal as told to the player.
    public var description: String
    /// The conditions that must all hold; never empty in a loaded pack.
    public var requirements: [GoalRequirement]

    /// Creates a goal.
    ///
    /// - Parameters:
    ///   - description: The goal as told to the player.
    ///   - requirements: The conditions that must all hold.
    public init(description: String, requirements: [GoalRequirement]) {
        self.description = description
        self.requirements = requirements
    }

    /// Whether every requirement holds in `state`.
    ///
    /// - Parameter state: The game state to check.
    /// - Returns: `true` when the goal is reached.
    public func isReached(in state: GameState) -> Bool {
        !requirements.isEmpty && requirements.allSatisfy { $0.isMet(in: state) }
    }

    /// The requirements that do not hold yet in `state`.
    ///
    /// - Parameter state: The game state to check.
    /// - Returns: The unmet requirements, in the pack's order.
    public func unmetRequirements(in state: GameState) -> [GoalRequirement] {
        requirements.filter { !$0.isMet(in: state) }
    }
}
