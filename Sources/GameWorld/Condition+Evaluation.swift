extension Condition {
    /// Whether the condition holds in a context.
    ///
    /// Terms that name something the world does not have never hold (`has` an unknown item, `quest` an unknown
    /// quest or stage). `attitude` reads the context's NPC's attitude, 0 when the context has no NPC.
    ///
    /// - Parameter context: The game state, the NPC and the conversation.
    /// - Returns: `true` when it holds.
    public func holds(in context: ConditionContext) -> Bool {
        let state = context.state
        switch self {
        case .has(let item, let quantity):
            return state.player.inventory.contains(item, quantity: quantity)
        case .gold(let comparison, let amount):
            return comparison.holds(state.player.gold, amount)
        case .flag(let name):
            return state.story.flags.contains(name)
        case .counter(let name, let comparison, let value):
            return comparison.holds(state.story.counter(name), value)
        case .attitude(let comparison, let value):
            return comparison.holds(context.npc.map { state.story.attitude(of: $0) } ?? 0, value)
        case .quest(let id, let comparison, let stage):
            guard let quest = state.world.quests[id], let target = quest.index(of: stage),
                let currentStage = state.stage(of: id), let current = quest.index(of: currentStage)
            else { return false }
            return comparison.holds(current, target)
        case .location(let location):
            return state.player.location == location
        case .firstMeeting:
            return context.conversation.isFirstMeeting
        case .turns(let comparison, let count):
            return comparison.holds(context.conversation.turns, count)
        case .topic(let name):
            return context.conversation.lastTopic == name
        case .not(let inner):
            return !inner.holds(in: context)
        case .all(let conditions):
            return conditions.allSatisfy { $0.holds(in: context) }
        case .any(let conditions):
            return conditions.contains { $0.holds(in: context) }
        }
    }
}
