extension GameState {
    /// The largest change of an attitude one event may make: enough to go from one end of the range to the other.
    public static let maximumAttitudeChange = StoryState.attitudeRange.upperBound - StoryState.attitudeRange.lowerBound

    /// Applies a story event to `story`, checking it against `world`; changes nothing when it throws.
    ///
    /// - Parameters:
    ///   - event: A story event (`GameEvent.isStoryEvent`).
    ///   - story: The story to change.
    ///   - world: The world, for its NPCs, quests and beats.
    /// - Throws: `GameEventError` when a name is not well formed, an NPC, quest, stage or beat is unknown, a
    ///   number is out of range, or a quest would not move forward.
    static func applyStory(_ event: GameEvent, to story: inout StoryState, in world: World) throws(GameEventError) {
        let fail = { (code: GameEventError.Code, message: String) in
            GameEventError(code, event: event, message: message)
        }
        func requireName(_ name: String, _ kind: String) throws(GameEventError) {
            guard ItemID.isWellFormed(name) else {
                throw fail(
                    .invalidName,
                    "\"\(name)\" is not a valid \(kind) name: use lowercase letters, digits and _, starting with a letter"
                )
            }
        }
        func requireNPC(_ id: NPCID) throws(GameEventError) -> NPC {
            guard let npc = world.npcs[id] else { throw fail(.unknownNPC, "there is no NPC \"\(id)\"") }
            return npc
        }
        let counters = StoryState.counterRange
        switch event {
        case .setFlag(let name):
            try requireName(name, "flag")
            story.flags.insert(name)

        case .clearedFlag(let name):
            try requireName(name, "flag")
            story.flags.remove(name)

        case .changedCounter(let name, let by):
            try requireName(name, "counter")
            // Not `abs(by)`, which traps on Int.min.
            guard by >= -counters.upperBound, by <= counters.upperBound else {
                throw fail(
                    .invalidQuantity, "a counter changes by at most \(counters.upperBound) either way, not \(by)")
            }
            story.setCounter(name, Self.clamped(story.counter(name), adding: by, to: counters))

        case .setCounter(let name, let to):
            try requireName(name, "counter")
            guard counters.contains(to) else {
                throw fail(
                    .invalidQuantity,
                    "a counter must be from \(counters.lowerBound) to \(counters.upperBound), not \(to)")
            }
            story.setCounter(name, to)

        case .changedAttitude(let id, let by):
            _ = try requireNPC(id)
            let limit = Self.maximumAttitudeChange
            guard by >= -limit, by <= limit else {
                throw fail(.invalidQuantity, "an attitude changes by at most \(limit) either way, not \(by)")
            }
            story.setAttitude(id, Self.clamped(story.attitude(of: id), adding: by, to: StoryState.attitudeRange))

        case .advancedQuest(let id, let stage):
            guard let quest = world.quests[id] else { throw fail(.unknownQuest, "there is no quest \"\(id)\"") }
            guard let target = quest.index(of: stage) else {
                throw fail(
                    .unknownStage,
                    "the quest \(id) has no stage \"\(stage)\"; its stages are \(quest.stages.joined(separator: ", "))")
            }
            let current = story.quests[id] ?? quest.firstStage
            guard let now = quest.index(of: current), target > now else {
                throw fail(
                    .questCannotGoBack,
                    "the quest \(id) is at \"\(current)\", and quests only move forward: \"\(stage)\" is not after it")
            }
            story.quests[id] = stage

        case .firedBeat(let id, let beat):
            let npc = try requireNPC(id)
            guard npc.beats.contains(where: { $0.id == beat }) else {
                throw fail(.unknownBeat, "\(id) has no beat \"\(beat)\"")
            }
            let (times, overflow) = story.timesFired(beat, of: id).addingReportingOverflow(1)
            guard !overflow else {
                throw fail(
                    .limitExceeded, "the beat \(beat) of \(id) has fired \(Int.max) times, as many as can be counted")
            }
            story.beats[id, default: [:]][beat] = times

        default:
            preconditionFailure("applyStory(_:to:in:) is only called with story events, not \(event)")
        }
    }

    /// `value + change` clamped to `range`, without overflow: a sum beyond `Int` is beyond the range too.
    static func clamped(_ value: Int, adding change: Int, to range: ClosedRange<Int>) -> Int {
        let (sum, overflow) = value.addingReportingOverflow(change)
        if overflow { return change > 0 ? range.upperBound : range.lowerBound }
        return min(max(sum, range.lowerBound), range.upperBound)
    }
}
