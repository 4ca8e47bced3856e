/// A quest declared in `world.json`: an id, a name and its stages, in order.
///
/// ```json
/// "quests": [
///   { "id": "locket", "name": "The Moonpetal Locket", "stages": ["unstarted", "asked", "found", "returned"] }
/// ]
/// ```
///
/// Every quest starts at its first stage. The game state remembers the stage of each quest that moved on from it
/// (`StoryState.quests`); a quest only ever moves forward (`GameEvent.advancedQuest(quest:to:)`). Conditions
/// compare stages by their order: `quest locket >= asked` holds at `asked`, `found` and `returned`.
public struct Quest: Hashable, Sendable, Codable, Identifiable {
    /// The quest's id, for example `locket`.
    public var id: QuestID
    /// Its name, for the player and the model, for example `The Moonpetal Locket`.
    public var name: String
    /// What the quest is about; may be empty.
    public var description: String
    /// The stages, in order; at least two, the first being where every quest starts.
    public var stages: [String]

    /// Creates a quest.
    ///
    /// - Parameters:
    ///   - id: The quest's id.
    ///   - name: Its name.
    ///   - description: What it is about.
    ///   - stages: Its stages, in order, the first where it starts.
    public init(id: QuestID, name: String, description: String = "", stages: [String]) {
        self.id = id
        self.name = name
        self.description = description
        self.stages = stages
    }

    /// The stage every game starts the quest at: the first.
    public var firstStage: String { stages.first ?? "" }

    /// The position of a stage in the quest's order, from 0.
    ///
    /// - Parameter stage: The stage's name.
    /// - Returns: Its index, or `nil` when the quest has no such stage.
    public func index(of stage: String) -> Int? { stages.firstIndex(of: stage) }
}
