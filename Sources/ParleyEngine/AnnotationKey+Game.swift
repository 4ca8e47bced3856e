import LanguageModels

// The annotation keys the game writes into an NPC's annotated transcript beside those of `LanguageModels` (the NPC,
// the model, Parley's version): each turn's game context, and the working context of a trimmed conversation.
// docs/save-format.md lists them as saves keep them.

extension AnnotationKey {
    // MARK: - Each turn's game context

    /// The player's name when the turn was spoken: `player`.
    public static let player = AnnotationKey(rawValue: "player")
    /// The player's gold, in decimal digits: `gold`.
    public static let gold = AnnotationKey(rawValue: "gold")
    /// The id of the player's location: `location`.
    public static let location = AnnotationKey(rawValue: "location")
    /// What the player carries, `2 × bread, 1 × rope` (by item id, sorted): `inventory`.
    public static let inventory = AnnotationKey(rawValue: "inventory")
    /// The id of the world the game plays: `world`.
    public static let world = AnnotationKey(rawValue: "world")
    /// The story so far, once it has progressed (`StoryState.description`): `story`.
    public static let story = AnnotationKey(rawValue: "story")
    /// How the turn's line came to be when a server played the NPC (`TurnVoicing.summary`): `voicing`.
    public static let voicing = AnnotationKey(rawValue: "voicing")

    // MARK: - A trimmed conversation's working context

    /// How many times the working transcript was trimmed: `context.trims`.
    public static let contextTrims = AnnotationKey(rawValue: "context.trims")
    /// The index in the whole history of the first entry the last trim kept: `context.workingStart`.
    public static let contextWorkingStart = AnnotationKey(rawValue: "context.workingStart")
    /// The running summary of the trimmed turns: `context.summary`.
    public static let contextSummary = AnnotationKey(rawValue: "context.summary")
    /// The summary and facts the last trim added to the instructions: `context.notes`.
    public static let contextNotes = AnnotationKey(rawValue: "context.notes")
}
