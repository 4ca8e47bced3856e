extension NPC {
    /// The NPC's beats that fire for an event, in the order of its file.
    ///
    /// A beat fires when its trigger matches the event, its condition holds, and, if it fires `once`, it has not
    /// fired yet in this game. The engine usually says the first (with its `mode`) and records it with
    /// `GameState.fire(_:of:rules:)`.
    ///
    /// ```swift
    /// let context = ConditionContext(state: state, npc: aurelio.id)
    /// if let beat = aurelio.beats(for: .itemGiven("moonpetal_locket"), in: context).first { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - context: The game and the conversation; its NPC is taken to be this one.
    /// - Returns: The beats that fire.
    public func beats(for event: BeatEvent, in context: ConditionContext) -> [Beat] {
        let context = context.about(id)
        return beats.filter { $0.fires(on: event, in: context) }
    }

    /// What the NPC knows now: the knowledge entries whose conditions hold, in the order of its file.
    ///
    /// - Parameter context: The game and the conversation; its NPC is taken to be this one.
    /// - Returns: The entries that hold.
    public func knowledge(in context: ConditionContext) -> [KnowledgeEntry] {
        let context = context.about(id)
        return knowledge.filter { $0.holds(in: context) }
    }

    /// What the NPC wants now: the goals whose conditions hold, in the order of its file.
    ///
    /// - Parameter context: The game and the conversation; its NPC is taken to be this one.
    /// - Returns: The goals that hold.
    public func goals(in context: ConditionContext) -> [KnowledgeEntry] {
        let context = context.about(id)
        return goals.filter { $0.holds(in: context) }
    }

    /// Whether the NPC has any scripting: beats, knowledge or goals.
    public var isScripted: Bool { !beats.isEmpty || !knowledge.isEmpty || !goals.isEmpty }
}

extension ConditionContext {
    /// The same context about another NPC.
    func about(_ npc: NPCID) -> ConditionContext {
        var context = self
        context.npc = npc
        return context
    }
}
