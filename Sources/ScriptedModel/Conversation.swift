import GameWorld
import LanguageModels

/// What the scripted model reads from a transcript: this turn's prompt (words or a game event), the tool calls
/// and outputs of this turn so far, and what the conversation before it established: whether the NPC has spoken,
/// the player's name and belongings as last seen, prices quoted, the item last talked about, and the offer
/// waiting for the player's answer.
struct Conversation: Sendable {
    /// A game event the NPC witnessed, from a prompt's `GameEvent` segment.
    struct Event: Sendable, Equatable {
        /// `arrived`, `left`, `gave`, `offerAccepted`, `offerDeclined`, or another name.
        let name: String
        /// The item concerned, if any.
        let item: ItemID?
        /// How many, if given.
        let quantity: Int?
        /// The game's summary, if given.
        let summary: String?
    }

    /// An offer the NPC made and the game made pending.
    struct Offer: Sendable, Equatable {
        /// Whether the NPC sells (`sell`) rather than buys (`buy`).
        let npcSells: Bool
        /// The item, if it is one the catalog knows.
        let item: ItemID?
        /// The item as the call named it.
        let itemText: String
        /// How many.
        let quantity: Int
        /// The total price.
        let price: Int
        /// The game's summary.
        let summary: String?
    }

    /// One tool call of this turn and what it returned.
    struct Exchange: Sendable {
        /// The call.
        let call: Transcript.ToolCall
        /// The tool, if it is one of the NPC tools.
        let tool: NPCTool?
        /// The structured output, if the output was structured (or JSON text).
        let content: GeneratedContent?
        /// The output as text, when it was not structured.
        let text: String
    }

    /// The player's words this turn, or `nil` when the prompt is a game event.
    private(set) var line: String?
    /// The game event this turn, if the prompt is one.
    private(set) var event: Event?
    /// This turn's tool calls with their outputs, in order.
    private(set) var exchanges: [Exchange] = []
    /// The tool names of each round of calls this turn.
    private(set) var rounds: [[String]] = []
    /// How many times the NPC answered before this turn.
    private(set) var responsesBefore = 0
    /// The player's name, if the game said.
    private(set) var playerName: String?
    /// Where the conversation takes place, if the game said.
    private(set) var location: LocationID?
    /// What the NPC knew of the player before it last spoke (`nil` before it first speaks).
    private(set) var lastSeen: PlayerReport?
    /// What the NPC knows of the player now, this turn's outputs included.
    private(set) var latest: PlayerReport?
    /// The offer waiting for the player's answer when this turn began.
    private(set) var pendingOffer: Offer?
    /// The offer this turn's event settled (accepted or declined).
    private(set) var settledOffer: Offer?
    /// The latest stock line seen for each item, this turn included.
    private(set) var prices: [ItemID: StockReport.Line] = [:]
    /// Whether any price was quoted before this turn.
    private(set) var pricesQuotedBefore = false
    /// What the NPC knew of the player when this turn began.
    private(set) var latestBefore: PlayerReport?
    /// The player's words in the latest spoken prompt before this turn.
    private(set) var previousLine: String?
    /// The item the conversation was last about before this turn.
    private(set) var contextItem: ItemID?
    /// Items the player got from this NPC (bought or were given), which the NPC does not remark on.
    private(set) var fromNPC: Set<ItemID> = []

