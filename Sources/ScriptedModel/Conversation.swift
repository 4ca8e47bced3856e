import GameWorld
import LanguageModels
import NPCContract

/// What the scripted model reads from a transcript: this turn's prompt (words or a game event), the tool calls
/// and outputs of this turn so far, and what the conversation before it established: whether the NPC has spoken,
/// the player's name and belongings as last seen, prices quoted, the item last talked about, and the offer
/// waiting for the player's answer.
struct Conversation: Sendable {
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

    /// One tool call of this turn and what it returned, read through the contract.
    struct Exchange: Sendable {
        /// The call as the transcript has it.
        let call: Transcript.ToolCall
        /// The tool, if it is one of the NPC tools.
        let tool: NPCTool?
        /// The call with its arguments, when it is an NPC tool's and its arguments read.
        let request: NPCToolCall?
        /// The output, when it is the tool's structured answer.
        let output: NPCToolOutput?
        /// The output's text, when it was not structured (an error, arguments the session could not read).
        let text: String

        /// The stock, when the output is `lookUpStock`'s.
        var stock: StockReport? {
            if case .stock(let report)? = output { return report }
            return nil
        }

        /// The player, when the output is `inspectPlayer`'s.
        var player: PlayerReport? {
            if case .player(let report)? = output { return report }
            return nil
        }

        /// The game's decision on an action: the output, or a refusal in the tool's own words when it answered in
        /// text (or in something else than an action's result).
        var action: ActionResult {
            if case .action(let result)? = output { return result }
            return .refused(text.isEmpty ? [] : [.stated(text)])
        }
    }

    /// The player's words this turn, or `nil` when the prompt is an event the NPC witnessed.
    private(set) var line: String?
    /// Whether this turn's prompt is an event the NPC witnessed (it has a `GameEvent` segment).
    private(set) var isEvent = false
    /// The event this turn, when the prompt is one this version reads.
    private(set) var event: WitnessedEvent?
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
    /// What the NPC's answer to the player's previous line quoted without making an offer: an item's asking
    /// price ("how much for the rope?") or what it would pay for one of the player's things ("what's my sword
    /// worth to you?"). A yes to it trades.
    private(set) var quoteBefore: Quote?

    /// A price the NPC named for one item without making an offer.
    struct Quote: Sendable, Equatable {
        /// Whether the NPC would sell the item (`false`: buy it from the player).
        let npcSells: Bool
        /// The item.
        let item: ItemID
    }

