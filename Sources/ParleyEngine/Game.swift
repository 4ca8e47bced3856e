import Foundation
import GameWorld
import LanguageModels

/// A game in progress: the world and the player, and one language-model session per NPC the player has met.
///
/// The CLI (and any front end) feeds it lines the player typed and shows what comes back. With a loaded
/// `ContentPack` (`pack`), the embedded scripted model for every NPC, and a `render` of your own:
///
/// ```swift
/// let game = Game(state: pack.initialState) { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
/// await game.perform("talk to mira") { output in render(output) }
/// await game.perform("how much is the lantern?") { output in render(output) }
/// ```
///
/// (`GameDocumentationTests` compiles and runs this example as written.)
///
/// NPCs act only through their tools, and the tools only through the world's rules: the model proposes, the
/// game disposes. A turn that fails (a model server that is down, a context that is full) changes nothing, and
/// the player's words can simply be said again.
public actor Game {
    /// Makes the model for an NPC, at first contact.
    public typealias ModelProvider = @Sendable (_ npc: NPC, _ world: World) async throws -> any LanguageModel

    package let shared: SharedGameState
    let models: ModelProvider
    /// How NPC replies are generated.
    let options: GenerationOptions
    package var conversations: [NPCID: NPCConversation] = [:]
    /// The NPC the player is talking to.
    public internal(set) var partner: NPCID?
    /// The last NPC turn the game applied, with what it produced.
    public internal(set) var lastTurn: TurnResult?
    /// The recordings and feedback reports made so far (see `Game+Feedback.swift`).
    var attachments = Attachments()
    /// Called with each new feedback report, for example to save it or write it to a folder.
    var onFeedback: @Sendable (FeedbackReport) -> Void = { _ in }
    /// What conditions know of each conversation, read incrementally (see `Game+Scripting.swift`).
    var factsIndex = ConversationFactsIndex()
    /// Conversations in the save this game was loaded from, read on first contact.
    package var restored: RestoredConversations?
    /// Checks what NPCs say against the game, made at the first turn (the world does not change during a game).
    package var claimChecker: ClaimChecker?
    /// Whether NPCs played by a server speak through it (see `setVoiceEnabled(_:)`).
    var voiceEnabled = true
    /// What the last save holds, and what changed since (see `Game+Saving.swift`).
    package var saveMarks = SaveMarks()
    /// The game's handler of its NPCs' actions (see `Game+Actions.swift`).
    nonisolated let actionHandling = GameActionHandling()

    /// Starts a game, or restores a saved one.
    ///
    /// A restored game continues where it was: the offers that were pending are pending again, and each NPC's
    /// conversation is rebuilt with `LanguageModelSession(model:tools:transcript:)` when the player first talks to
    /// that NPC again, so the NPC remembers what was said in this save, and nothing from another.
    ///
    /// - Parameters:
    ///   - state: The world and the player.
    ///   - models: Makes each NPC's model.
    ///   - rules: The rules trades follow.
    ///   - options: How NPC replies are generated (for example a `maximumResponseTokens` for slow models).
    ///   - restored: The saved conversations and offers, for a loaded game.
    public init(
        state: GameState, models: @escaping ModelProvider, rules: TradeRules = .standard,
        options: GenerationOptions = GenerationOptions(), restoring restored: RestoredConversations? = nil
    ) {
        shared = SharedGameState(state, rules: rules)
        self.models = models
        self.options = options
        self.restored = restored
        if let restored {
            shared.update { $0.pendingOffers = restored.pendingOffers }
            saveMarks.offers = restored.pendingOffers
            partner = restored.talkingTo.flatMap { state.world.npcs[$0] != nil ? $0 : nil }
            saveMarks.partner = partner
        }
    }

    /// The world and the player now.
    public var state: GameState { shared.game }

    /// The offers waiting for the player's answer, by NPC.
    public var pendingOffers: [NPCID: PendingOffer] { shared.read(\.pendingOffers) }

    /// Offers NPCs proposed that the rules refused.
    public var refusedOffers: [RefusedOffer] { shared.read(\.refusedOffers) }

    /// The events applied to the world so far, in order.
    public var events: [GameEvent] { shared.read(\.events) }

    /// Each NPC's conversation with its context, for saving.
    public var annotatedTranscripts: [NPCID: AnnotatedTranscript] {
        conversations.mapValues { $0.annotated(npcName: state.world.name(of: $0.npc)) }
    }

    /// Continues a conversation after the game was rebuilt (for example by `reload`).
    ///
    /// - Parameter npc: The NPC the player was talking to.
    public func resume(talkingTo npc: NPCID?) {
        partner = npc.flatMap { state.world.npcs[$0] != nil ? $0 : nil }
    }

    /// Sets what happens with each new feedback report (besides keeping it in `feedback`).
    ///
    /// - Parameter handler: Called with the report.
    public func onFeedback(_ handler: @escaping @Sendable (FeedbackReport) -> Void) { onFeedback = handler }

    /// An NPC's session, if the player has talked to them.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The session.
    public func session(of npc: NPCID) -> LanguageModelSession? { conversations[npc]?.session }

    /// What a line the player types means now: a command, or (while talking) words said to the NPC.
    ///
    /// While the player talks to an NPC, speech wins: a line is a command only when its command word is followed by
    /// what the command takes here (`GameCommand.parse(_:talking:scope:)` with this moment's `CommandScope`).
    ///
    /// - Parameter line: What the player typed.
    /// - Returns: The command.
    public func command(for line: String) -> GameCommand {
        GameCommand.parse(line, talking: partner != nil, scope: CommandScope(state: state))
    }

    /// Runs one line the player typed.
    ///
    /// - Parameters:
    ///   - line: What the player typed.
    ///   - output: Receives what the game shows, piece by piece.
    /// - Returns: `false` when the player quit.
    @discardableResult
    public func perform(_ line: String, output: @Sendable (GameOutput) -> Void) async -> Bool {
        await Task.yield()
        let command = command(for: line)
        if command == .quit { return false }
        await run(command, output: output)
        return true
    }

    /// Runs one command.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - output: Receives what the game shows, piece by piece.
    public func perform(_ command: GameCommand, output: @Sendable (GameOutput) -> Void) async {
        await Task.yield()
        await run(command, output: output)
    }

    /// Runs one command, without first letting other tasks run (`perform(_:output:)` does: a turn with an in-process
    /// model never suspends, and a game of many such turns would otherwise hold one of the cooperative pool's few
    /// threads, starving every other game and request, however long it plays).
    private func run(_ command: GameCommand, output: @Sendable (GameOutput) -> Void) async {
        // The goal is announced when a command reaches it: a fact of the state before and after, so a restored game
        // announces it exactly when the live one would.
        let goalWasReached = state.isGoalReached
        switch command {
        case .look: output(.narration(describeLocation()))
        case .examine(let name): examine(name, output: output)
        case .go(let direction): await go(direction, output: output)
        case .take(let name): take(name, output: output)
        case .drop(let name): drop(name, output: output)
        case .give(let item, let npc): await give(item, to: npc, output: output)
        case .inventory: output(.narration(describeInventory()))
        case .talk(let name): await talk(to: name, output: output)
        case .say(let text): await say(text, output: output)
        case .offers: output(.narration(describeOffers()))
        case .accept: await answerOffer(accepting: true, output: output)
        case .decline: await answerOffer(accepting: false, output: output)
        case .bye: await bye(output: output)
        case .history: output(.narration(await describeHistory()))
        case .report(let expected, let category): await report(expected: expected, category: category, output: output)
        case .help: output(.narration(state.world.lexicon.text(.help)))
        case .save, .load, .saves, .reload:
            output(.problem("This needs a game host (saves and a content folder); the library's Game alone cannot."))
        case .quit, .nothing: break
        case .unknown(let text, let hint):
            output(.problem(state.world.lexicon.text(.notUnderstood, ["line": text, "hint": hint])))
        }
        if !goalWasReached, state.isGoalReached {
            output(.goalReached(state.world.goal.description))
        }
        // What each NPC knows now (its knowledge and goals, by their conditions) is written into its instructions
        // after every input, as a restored game writes it when it opens the conversation: a turn's tool calls (the
        // topic), a command's gift or a rule's flag change what holds, and the saved instructions must say what a
        // load would.
        for npc in conversations.keys { refreshKnowledge(of: npc) }
    }
}
