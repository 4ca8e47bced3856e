/// The story's progress: flags, counters, each NPC's attitude toward the player, quest stages, the beats that have
/// fired, and the player's dealings with each NPC (what was bought, sold and given, which the NPCs remember).
///
/// It is part of `GameState` (`GameState.story`) and changes, like the rest of it, only through events
/// (`setFlag`, `changedCounter`, `advancedQuest`...). Values at their default are not stored, so two states with
/// the same story compare equal however they got there: a flag that is not set, a counter at 0, an attitude of
/// 0, a quest at its first stage and a beat that never fired have no entry.
///
/// ```swift
/// state.story.flags.contains("met_aurelio")
/// state.story.counter("goose_visits")        // 0 until something counts
/// state.story.attitude(of: "pip")            // -100...100, 0 by default
/// state.stage(of: "locket")                  // "unstarted" until advanced
/// ```
public struct StoryState: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The flags that are set. Flags are free names (well-formed ids) that content sets and tests.
    public var flags: Set<String>
    /// Counters that are not 0, by name. Counters are whole numbers in `counterRange`.
    public var counters: [String: Int]
    /// Each NPC's attitude toward the player, when not 0: from -100 (hostile) to 100 (devoted).
    public var attitudes: [NPCID: Int]
    /// The stage of each quest that moved on from its first stage.
    public var quests: [QuestID: String]
    /// How many times each NPC's beats fired, by NPC and beat id; beats that never fired have no entry.
    public var beats: [NPCID: [String: Int]]
    /// The trades and gifts between the player and each NPC, oldest first, by NPC; NPCs with none have no entry.
    /// The events `traded`, `gave` and `received` add to it, and an NPC remembers them from here (what it was asked
    /// "what did I buy off you?" answers from), so a restored game remembers exactly what the live one did.
    public var dealings: [NPCID: [ConversationFacts.Dealing]]

    /// The range of a counter: changes that would leave it are clamped to it.
    public static let counterRange = 0...1_000_000_000
    /// The range of an attitude: changes that would leave it are clamped to it.
    public static let attitudeRange = -100...100

    /// A story with no progress: no flags, counters at 0, neutral attitudes, quests at their first stage.
    public init() {
        flags = []
        counters = [:]
        attitudes = [:]
        quests = [:]
        beats = [:]
        dealings = [:]
    }

    /// Creates a story state.
    ///
    /// - Parameters:
    ///   - flags: The flags set.
    ///   - counters: Counters by name; zeros are dropped.
    ///   - attitudes: Attitudes by NPC; zeros are dropped.
    ///   - quests: Quest stages by quest.
    ///   - beats: Times fired by NPC and beat; zeros are dropped.
    ///   - dealings: The dealings with each NPC, oldest first; empty lists are dropped.
    public init(
        flags: Set<String> = [], counters: [String: Int] = [:], attitudes: [NPCID: Int] = [:],
        quests: [QuestID: String] = [:], beats: [NPCID: [String: Int]] = [:],
        dealings: [NPCID: [ConversationFacts.Dealing]] = [:]
    ) {
        self.flags = flags
        self.counters = counters.filter { $0.value != 0 }
        self.attitudes = attitudes.filter { $0.value != 0 }
        self.quests = quests
        self.beats = beats.mapValues { $0.filter { $0.value > 0 } }.filter { !$0.value.isEmpty }
        self.dealings = dealings.filter { !$0.value.isEmpty }
    }

    /// Whether nothing has happened: no flag, counter, attitude, quest stage, fired beat or dealing.
    public var isEmpty: Bool {
        flags.isEmpty && counters.isEmpty && attitudes.isEmpty && quests.isEmpty && beats.isEmpty && dealings.isEmpty
    }

    /// The trades and gifts between the player and an NPC, oldest first.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The dealings; empty when there were none.
    public func dealings(with npc: NPCID) -> [ConversationFacts.Dealing] { dealings[npc] ?? [] }

    /// A counter's value.
    ///
    /// - Parameter name: The counter's name.
    /// - Returns: Its value, 0 when nothing counted it.
    public func counter(_ name: String) -> Int { counters[name] ?? 0 }

    /// An NPC's attitude toward the player.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: From -100 to 100; 0 when it never changed.
    public func attitude(of npc: NPCID) -> Int { attitudes[npc] ?? 0 }

    /// How many times an NPC's beat fired.
    ///
    /// - Parameters:
    ///   - beat: The beat's id.
    ///   - npc: The NPC whose beat it is.
    /// - Returns: The count, 0 when it never fired.
    public func timesFired(_ beat: String, of npc: NPCID) -> Int { beats[npc]?[beat] ?? 0 }

    /// The story in one line, sorted, for logs, annotations and feedback reports:
    /// `flags: locket_returned; counters: goose_visits 2; attitudes: aurelio 50; quests: locket returned;
    /// beats: aurelio.locket_home 1; dealings: mira 2`, or `no story progress`. Dealings are counted, by NPC.
    public var description: String {
        var parts: [String] = []
        if !flags.isEmpty { parts.append("flags: " + flags.sorted().joined(separator: ", ")) }
        if !counters.isEmpty {
            parts.append(
                "counters: "
                    + counters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !attitudes.isEmpty {
            parts.append(
                "attitudes: "
                    + attitudes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !quests.isEmpty {
            parts.append(
                "quests: " + quests.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !beats.isEmpty {
            let fired = beats.sorted { $0.key < $1.key }.flatMap { npc, counts in
                counts.sorted { $0.key < $1.key }.map { "\(npc).\($0.key) \($0.value)" }
            }
            parts.append("beats: " + fired.joined(separator: ", "))
        }
        if !dealings.isEmpty {
            parts.append(
                "dealings: "
                    + dealings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }.joined(separator: ", "))
        }
        return parts.isEmpty ? "no story progress" : parts.joined(separator: "; ")
    }

    // MARK: - Changing (for events)

    /// Sets a counter, dropping it at 0.
    mutating func setCounter(_ name: String, _ value: Int) {
        counters[name] = value == 0 ? nil : value
    }

    /// Sets an attitude, dropping it at 0.
    mutating func setAttitude(_ npc: NPCID, _ value: Int) {
        attitudes[npc] = value == 0 ? nil : value
    }

    /// Adds the dealings of an applied `traded`, `gave` or `received` event; other events add none.
    ///
    /// A trade adds one dealing per stack the player got (`bought`, with the gold paid) or, when the player got only
    /// gold, per stack they gave (`sold`, with the gold received). A swap, goods on both sides, adds its `bought`
    /// dealings and then one `tradedIn` per stack the player gave in part exchange, so that nothing of it is known
    /// only to the transcript.
    mutating func recordDealings(of event: GameEvent) {
        switch event {
        case .traded(let offer):
            if offer.npcGives.items.isEmpty {
                for stack in offer.playerGives.items {
                    dealings[offer.npc, default: []].append(
                        .init(.sold, item: stack.item, quantity: stack.quantity, gold: offer.npcGives.gold))
                }
            } else {
                for stack in offer.npcGives.items {
                    dealings[offer.npc, default: []].append(
                        .init(.bought, item: stack.item, quantity: stack.quantity, gold: offer.playerGives.gold))
                }
                for stack in offer.playerGives.items {
                    dealings[offer.npc, default: []].append(
                        .init(.tradedIn, item: stack.item, quantity: stack.quantity))
                }
            }
        case .gave(let item, let quantity, let npc):
            dealings[npc, default: []].append(.init(.gave, item: item, quantity: quantity))
        case .received(let item, let quantity, let npc):
            dealings[npc, default: []].append(.init(.received, item: item, quantity: quantity))
        default: break
        }
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case flags, counters, attitudes, quests, beats, dealings
    }

    /// Decodes a story state; every member may be missing (it is then empty).
    ///
    /// - Throws: `DecodingError` when a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            flags: try container.decodeIfPresent(Set<String>.self, forKey: .flags) ?? [],
            counters: try container.decodeIfPresent([String: Int].self, forKey: .counters) ?? [:],
            attitudes: try container.decodeIfPresent([NPCID: Int].self, forKey: .attitudes) ?? [:],
            quests: try container.decodeIfPresent([QuestID: String].self, forKey: .quests) ?? [:],
            beats: try container.decodeIfPresent([NPCID: [String: Int]].self, forKey: .beats) ?? [:],
            dealings: try container.decodeIfPresent([NPCID: [ConversationFacts.Dealing]].self, forKey: .dealings)
                ?? [:])
    }

    /// Encodes the story state; flags are sorted, so the same state encodes to the same bytes with sorted keys.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flags.sorted(), forKey: .flags)
        try container.encode(counters, forKey: .counters)
        try container.encode(attitudes, forKey: .attitudes)
        try container.encode(quests, forKey: .quests)
        try container.encode(beats, forKey: .beats)
        if !dealings.isEmpty { try container.encode(dealings, forKey: .dealings) }
    }
}