    /// Reads a transcript.
    ///
    /// - Parameters:
    ///   - transcript: The request's transcript.
    ///   - resolver: Finds items in words and tool arguments.
    init(_ transcript: Transcript, resolver: ItemResolver) {
        let entries = Array(transcript)
        let promptIndex = entries.lastIndex { if case .prompt = $0 { true } else { false } }
        var calls: [String: Transcript.ToolCall] = [:]
        var reports: [(index: Int, report: PlayerReport)] = []
        var lastResponse: Int?
        var pending: Offer?
        // The calls answering the latest earlier prompt, the items their stock outputs listed, and whether that
        // prompt was the player's words.
        var answer: (calls: [NPCToolCall], listed: [ItemID], spoken: Bool) = ([], [], false)
        for (index, entry) in entries.enumerated() {
            let isBefore = promptIndex.map { index < $0 } ?? true
            switch entry {
            case .instructions(let instructions):
                if let context = instructions.gameContext {
                    reports.append((index, context.player))
                    playerName = context.player.name
                    location = context.location
                }
            case .prompt(let prompt):
                let event = prompt.witnessedEvent
                if isBefore { answer = ([], [], !prompt.isWitnessedEvent) }
                if index == promptIndex {
                    isEvent = prompt.isWitnessedEvent
                    line = isEvent ? nil : Self.words(of: prompt)
                    self.event = event
                    switch event {
                    case .offerAccepted?, .offerDeclined?:
                        settledOffer = pending
                        if case .offerAccepted? = event, let offer = pending, offer.npcSells, let item = offer.item {
                            fromNPC.insert(item)
                        }
                    default:
                        pendingOffer = pending
                    }
                } else if !prompt.isWitnessedEvent {
                    previousLine = Self.words(of: prompt)
                } else {
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
            case .toolCalls(let toolCalls):
                if !isBefore { rounds.append(toolCalls.map(\.toolName)) }
                if isBefore { answer.calls += toolCalls.compactMap(NPCToolCall.init) }
                for call in toolCalls { calls[call.id] = call }
            case .toolOutput(let toolOutput):
                let call = calls[toolOutput.id]
                let request = call.flatMap(NPCToolCall.init)
                let output = NPCToolOutput(toolOutput)
                if !isBefore, let call {
                    exchanges.append(
                        Exchange(
                            call: call, tool: NPCTool(rawValue: toolOutput.toolName), request: request, output: output,
                            text: Self.text(of: toolOutput)))
                }
                switch output {
                case .stock(let report)?:
                    for line in report.lines { prices[line.item] = line }
                    if isBefore { answer.listed += report.lines.map(\.item) }
                    if isBefore, !report.lines.isEmpty { pricesQuotedBefore = true }
                case .player(let report)?:
                    reports.append((index, report))
                    playerName = report.name
                case .action(let result)?:
                    switch (result.status, request) {
                    case (.pending, .offerTrade(let offer)?) where isBefore:
                        pending = Offer(
                            npcSells: offer.action == .sell, item: resolver.item(named: offer.item),
                            itemText: offer.item, quantity: offer.quantity ?? 1, price: offer.price,
                            summary: result.summary)
                    case (.given, .giveItem(let gift)?):
                        if let item = resolver.item(named: gift.item) { fromNPC.insert(item) }
                    default:
                        break
                    }
                case nil:
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
        if answer.spoken, promptIndex != nil {
            quoteBefore = Self.quote(
                calls: answer.calls, listed: answer.listed, line: previousLine, carried: latestBefore,
                resolver: resolver)
        }
    }

    /// What an answer quoted without an offer: the one item its stock look-up listed, or, after only looking at
    /// the player's things, the one carried item the player's line named.
    private static func quote(
        calls: [NPCToolCall], listed: [ItemID], line: String?, carried: PlayerReport?, resolver: ItemResolver
    ) -> Quote? {
        let tools = Set(calls.map(\.tool))
        guard tools.isDisjoint(with: [.offerTrade, .giveItem, .acceptGift]) else { return nil }
        if tools.contains(.lookUpStock) {
            return Set(listed).count == 1 ? Quote(npcSells: true, item: listed[0]) : nil
        }
        guard tools.contains(.inspectPlayer), let line, let carried else { return nil }
        let named = resolver.bestItems(in: resolver.line(line)).filter { carried.quantity(of: $0) > 0 }
        return named.count == 1 ? Quote(npcSells: false, item: named[0]) : nil
    }

    /// The items the NPC notices on the player: carried now, not carried when it last spoke (everything, before
    /// it first speaks), and not got from the NPC itself; most valuable first.
    func noticedItems(in world: World) -> [ItemID] {
        guard let latest else { return [] }
        let new = latest.inventory.filter { line in
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
                if prompt.isWitnessedEvent {
                    if let item = prompt.witnessedEvent?.item { return item }
                } else {
                    let items = resolver.bestItems(in: resolver.line(words(of: prompt)))
                    if items.count == 1 { return items[0] }
                }
            case .toolCalls(let calls):
                for call in calls.reversed() {
                    if let text = NPCToolCall(call)?.item, let item = resolver.item(named: text) { return item }
                }
            default:
                break
            }
        }
        return nil
    }

    /// A prompt's words: its text segments.
    private static func words(of prompt: Transcript.Prompt) -> String {
        prompt.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined(
            separator: "\n")
    }

    /// A tool output's text: empty when the output is structured.
    private static func text(of output: Transcript.ToolOutput) -> String {
        var texts: [String] = []
        for segment in output.segments {
            switch segment {
            case .structure: return ""
            case .text(let text): texts.append(text.content)
            }
        }
        return texts.joined(separator: "\n")
    }
}
