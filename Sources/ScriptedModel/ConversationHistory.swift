import GameWorld
import LanguageModels
import NPCContract

/// What a conversation established before its current turn, read entry by entry: the state `Conversation` needs
/// from the past (the player as last seen, the pending offer, prices quoted, the item last talked about, the answer
/// to the previous line), kept so that a request reads only the entries added since the last one
/// (`ConversationMemory`) instead of the whole transcript.
///
/// Reading entries one at a time with `absorb(_:resolver:)` gives the same state as reading them all at once: the
/// state after `n` entries depends only on those entries, in order (the tests compare the two after every turn of a
/// long conversation, after a trim and after a restore).
struct ConversationHistory: Sendable, Equatable {
    /// How many entries were read.
    private(set) var entryCount = 0
    /// The player's name, if the game said (the instructions' game context, then `inspectPlayer`).
    private(set) var playerName: String?
    /// The name the player gave in their own words ("call me Dax", "my name is Wren"), the latest.
    private(set) var playerCalled: String?
    /// The whole name the player gave with it ("my name's Hal Brightwater"), the latest.
    private(set) var playerFullName: String?
    /// Where the player said they are from ("I'm from Eastmarch"), the latest.
    private(set) var playerFrom: String?
    /// What the player said they do for a living ("I work as a scribe"), the latest.
    private(set) var playerOccupation: String?
    /// Where the conversation takes place, if the game said.
    private(set) var location: LocationID?
    /// The latest report of the player (the instructions' game context or an `inspectPlayer` output).
    private(set) var latestReport: PlayerReport?
    /// The latest report of the player before the NPC last spoke.
    private(set) var lastSeen: PlayerReport?
    /// The offer waiting for the player's answer.
    private(set) var pending: Conversation.Offer?
    /// Items the player got from this NPC (bought or were given).
    private(set) var fromNPC: Set<ItemID> = []
    /// How many times the NPC answered.
    private(set) var responses = 0
    /// The latest stock line seen for each item.
    private(set) var prices: [ItemID: StockReport.Line] = [:]
    /// Whether any price was quoted.
    private(set) var pricesQuoted = false
    /// The player's words in the latest spoken prompt.
    private(set) var previousLine: String?
    /// The item the conversation was last about: the latest item a player's line named (only one), an event
    /// concerned, or a tool call asked about.
    private(set) var contextItem: ItemID?
    /// The calls answering the latest prompt.
    private(set) var answerCalls: [NPCToolCall] = []
    /// The items the stock outputs answering the latest prompt listed.
    private(set) var answerListed: [ItemID] = []
    /// Whether the latest prompt was the player's words (not a witnessed event).
    private(set) var answerSpoken = false
    /// The tool calls answering the latest prompt, by id, to pair their outputs with.
    private var calls: [String: Transcript.ToolCall] = [:]

    /// Nothing read yet.
    init() {}

    /// The history of `entries`, read from the start.
    ///
    /// - Parameters:
    ///   - entries: The entries.
    ///   - resolver: Finds items in words and tool arguments.
    init(reading entries: some Sequence<Transcript.Entry>, resolver: ItemResolver) {
        for entry in entries { absorb(entry, resolver: resolver) }
    }

    /// Reads one more entry.
    ///
    /// - Parameters:
    ///   - entry: The entry after those read so far.
    ///   - resolver: Finds items in words and tool arguments.
    mutating func absorb(_ entry: Transcript.Entry, resolver: ItemResolver) {
        entryCount += 1
        switch entry {
        case .instructions(let instructions):
            if let context = instructions.gameContext {
                latestReport = context.player
                playerName = context.player.name
                location = context.location
            }
        case .prompt(let prompt):
            absorb(prompt, resolver: resolver)
        case .toolCalls(let toolCalls):
            answerCalls += toolCalls.compactMap(NPCToolCall.init)
            for call in toolCalls {
                calls[call.id] = call
                // The latest call that names an item the catalog knows is what the conversation is about.
                if let text = NPCToolCall(call)?.item, let item = resolver.item(named: text) { contextItem = item }
            }
        case .toolOutput(let toolOutput):
            let request = calls[toolOutput.id].flatMap(NPCToolCall.init)
            switch NPCToolOutput(toolOutput) {
            case .stock(let report)?:
                for line in report.lines { prices[line.item] = line }
                answerListed += report.lines.map(\.item)
                if !report.lines.isEmpty { pricesQuoted = true }
            case .player(let report)?:
                latestReport = report
                playerName = report.name
            case .action(let result)?:
                switch (result.status, request) {
                case (.pending, .offerTrade(let offer)?):
                    pending = Conversation.Offer(
                        npcSells: offer.action == .sell, item: resolver.item(named: offer.item), itemText: offer.item,
                        quantity: offer.quantity ?? 1, price: offer.price, summary: result.summary,
                        partExchange: offer.partExchange)
                case (.given, .giveItem(let gift)?):
                    if let item = resolver.item(named: gift.item) { fromNPC.insert(item) }
                default:
                    break
                }
            case nil:
                break
            }
        case .response:
            responses += 1
            lastSeen = latestReport
        case .reasoning, .unknown:
            break
        }
    }

    /// Reads a prompt: the player's words, or an event that may settle the pending offer.
    private mutating func absorb(_ prompt: Transcript.Prompt, resolver: ItemResolver) {
        let spoken = !prompt.isWitnessedEvent
        answerCalls = []
        answerListed = []
        answerSpoken = spoken
        calls = [:]
        if spoken {
            let words = Conversation.words(of: prompt)
            previousLine = words
            if let name = resolver.vocabulary.names.fullName(in: words) {
                playerCalled = PlayerNameFinder.calledName(of: name)
                playerFullName = name
            }
            if let place = resolver.vocabulary.names.origin(in: words) { playerFrom = place }
            if let occupation = resolver.vocabulary.names.occupation(in: words) { playerOccupation = occupation }
            let items = resolver.bestItems(in: resolver.line(words))
            if items.count == 1 { contextItem = items[0] }
            return
        }
        let event = prompt.witnessedEvent
        if let item = event?.item { contextItem = item }
        switch event {
        case .offerAccepted?, .offerDeclined?:
            if case .offerAccepted? = event, let offer = pending, offer.npcSells, let item = offer.item {
                fromNPC.insert(item)
            }
            pending = nil
        default:
            break
        }
    }
}
