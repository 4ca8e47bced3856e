import GameWorld
import LanguageModels
import NPCContract

/// What conditions need to know about a conversation (first meeting, lines said, last topic: the latest item or
/// synonym group the player's lines named, or item the NPC's tools were called about), kept up to date as
/// the conversation grows: each turn reads only the entries added since the last one, so the cost of a turn does
/// not grow with the length of the conversation.
struct ConversationScan: Sendable {
    /// How many entries of the history have been read.
    private(set) var scanned = 0
    /// The NPC's responses so far.
    private(set) var responses = 0
    /// The player's own lines so far (the events the NPC witnessed do not count).
    private(set) var lines = 0
    /// The topic of the latest line that has one.
    private(set) var lastTopic: String?
    /// The name the player last gave ("my name is Tamsin").
    private(set) var playerCalled: String?
    /// The whole name the player last gave ("my name's Hal Brightwater").
    private(set) var playerFullName: String?
    /// Where the player last said they are from ("I'm from Eastmarch").
    private(set) var playerFrom: String?
    /// What the player last said they do for a living ("I work as a scribe").
    private(set) var playerOccupation: String?

    /// Reads the entries added to `history` since the last call. A history shorter than what was read (another
    /// conversation) is read from the start.
    mutating func advance(over history: Transcript, topics: TopicIndex) {
        if history.count < scanned { self = ConversationScan() }
        for entry in history[scanned...] {
            switch entry {
            case .response: responses += 1
            case .toolCalls(let calls):
                // What the NPC looked up or offered is what the line was about: recall names the same item.
                for call in calls {
                    if let text = NPCToolCall(call)?.item, let item = topics.item(named: text) { lastTopic = item }
                }
            case .prompt(let prompt):
                guard !prompt.isWitnessedEvent else { continue }
                let text = Self.text(of: prompt.segments)
                lines += 1
                if let topic = topics.topic(in: text) { lastTopic = topic }
                if let name = topics.fullNameGiven(in: text) {
                    playerCalled = PlayerNameFinder.calledName(of: name)
                    playerFullName = name
                }
                if let place = topics.originGiven(in: text) { playerFrom = place }
                if let occupation = topics.occupationGiven(in: text) { playerOccupation = occupation }
            default: break
            }
        }
        scanned = history.count
    }

    /// The facts, with the line about to be said counted as the topic when it has one.
    func facts(saying prompt: Prompt?, topics: TopicIndex) -> ConversationFacts {
        let newTopic = prompt.flatMap { topics.topic(in: Self.text(of: $0.segments)) }
        return ConversationFacts(
            isFirstMeeting: responses == 0, turns: lines, lastTopic: newTopic ?? lastTopic, playerCalled: playerCalled,
            playerFullName: playerFullName,
            playerFrom: playerFrom, playerOccupation: playerOccupation)
    }

    /// The text segments of a prompt, joined.
    static func text(of segments: [Transcript.Segment]) -> String {
        segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
    }
}

/// Finds what a line is about: an item it names (by its name or an alias, every word of it), or else one of the
/// NPC's synonym groups it uses. Built once per NPC from the world, so a lookup only splits the line.
struct TopicIndex: Sendable {
    /// The catalog's part, the same for every NPC: built once per world (`World.catalogDerived(_:)`).
    struct Catalog: Sendable {
        /// Each item's names as lowercased words (split at spaces), with the item's id.
        let names: [(id: String, words: [String])]
        /// The last name (a position in `names`) that ends with each word; `previousWithSameLastWord` chains the
        /// others. Chains rather than an array per word: a catalog of 100,000 items has about as many words.
        let lastNameEnding: [String: Int32]
        /// For each name, the one before it that ends with the same word, or -1.
        let previousWithSameLastWord: [Int32]
        /// The items each id, name and alias names, by its lowercased words joined with spaces.
        let wholeNames: [String: Set<String>]

        init(world: World) {
            var names: [(id: String, words: [String])] = []
            var lastNameEnding: [String: Int32] = [:]
            var previous: [Int32] = []
            names.reserveCapacity(world.items.count)
            previous.reserveCapacity(world.items.count)
            lastNameEnding.reserveCapacity(world.items.count)
            var wholeNames: [String: Set<String>] = [:]
            for item in world.items.values {
                wholeNames[item.id.rawValue, default: []].insert(item.id.rawValue)
                for name in [item.name] + item.aliases {
                    wholeNames[Self.words(of: name).joined(separator: " "), default: []].insert(item.id.rawValue)
                    let words = Self.words(of: name)
                    guard let last = words.last else { continue }
                    previous.append(lastNameEnding.updateValue(Int32(names.count), forKey: last) ?? -1)
                    names.append((item.id.rawValue, words))
                }
            }
            self.names = names
            self.lastNameEnding = lastNameEnding
            previousWithSameLastWord = previous
            self.wholeNames = wholeNames
        }