    /// Reads a transcript.
    ///
    /// - Parameters:
    ///   - transcript: The request's transcript.
    ///   - resolver: Finds items in words and tool arguments.
    ///   - world: The world, for stock names.
    init(_ transcript: Transcript, resolver: ItemResolver, world: World) {
        let entries = Array(transcript)
        let promptIndex = entries.lastIndex { if case .prompt = $0 { true } else { false } }
        var calls: [String: Transcript.ToolCall] = [:]
        var reports: [(index: Int, report: PlayerReport)] = []
        var lastResponse: Int?
        var pending: Offer?
        for (index, entry) in entries.enumerated() {
            let isBefore = promptIndex.map { index < $0 } ?? true
            switch entry {
            case .instructions(let instructions):
                for case .structure(let segment) in instructions.segments where segment.source == "GameContext" {
                    if let player = segment.content[property: "player"] {
                        let report = PlayerReport(player)
                        reports.append((index, report))
                        playerName = report.name ?? playerName
                    }
                    if let place = segment.content.string("location") { location = LocationID(place) }
                }
            case .prompt(let prompt):
                let (words, event) = Self.read(prompt)
                if index == promptIndex {
                    line = event == nil ? words : nil
                    self.event = event
                    if let event, event.name == "offerAccepted" || event.name == "offerDeclined" {
                        settledOffer = pending
                        if event.name == "offerAccepted", let offer = pending, offer.npcSells, let item = offer.item {
                            fromNPC.insert(item)
                        }
                    } else {
                        pendingOffer = pending
                    }
                } else if event == nil {
                    previousLine = words
                } else if let event {
                    if event.name == "offerAccepted" || event.name == "offerDeclined" {
                        if event.name == "offerAccepted", let offer = pending, offer.npcSells, let item = offer.item {
                            fromNPC.insert(item)
                        }
                        pending = nil
                    }
                }
            case .toolCalls(let toolCalls):
                if !isBefore { rounds.append(toolCalls.map(\.toolName)) }
                for call in toolCalls { calls[call.id] = call }
            case .toolOutput(let output):
                let call = calls[output.id]
                let (content, text) = Self.read(output)
                let tool = NPCTool(rawValue: output.toolName)
                if !isBefore, let call {
                    exchanges.append(Exchange(call: call, tool: tool, content: content, text: text))
                }
                guard let content else { continue }
                switch tool {
                case .lookUpStock:
                    let lines = StockReport(content, world: world).lines
                    for line in lines { prices[line.item] = line }
                    if isBefore, !lines.isEmpty { pricesQuotedBefore = true }
                case .inspectPlayer:
                    let report = PlayerReport(content)
                    reports.append((index, report))
                    playerName = report.name ?? playerName
                case .offerTrade:
                    guard isBefore, let call, ActionReport(content).status == "pending" else { continue }
                    let itemText = call.arguments.string("item") ?? ""
                    pending = Offer(
                        npcSells: call.arguments.string("action") != "buy", item: resolver.item(named: itemText),
                        itemText: itemText, quantity: call.arguments.integer("quantity") ?? 1,
                        price: call.arguments.integer("price") ?? 0, summary: ActionReport(content).summary)
                case .giveItem:
                    if ActionReport(content).status == "given", let text = call?.arguments.string("item"),
                        let item = resolver.item(named: text)
                    {
                        fromNPC.insert(item)
                    }
                default:
                    break
                }
            case .response:
                if isBefore {
                    responsesBefore += 1
                    lastResponse = index
                }
            case .reasoning:
                break
            }
        }
        if promptIndex == nil { pendingOffer = pending }
        contextItem = Self.lastItem(in: entries[..<(promptIndex ?? entries.count)], resolver: resolver)
        latest = reports.last?.report
        latestBefore = reports.last { report in promptIndex.map { report.index < $0 } ?? true }?.report
        if let lastResponse { lastSeen = reports.last { $0.index < lastResponse }?.report }
    }

    /// The items the NPC notices on the player: carried now, not carried when it last spoke (everything, before
    /// it first speaks), and not got from the NPC itself; most valuable first.
    func noticedItems(in world: World) -> [ItemID] {
        guard let latest else { return [] }
        let new = latest.lines.filter { line in
            line.quantity > (lastSeen?.quantity(of: line.item) ?? 0) && !fromNPC.contains(line.item)
                && world.items[line.item] != nil
        }.map(\.item)
        return new.sorted {
            let (a, b) = (world.items[$0]?.value ?? 0, world.items[$1]?.value ?? 0)
            return a != b ? a > b : $0 < $1
        }
    }

    /// The exchanges of this turn with a given tool, latest last.
    func exchanges(with tool: NPCTool) -> [Exchange] { exchanges.filter { $0.tool == tool } }

    // MARK: - Reading entries

    /// The item the conversation was last about: the latest item a player's line named (only one), an event
    /// concerned, or a tool call asked about, reading back from the end.
    private static func lastItem(in entries: ArraySlice<Transcript.Entry>, resolver: ItemResolver) -> ItemID? {
        for entry in entries.reversed() {
            switch entry {
            case .prompt(let prompt):
                let (words, event) = read(prompt)
                if let event {
                    if let item = event.item { return item }
                } else {
                    let items = resolver.bestItems(in: Words(words))
                    if items.count == 1 { return items[0] }
                }
            case .toolCalls(let calls):
                for call in calls.reversed() {
                    if let text = call.arguments.string("item"), let item = resolver.item(named: text) { return item }
                }
            default:
                break
            }
        }
        return nil
    }

    /// A prompt's words (its text segments) and its game event, if it has a `GameEvent` segment.
    private static func read(_ prompt: Transcript.Prompt) -> (String, Event?) {
        var texts: [String] = []
        var event: Event?
        for segment in prompt.segments {
            switch segment {
            case .text(let text): texts.append(text.content)
            case .structure(let structure) where structure.source == "GameEvent":
                let content = structure.content
                event = Event(
                    name: content.string("event") ?? "unknown", item: content.string("item").map { ItemID($0) },
                    quantity: content.integer("quantity"), summary: content.string("summary"))
            case .structure:
                break
            }
        }
        return (texts.joined(separator: "\n"), event)
    }

    /// A tool output's structured content (from a structured segment, or JSON text), or its text.
    private static func read(_ output: Transcript.ToolOutput) -> (GeneratedContent?, String) {
        var texts: [String] = []
        for segment in output.segments {
            switch segment {
            case .structure(let structure): return (structure.content, "")
            case .text(let text): texts.append(text.content)
            }
        }
        let text = texts.joined(separator: "\n")
        if let content = try? GeneratedContent(json: text), content.isComplete, case .structure = content.kind {
            return (content, text)
        }
        return (nil, text)
    }
}
