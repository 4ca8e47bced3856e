import GameWorld
import LanguageModels

/// What conditions need to know about a conversation (first meeting, lines said, last topic), kept up to date as
/// the conversation grows: each turn reads only the entries added since the last one, so the cost of a turn does
/// not grow with the length of the conversation.
struct ConversationScan: Sendable {
    /// How many entries of the history have been read.
    private(set) var scanned = 0
    /// The NPC's responses so far.
    private(set) var responses = 0
    /// The player's own lines so far (game events, written in parentheses, do not count).
    private(set) var lines = 0
    /// The topic of the latest line that has one.
    private(set) var lastTopic: String?

    /// Reads the entries added to `history` since the last call. A history shorter than what was read (another
    /// conversation) is read from the start.
    mutating func advance(over history: Transcript, topics: TopicIndex) {
        if history.count < scanned { self = ConversationScan() }
        for entry in history.entries[scanned...] {
            switch entry {
            case .response: responses += 1
            case .prompt(let prompt):
                let text = Self.text(of: prompt.segments)
                guard !text.hasPrefix("(") else { continue }
                lines += 1
                if let topic = topics.topic(in: text) { lastTopic = topic }
            default: break
            }
        }
        scanned = history.count
    }

    /// The facts, with the line about to be said counted as the topic when it has one.
    func facts(saying prompt: Prompt?, topics: TopicIndex) -> ConversationFacts {
        let newTopic = prompt.flatMap { topics.topic(in: Self.text(of: $0.segments)) }
        return ConversationFacts(isFirstMeeting: responses == 0, turns: lines, lastTopic: newTopic ?? lastTopic)
    }

    /// The text segments of a prompt, joined.
    static func text(of segments: [Transcript.Segment]) -> String {
        segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
    }
}

/// Finds what a line is about: an item it names (by its name or an alias, every word of it), or else one of the
/// NPC's synonym groups it uses. Built once per NPC from the world, so a lookup only splits the line.
struct TopicIndex: Sendable {
    /// Each item's names as lowercased words, items in id order.
    private let items: [(id: String, names: [[String]])]
    /// The NPC's synonym groups, lowercased, in name order.
    private let groups: [(name: String, words: Set<String>)]

    /// The index for an NPC in a world.
    init(npc: NPCID, world: World) {
        items = world.items.values.sorted { $0.id.rawValue < $1.id.rawValue }.map { item in
            (
                item.id.rawValue,
                ([item.name] + item.aliases).map { $0.lowercased().split(separator: " ").map(String.init) }
            )
        }
        groups = (world.npcs[npc]?.dialogue.synonyms ?? [:]).sorted { $0.key < $1.key }.map { group, synonyms in
            (group, Set(synonyms.map { $0.lowercased() } + [group.lowercased()]))
        }
    }

    /// The topic of a line, or `nil`.
    func topic(in line: String) -> String? {
        let words = Set(line.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        guard !words.isEmpty else { return nil }
        for item in items
        where item.names.contains(where: { name in
            guard let last = name.last, words.contains(last) else { return false }
            return name.allSatisfy(words.contains)
        }) {
            return item.id
        }
        return groups.first { !$0.words.isDisjoint(with: words) }?.name
    }
}
