/// An authored moment: lines an NPC says word for word when something happens, and effects that go with them.
///
/// ```json
/// {
///   "id": "locket_home",
///   "on": "itemGiven", "item": "moonpetal_locket",
///   "mode": "instead",
///   "lines": ["My Moonpetal Locket! Take my compass, {player}, I insist."],
///   "effects": [{ "quest": "locket", "stage": "returned" }, { "give": "brass_compass" }],
///   "once": true
/// }
/// ```
///
/// When the trigger fires and the condition (`when`) holds, the engine says one of the lines as the NPC's response
/// (before the model's reply, or instead of it), so every backend sees them as said, and runs the effects. A beat
/// with no lines only runs its effects. Lines may use `{player}`, `{npc}`, `{location}` and, for beats about an
/// item, `{item}`; nothing else is filled in. See `docs/modding.md` ("Scripting").
public struct Beat: Hashable, Sendable, Codable, Identifiable {
    /// The beat's id, unique among the NPC's beats.
    public var id: String
    /// When it fires.
    public var trigger: BeatTrigger
    /// What must also hold for it to fire, if anything.
    public var condition: Condition?
    /// The line variants, said word for word (placeholders aside); empty for a beat that only has effects.
    public var lines: [String]
    /// Whether the line comes before the model's reply or replaces it.
    public var mode: BeatMode
    /// What happens when it fires, in order.
    public var effects: [Effect]
    /// Whether it fires only once per game.
    public var once: Bool

    /// The placeholders beat lines may use.
    public static let placeholders: [DialoguePlaceholder] = [.player, .npc, .location, .item]

    /// Creates a beat.
    ///
    /// - Parameters:
    ///   - id: The beat's id.
    ///   - trigger: When it fires.
    ///   - condition: What must also hold, if anything.
    ///   - lines: The line variants.
    ///   - mode: Before or instead of the model's reply; before by default.
    ///   - effects: What happens when it fires.
    ///   - once: Whether it fires only once per game; `false` by default.
    public init(
        id: String, trigger: BeatTrigger, condition: Condition? = nil, lines: [String] = [], mode: BeatMode = .before,
        effects: [Effect] = [], once: Bool = false
    ) {
        self.id = id
        self.trigger = trigger
        self.condition = condition
        self.lines = lines
        self.mode = mode
        self.effects = effects
        self.once = once
    }

    /// Whether the beat fires for an event in a context: its trigger matches, its condition holds, and if it fires
    /// `once`, it has not fired yet for the context's NPC.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - context: The game, the NPC (whose beat it is) and the conversation.
    /// - Returns: `true` when it fires.
    public func fires(on event: BeatEvent, in context: ConditionContext) -> Bool {
        guard trigger.matches(event) else { return false }
        if once, let npc = context.npc, context.state.story.timesFired(id, of: npc) > 0 { return false }
        return condition?.holds(in: context) ?? true
    }

    /// The line to say the `occurrence`-th time the beat fires (from 0), its placeholders filled; the variants
    /// take turns.
    ///
    /// - Parameters:
    ///   - occurrence: How many times the beat fired before this time.
    ///   - context: The game and the NPC, for `{player}` (the name the player gave in the conversation, else the
    ///     game's), `{npc}` and `{location}`.
    ///   - item: The item of the event (given or traded), for `{item}`; the trigger's item by default.
    /// - Returns: The line, or `nil` for a beat without lines.
    public func line(occurrence: Int, in context: ConditionContext, item: ItemID? = nil) -> String? {
        guard !lines.isEmpty else { return nil }
        let text = lines[((occurrence % lines.count) + lines.count) % lines.count]
        guard case .success(let template) = DialogueTemplate.parse(text) else { return text }
        let world = context.state.world
        return template.render { placeholder in
            switch placeholder {
            case .player: context.conversation.playerCalled ?? context.state.player.name
            case .npc: context.npc.map { world.name(of: $0) } ?? ""
            case .location: world.name(of: context.state.player.location)
            case .item: (item ?? trigger.item).map { world.name(of: $0) } ?? ""
            default: ""
            }
        }
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case id, on, item, flag, when, lines, mode, effects, once
    }

    /// Decodes a beat from its content form (`on`, `item`, `flag`, `when`, `lines`, `mode`, `effects`, `once`).
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type, or `on` is unknown.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        let item = try container.decodeIfPresent(ItemID.self, forKey: .item)
        switch try container.decode(String.self, forKey: .on) {
        case "arrive": trigger = .arrive
        case "firstTalk": trigger = .firstTalk
        case "itemGiven": trigger = .itemGiven(item)
        case "tradeAccepted": trigger = .tradeAccepted(item)
        case "tradeRefused": trigger = .tradeRefused(item)
        case "flagSet": trigger = .flagSet(try container.decode(String.self, forKey: .flag))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .on, in: container, debugDescription: "unknown beat trigger \"\(other)\"")
        }
        condition = try container.decodeIfPresent(Condition.self, forKey: .when)
        lines = try container.decodeIfPresent([String].self, forKey: .lines) ?? []
        mode = try container.decodeIfPresent(BeatMode.self, forKey: .mode) ?? .before
        effects = try container.decodeIfPresent([Effect].self, forKey: .effects) ?? []
        once = try container.decodeIfPresent(Bool.self, forKey: .once) ?? false
    }

    /// Encodes the beat in its content form.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(trigger.name, forKey: .on)
        try container.encodeIfPresent(trigger.item, forKey: .item)
        if case .flagSet(let flag) = trigger { try container.encode(flag, forKey: .flag) }
        try container.encodeIfPresent(condition, forKey: .when)
        try container.encode(lines, forKey: .lines)
        try container.encode(mode, forKey: .mode)
        try container.encode(effects, forKey: .effects)
        try container.encode(once, forKey: .once)
    }
}