        /// A name's lowercased words, split at spaces; byte by byte for ASCII, the same words.
        static func words(of name: String) -> [String] {
            guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
                return name.lowercased().split(separator: " ").map(String.init)
            }
            return name.utf8.split(separator: UInt8(ascii: " ")).map { word in
                String(decoding: word.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
            }
        }
    }

    /// The items' names.
    private let catalog: Catalog
    /// The NPC's synonym groups, lowercased, in name order.
    private let groups: [(name: String, words: Set<String>)]
    /// Finds the name a line gives the player.
    private let names: PlayerNameFinder

    /// The index for an NPC in a world.
    init(npc: NPCID, world: World) {
        catalog = world.catalogDerived { Catalog(world: $0) }
        groups = (world.npcs[npc]?.dialogue.synonyms ?? [:]).sorted { $0.key < $1.key }.map { group, synonyms in
            (group, Set(synonyms.map { $0.lowercased() } + [group.lowercased()]))
        }
        names = world.playerNameFinder
    }

    /// A line's lowercased words: letters and digits.
    static func words(in line: String) -> [String] {
        line.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// The whole name a line gives the player ("my name is Tamsin", "my name's Hal Brightwater"), as
    /// `PlayerNameFinder` finds it.
    func fullNameGiven(in line: String) -> String? { names.fullName(in: line) }

    /// Where a line says the player is from ("I'm from Eastmarch"), as `PlayerNameFinder` finds it.
    func originGiven(in line: String) -> String? { names.origin(in: line) }

    /// What a line says the player does for a living ("I work as a scribe"), as `PlayerNameFinder` finds it.
    func occupationGiven(in line: String) -> String? { names.occupation(in: line) }

    /// The item a tool call's `item` argument names: its id, or one of its names or aliases (ignoring case), when
    /// only one item has it; `nil` otherwise.
    func item(named text: String) -> String? {
        let ids = catalog.wholeNames[Catalog.words(of: text).joined(separator: " ")] ?? []
        return ids.count == 1 ? ids.first : nil
    }

    /// The topic of a line, or `nil`: the item with the first id among those the line names wholly, or else the
    /// first synonym group it uses. Only names ending with a word of the line are looked at.
    func topic(in line: String) -> String? {
        let words = Set(Self.words(in: line))
        guard !words.isEmpty else { return nil }
        var best: String?
        for word in words {
            var position = catalog.lastNameEnding[word] ?? -1
            while position >= 0 {
                let name = catalog.names[Int(position)]
                if best.map({ name.id < $0 }) ?? true, name.words.allSatisfy(words.contains) { best = name.id }
                position = catalog.previousWithSameLastWord[Int(position)]
            }
        }
        if let best { return best }
        return groups.first { !$0.words.isDisjoint(with: words) }?.name
    }
}

/// What conditions know of each of a game's conversations, kept between turns so that each turn reads only the
/// entries said since the last (see `ConversationScan`).
struct ConversationFactsIndex: Sendable {
    /// Each NPC's scan of its conversation's history so far.
    private var scans: [NPCID: ConversationScan] = [:]
    /// Each NPC's topic index, built at first need from the world (which a game does not change).
    private var topics: [NPCID: TopicIndex] = [:]

    /// The facts of an NPC's conversation, with `prompt` counted as the topic.
    ///
    /// - Parameters:
    ///   - npc: The NPC.
    ///   - history: Everything said with the NPC so far; it only grows between calls.
    ///   - prompt: The line about to be said, if any.
    ///   - world: The world, for the NPC's topics.
    /// - Returns: The facts.
    mutating func facts(of npc: NPCID, history: Transcript, saying prompt: Prompt?, world: World) -> ConversationFacts {
        let index = topics[npc] ?? TopicIndex(npc: npc, world: world)
        topics[npc] = index
        var scan = scans[npc] ?? ConversationScan()
        scan.advance(over: history, topics: index)
        scans[npc] = scan
        return scan.facts(saying: prompt, topics: index)
    }
}
