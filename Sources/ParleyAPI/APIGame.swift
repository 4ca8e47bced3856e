import Foundation
import GameWorld
import LanguageModels
import ParleyEngine
import ParleyHost
import ParleyJSON
import Synchronization

/// One game that `parley serve` plays for a client: a `GameHost` whose lines run one at a time, in the order they
/// came, however many requests arrive at once.
public actor APIGame {
    /// The game's id, as `POST /v1/games` gave it.
    public nonisolated let id: String
    /// The game, with its saves.
    let host: GameHost
    /// The longest one NPC turn may take.
    let turnTimeout: Duration
    /// Every event of the game, numbered, for its listeners (`GET /v1/games/{id}/events`).
    nonisolated let eventLog: GameEventLog
    /// The id of another game playing a slot (as stored), if one is: a line that saves to it or loads it is refused.
    nonisolated let slotOwner: (@Sendable (String) async -> String?)?
    /// When the game last ran a line or was read.
    private(set) var lastUsed = ContinuousClock.now
    /// Whether a line is running; `waiting` holds the lines that came meanwhile, in order.
    private var running = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The NPCs' calls of the game's actions: their events, and the calls waiting for an answer.
    nonisolated let actions = APIGameActions()
    /// Whether the host runs its actions through `actions` yet.
    private var actionsInstalled = false
    /// The audio of its last lines, when the server speaks them (`APIGames.Configuration.speech`).
    nonisolated let audio: GameAudio?

    /// Whether a line (or anything else) is running or waiting to.
    var isBusy: Bool { running || !waiting.isEmpty }

    /// Wraps a host.
    ///
    /// - Parameters:
    ///   - id: The game's id.
    ///   - host: The game, its saves claimed.
    ///   - turnTimeout: The longest one NPC turn may take.
    ///   - eventLog: Where its events go for listeners.
    ///   - slotOwner: The id of another game playing a slot, if one is.
    ///   - speech: What speaks its NPCs' lines, or `nil` for text alone.
    init(
        id: String, host: GameHost, turnTimeout: Duration = Game.turnTimeout, eventLog: GameEventLog = GameEventLog(),
        slotOwner: (@Sendable (String) async -> String?)? = nil, speech: APISpeech? = nil
    ) {
        self.audio = speech.map(GameAudio.init(speech:))
        self.id = id
        self.host = host
        self.turnTimeout = turnTimeout
        self.eventLog = eventLog
        self.slotOwner = slotOwner
    }

    /// Runs `body` once every line that came before it has run: an actor alone would let a second line start while
    /// the first waits for its NPC's model.
    func serialized<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        if running {
            await withCheckedContinuation { waiting.append($0) }
        }
        running = true
        defer {
            if waiting.isEmpty { running = false } else { waiting.removeFirst().resume() }
            lastUsed = .now
        }
        return try await body()
    }

    /// Runs one line, any a player can type in `parley play`, and autosaves.
    ///
    /// - Parameters:
    ///   - line: What the player typed.
    ///   - emit: Receives each event as it happens (speech piece by piece), for streaming.
    /// - Returns: Every event of the line, in order; and `false` when the line was `quit`.
    public func input(_ line: String, emit: @escaping @Sendable (APIEvent) -> Void = { _ in }) async -> (
        events: [APIEvent], goesOn: Bool
    ) {
        await serialized {
            if let refusal = await slotRefusal(for: line) {
                eventLog.publish(refusal)
                emit(refusal)
                return ([refusal], true)
            }
            return await recording(emit: emit) { output in await host.perform(line, output: output) }
        }
    }

    /// Starts play, a new game or the last one, as `parley play` does: a new game with the world's introduction, then
    /// its first look; its state patched first, when a patch is given (one that passed `StatePatch.check(in:)`), so
    /// that it looks around in the game's own world.
    func begin(continuing: Bool, state patch: StatePatch? = nil) async -> (events: [APIEvent], goesOn: Bool) {
        await serialized {
            let game = await host.game
            var changes: [StateChange] = []
            if let patch { changes = (try? await game.apply(patch)) ?? [] }
            let pushed = APIEvent.events(for: changes, in: await game.state.world)
            for event in pushed { eventLog.publish(event) }
            let introduction = await game.state.world.introduction
            let (events, goesOn) = await recording(emit: { _ in }) { output in
                // A new game is introduced, as `parley play` introduces it, before it looks around.
                if !continuing, !introduction.isEmpty { output(.narration(introduction)) }
                await host.begin(continuing: continuing, output: output)
                return true
            }
            return (pushed + events, goesOn)
        }
    }

    /// Loads a save; the flag says whether it loaded.
    func load(slot: String) async -> (events: [APIEvent], goesOn: Bool) {
        await serialized {
            await recording(emit: { _ in }) { output in await host.loadGame(slot: slot, output: output) }
        }
    }

    /// Runs `body` with an output that records what the game shows as events, then adds what the game did; each
    /// event goes to the game's listeners as well, unless `publishing` is false (the caller publishes them). When the
    /// game speaks (`audio`) and publishes, each `speechEnded` waits for its line's audio, and the events after it
    /// for it.
    func recording(
        emit: @escaping @Sendable (APIEvent) -> Void, publishing: Bool = true,
        _ body: (@escaping @Sendable (GameOutput) -> Void) async -> Bool
    ) async -> (events: [APIEvent], goesOn: Bool) {
        let eventLog = self.eventLog
        let shown = emit
        let emit: @Sendable (APIEvent) -> Void = { event in
            if publishing { eventLog.publish(event) }
            shown(event)
        }
        let game = await host.game
        let world = await game.state.world
        let recorder = await EventRecorder.begin(on: game)
        let log = EventLog()
        let spoken = (publishing ? audio : nil).map { audio in
            SpokenEvents(
                audio: audio, gameID: id, world: world, eventLog: eventLog,
                deliver: { event in
                    log.append(event)
                    shown(event)
                },
                publish: { event in
                    log.append(event)
                    emit(event)
                })
        }
        let send: @Sendable (APIEvent) -> Void = { event in
            if let spoken {
                spoken.send(event)
            } else {
                log.append(event)
                emit(event)
            }
        }
        if !actionsInstalled {
            await host.onAction(actions.handler(in: world))
            actionsInstalled = true
        }
        // The `action` events of the NPCs' calls go out when the call is made, among what the game shows.
        actions.send { event in send(event) }
        defer { actions.send(to: nil) }
        let result = await Game.$turnTimeout.withValue(turnTimeout) {
            await body { output in
                var speech = log.speech
                if let event = EventRecorder.shown(output, in: world, speech: &speech) { send(event) }
                log.speech = speech
            }
        }
        for event in await recorder.events(after: await host.game) { send(event) }
        await spoken?.finish()
        return (log.events, result)
    }

    /// Answers an NPC's call of one of the game's actions that waits for the game's answer; it does not wait for the
    /// game's lines (one of which is waiting for this answer).
    ///
    /// - Parameters:
    ///   - callID: The call's id, from its `action` event.
    ///   - answer: The game's answer.
    /// - Returns: `false` when no call of that id is waiting.
    public nonisolated func answerAction(_ callID: String, with answer: GameActionAnswer) -> Bool {
        actions.answer(callID, with: answer)
    }

    /// The game state as `GET /v1/games/{id}` shows it.
    public func state() async -> JSONObject {
        await serialized {
            let game = await host.game
            var state = GameJSON.state(
                await game.state, partner: await game.partner, offers: await game.pendingOffers)
            state["id"] = .string(id)
            state["slot"] = .string(await host.activeAutosaveSlot)
            return state
        }
    }

    /// An NPC's conversation: the whole history, read from the save when this game has not talked to the NPC yet.
    ///
    /// - Parameter npc: The NPC.
    /// - Returns: The conversation, or `nil` when there is none.
    /// - Throws: `SaveGameError` when the saved conversation cannot be read.
    public func transcript(of npc: NPCID) async throws -> AnnotatedTranscript? {
        try await serialized { try await host.game.allConversations()[npc] }
    }

    /// The feedback reports this game filed, oldest first, saved or not: each the documented JSON.
    ///
    /// - Throws: `SaveGameError` when the save cannot be read.
    public func feedback() async throws -> [JSONValue] {
        try await serialized { try await host.feedbackReports() }.map { report in
            (try? JSONValue(parsing: report.json)) ?? .string(report.json)
        }
    }

    /// Saves what is not saved yet and closes the game's save; its listeners get `ended`.
    func close() async {
        await serialized { await host.close() }
        eventLog.end()
    }
}

/// The events of one line, collected from the output callback, and what the NPC speaking now has said.
private final class EventLog: Sendable {
    private let state = Mutex<(events: [APIEvent], speech: EventRecorder.Speech?)>(([], nil))

    var events: [APIEvent] { state.withLock { $0.events } }
    var speech: EventRecorder.Speech? {
        get { state.withLock { $0.speech } }
        set { state.withLock { $0.speech = newValue } }
    }

    func append(_ event: APIEvent) { state.withLock { $0.events.append(event) } }
}
