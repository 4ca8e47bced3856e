import ParleyJSON

/// A non-player character: who it is, where it is, what it carries and how it trades.
///
/// NPCs are loaded from `npcs/<id>.json`, with their scripting: beats, knowledge and goals (see
/// `NPC.beats(for:in:)`, `NPC.knowledge(in:)`). Fields of features added later stay available in `source`, the
/// NPC's JSON object exactly as the pack wrote it.
public struct NPC: Hashable, Sendable, Codable, Identifiable {
    /// The NPC's id, for example `mira`.
    public var id: NPCID
    /// The name shown to the player, for example `Mira Quickcoin`.
    public var name: String
    /// Other words the player may use (`mira`, `merchant`).
    public var aliases: [String]
    /// What the player sees when looking at the NPC, or an empty string.
    public var description: String
    /// Who the NPC is and how it speaks, for the dialogue model.
    public var persona: String
    /// Where the NPC is.
    public var location: LocationID
    /// What the NPC carries.
    public var inventory: Inventory
    /// The NPC's gold.
    public var gold: Int
    /// How the NPC trades.
    public var trade: TradePolicy
    /// How the NPC talks when the built-in scripted model plays it; `.none` for its plain built-in lines.
    public var dialogue: DialogueRules
    /// How its conversation is shortened when it outgrows the model's context window.
    public var contextPolicy: ContextPolicy
    /// Authored moments: lines said word for word, and effects, when something happens.
    public var beats: [Beat]
    /// What the NPC knows, each when its condition holds.
    public var knowledge: [KnowledgeEntry]
    /// What the NPC wants, each when its condition holds.
    public var goals: [KnowledgeEntry]
    /// How a language-model server voices the NPC: its sentence budget.
    public var voice: NPCVoice
    /// The language the NPC speaks, as a BCP 47 tag, when it is not the pack's (`World.lexicon(for:)`); `nil` for the
    /// pack's language.
    public var language: String?
    /// How the NPC sounds when its lines are spoken (`"speech"`), or `nil` when its file sets nothing: then
    /// `speechOrDefault` is the voice derived from its id.
    public var speech: NPCSpeech?

    // MARK: - Fields for later features

    /// The NPC's file as written (an object), so features added later can read their fields from it until
    /// they get properties here.
    public var source: JSONValue

    /// Creates an NPC.
    ///
    /// - Parameters:
    ///   - id: The NPC's id.
    ///   - name: The name shown to the player.
    ///   - aliases: Other words the player may use.
    ///   - description: What the player sees when looking at the NPC.
    ///   - persona: Who the NPC is and how it speaks.
    ///   - location: Where the NPC is.
    ///   - inventory: What it carries.
    ///   - gold: Its gold, at least 0.
    ///   - trade: How it trades.
    ///   - dialogue: Its dialogue rules for the scripted model.
    ///   - contextPolicy: How its conversation is shortened when it outgrows the context window.
    ///   - beats: Its beats.
    ///   - knowledge: What it knows, under conditions.
    ///   - goals: What it wants, under conditions.
    ///   - voice: How a language-model server voices it.
    ///   - language: The language it speaks, when not the pack's.
    ///   - speech: How it sounds when spoken, or `nil` for the voice derived from its id.
    ///   - source: Its JSON object as written, if it came from a file.
    public init(
        id: NPCID, name: String, aliases: [String] = [], description: String = "", persona: String,
        location: LocationID, inventory: Inventory = Inventory(), gold: Int = 0, trade: TradePolicy = .doesNotTrade,
        dialogue: DialogueRules = .none, contextPolicy: ContextPolicy = .summary, beats: [Beat] = [],
        knowledge: [KnowledgeEntry] = [], goals: [KnowledgeEntry] = [], voice: NPCVoice = .default,
        language: String? = nil, speech: NPCSpeech? = nil, source: JSONValue = .object(JSONObject())
    ) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.description = description
        self.persona = persona
        self.location = location
        self.inventory = inventory
        self.gold = gold
        self.trade = trade
        self.dialogue = dialogue
        self.contextPolicy = contextPolicy
        self.beats = beats
        self.knowledge = knowledge
        self.goals = goals
        self.voice = voice
        self.language = language
        self.speech = speech
        self.source = source
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case id, name, aliases, description, persona, location, inventory, gold, trade, dialogue, contextPolicy, beats,
            knowledge, goals, voice, language, speech, source
    }

    /// Decodes an NPC; `dialogue`, `contextPolicy`, `beats`, `knowledge`, `goals`, `voice`, `language` and `speech`, added
    /// after the first save format, may be missing.
    ///
    /// - Throws: `DecodingError` when a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(NPCID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        aliases = try container.decode([String].self, forKey: .aliases)
        description = try container.decode(String.self, forKey: .description)
        persona = try container.decode(String.self, forKey: .persona)
        location = try container.decode(LocationID.self, forKey: .location)
        inventory = try container.decode(Inventory.self, forKey: .inventory)
        gold = try container.decode(Int.self, forKey: .gold)
        trade = try container.decode(TradePolicy.self, forKey: .trade)
        dialogue = try container.decodeIfPresent(DialogueRules.self, forKey: .dialogue) ?? .none
        contextPolicy = try container.decodeIfPresent(ContextPolicy.self, forKey: .contextPolicy) ?? .summary
        beats = try container.decodeIfPresent([Beat].self, forKey: .beats) ?? []
        knowledge = try container.decodeIfPresent([KnowledgeEntry].self, forKey: .knowledge) ?? []
        goals = try container.decodeIfPresent([KnowledgeEntry].self, forKey: .goals) ?? []
        voice = try container.decodeIfPresent(NPCVoice.self, forKey: .voice) ?? .default
        language = try container.decodeIfPresent(String.self, forKey: .language)
        speech = try container.decodeIfPresent(NPCSpeech.self, forKey: .speech)
        source = try container.decode(JSONValue.self, forKey: .source)
    }

    /// How the NPC sounds: its `speech`, or when its file sets none, `NPCSpeech.default(for:)` of its id.
    public var speechOrDefault: NPCSpeech {
        speech ?? .default(for: id)
    }

    /// Whether `word` names this NPC: its id, its name, a word of its name or an alias, ignoring case.
    ///
    /// - Parameter word: What the player typed, for example `mira`.
    /// - Returns: `true` when it matches.
    public func isNamed(_ word: String) -> Bool {
        let word = word.lowercased()
        if word == id.rawValue || word == name.lowercased() { return true }
        if aliases.contains(where: { $0.lowercased() == word }) { return true }
        return name.lowercased().split(separator: " ").contains { $0 == word }
    }
}
