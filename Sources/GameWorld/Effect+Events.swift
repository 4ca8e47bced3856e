extension Effect {
    /// The events this effect means when `npc` makes it happen in `state`.
    ///
    /// `give`, `take`, `giveGold` and `takeGold` are the events of a gift or payment between the NPC and the player
    /// (`received`, `gave`, `receivedGold`, `paidGold`), so the world's rules apply to them as to any other: the NPC
    /// must be with the player and have what it gives. Effects that would change nothing mean no event: setting a
    /// flag that is set, clearing one that is not, adding 0, setting a counter to its value, advancing a quest to
    /// the stage it is at or past. An `offer` means no event (see `offerTerms`).
    ///
    /// - Parameters:
    ///   - npc: The NPC whose beat or rule it is.
    ///   - state: The game state it happens in.
    /// - Returns: The events, in order; empty when there is nothing to do.
    public func events(for npc: NPCID, in state: GameState) -> [GameEvent] {
        let story = state.story
        switch self {
        case .setFlag(let name):
            return story.flags.contains(name) ? [] : [.setFlag(name: name)]
        case .clearFlag(let name):
            return story.flags.contains(name) ? [.clearedFlag(name: name)] : []
        case .addToCounter(let name, let amount):
            return amount == 0 ? [] : [.changedCounter(name: name, by: amount)]
        case .setCounter(let name, let value):
            return story.counter(name) == value ? [] : [.setCounter(name: name, to: value)]
        case .changeAttitude(let amount):
            return amount == 0 ? [] : [.changedAttitude(npc: npc, by: amount)]
        case .advanceQuest(let id, let stage):
            if let quest = state.world.quests[id], let target = quest.index(of: stage),
                let current = state.stage(of: id).flatMap(quest.index(of:)), current >= target
            {
                return []
            }
            return [.advancedQuest(quest: id, to: stage)]
        case .give(let item, let quantity):
            return [.received(item: item, quantity: quantity, from: npc)]
        case .take(let item, let quantity):
            return [.gave(item: item, quantity: quantity, to: npc)]
        case .giveGold(let amount):
            return [.receivedGold(amount: amount, from: npc)]
        case .takeGold(let amount):
            return [.paidGold(amount: amount, to: npc)]
        case .offer:
            return []
        }
    }
}
