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
        /// What the player gives besides the gold, in a swap, as the call named it; `nil` for none.
        var partExchange: String? = nil
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
        /// The output, when the call is of one of the game's own actions (`actions.json`).
        var gameAction: GameActionResult? = nil

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

        /// What was heard, when the game refused the call because the player's spoken line was heard too unsurely
        /// to act on (`RefusalReason.unclearSpeech`, from an NPC tool or one of the game's actions).
        var unclearSpeech: String? {
            let reasons = gameAction?.refusals ?? (tool == nil ? [] : action.reasons)
            for reason in reasons {
                if case .unclearSpeech(let heard) = reason { return heard }
            }
            return nil
        }

        /// The game's decision on an action: the output, or a refusal in the tool's own words when it answered in
        /// text (or in something else than an action's result).
        var action: ActionResult {
            if case .action(let result)? = output { return result }
            return .refused(text.isEmpty ? [] : [.stated(text)])
        }
    }

    /// What the conversation before this turn established, as read.
    let history: ConversationHistory
    /// The player's words this turn, or `nil` when the prompt is an event the NPC witnessed.
    private(set) var line: String?
    /// Whether this turn's prompt is an event the NPC witnessed (it has a `GameEvent` segment).
    private(set) var isEvent = false
    /// The event this turn, when the prompt is one this version reads.
    private(set) var event: WitnessedEvent?
    /// This turn's tool calls with their outputs, in order.
    private(set) var exchanges: [Exchange] = []
    /// What was heard, when a call of this turn was refused because the player's spoken line was heard too unsurely
    /// to act on: the NPC then asks the player to say it again instead of answering (`Lexicon.Text.askAgainToAct`).
    var unclearSpeech: String? { exchanges.lazy.compactMap(\.unclearSpeech).first }
    /// The tool names of each round of calls this turn.
    private(set) var rounds: [[String]] = []
    /// How many times the NPC answered before this turn.
    private(set) var responsesBefore = 0
    /// The player's name, if the game said.
    private(set) var playerName: String?
    /// The name the player gave in their own words before this turn ("call me Dax"), the latest; `nil` when they
    /// gave none in this transcript.
    private(set) var playerCalled: String?
    /// The whole name the player gave with `playerCalled` ("Hal Brightwater").
    private(set) var playerFullName: String?

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

    /// Reads a transcript: what came before its last prompt from `memory` when it remembers that part (see
    /// `ConversationMemory`), or entry by entry; then the last prompt and the entries after it (this turn).
    ///
    /// - Parameters:
    ///   - transcript: The request's transcript.
    ///   - resolver: Finds items in words and tool arguments.
    ///   - memory: The histories read for earlier requests, or `nil` to read the whole transcript.
    init(_ transcript: Transcript, resolver: ItemResolver, memory: ConversationMemory? = nil) {
        let promptIndex = transcript.lastIndex { if case .prompt = $0 { true } else { false } }
        let end = promptIndex ?? transcript.endIndex
        let history =
            memory?.history(of: transcript, upTo: end, resolver: resolver)
            ?? ConversationHistory(reading: transcript[..<end], resolver: resolver)
        self.init(history: history, turn: transcript[end...], resolver: resolver)
    }

    /// Reads this turn (`turn`: the last prompt and the entries after it, or nothing when the transcript has no
    /// prompt) over what the conversation before it established.
    private init(history: ConversationHistory, turn: Slice<Transcript>, resolver: ItemResolver) {
        self.history = history
        responsesBefore = history.responses
        playerName = history.playerName
        playerCalled = history.playerCalled
        playerFullName = history.playerFullName
        location = history.location
        lastSeen = history.lastSeen
        latestBefore = history.latestReport
        latest = history.latestReport
        prices = history.prices
        pricesQuotedBefore = history.pricesQuoted
        previousLine = history.previousLine
        contextItem = history.contextItem
        fromNPC = history.fromNPC
        guard case .prompt(let prompt)? = turn.first else {
            pendingOffer = history.pending
            return
        }
        isEvent = prompt.isWitnessedEvent
        line = isEvent ? nil : Self.words(of: prompt)
        event = prompt.witnessedEvent
        switch event {
        case .offerAccepted?, .offerDeclined?:
            settledOffer = history.pending
            if case .offerAccepted? = event, let offer = history.pending, offer.npcSells, let item = offer.item {
                fromNPC.insert(item)
            }
        default:
            pendingOffer = history.pending
        }
        var calls: [String: Transcript.ToolCall] = [:]
        for entry in turn.dropFirst() {
            switch entry {
            case .instructions(let instructions):
                if let context = instructions.gameContext {
                    latest = context.player
                    playerName = context.player.name
                    location = context.location
                }
            case .toolCalls(let toolCalls):
                rounds.append(toolCalls.map(\.toolName))
                for call in toolCalls { calls[call.id] = call }
            case .toolOutput(let toolOutput):
                let call = calls[toolOutput.id]
                let request = call.flatMap(NPCToolCall.init)
                let output = NPCToolOutput(toolOutput)
                if let call {
                    exchanges.append(
                        Exchange(
                            call: call, tool: NPCTool(rawValue: toolOutput.toolName), request: request,
                            output: output, text: Self.text(of: toolOutput), gameAction: GameActionResult(toolOutput)))
                }
                switch output {
                case .stock(let report)?:
                    for line in report.lines { prices[line.item] = line }
                case .player(let report)?:
                    latest = report
                    playerName = report.name
                case .action(let result)?:
                    if result.status == .given, case .giveItem(let gift)? = request,
                        let item = resolver.item(named: gift.item)
                    {
                        fromNPC.insert(item)
                    }
                case nil:
                    break
                }
            case .prompt, .response, .reasoning, .unknown:
                break
            }
        }
        if history.answerSpoken {
            quoteBefore = Self.quote(
                calls: history.answerCalls, listed: history.answerListed, line: previousLine, carried: latestBefore,
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

    /// A prompt's words: its text segments.
    static func words(of prompt: Transcript.Prompt) -> String {
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
            case .unknown: continue
            }
        }
        return texts.joined(separator: "\n")
    }
}
