import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import ParleyJSON
import SaveGames
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyHost

/// The game's own actions (`actions.json`): Sergeant Oona's `openGate` in the shipped pack, called by her dialogue
/// rule (the scripted model) and by a server model (a mock), answered by the game through its action handler, timed
/// out, refused when its arguments do not fit, and kept in the save as the conversation's tool output.
@Suite struct GameActionTests {
    /// The shipped pack, its `openGate` changed by `change`.
    static func pack(_ change: (inout GameAction) -> Void = { _ in }) throws -> ContentPack {
        var pack = try shippedPack()
        var action = try #require(pack.world.actions["openGate"])
        change(&action)
        pack.world.actions["openGate"] = action
        return pack
    }

    static let scripted: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }

    /// A game at the North Gate, talking to Oona.
    static func atTheGate(_ pack: ContentPack, models: @escaping Game.ModelProvider = scripted) async -> Game {
        let game = Game(state: pack.initialState, models: models)
        await game.perform("n") { _ in }
        await game.perform("talk to oona") { _ in }
        return game
    }

    /// The game action results among a transcript's entries, in order.
    static func results(in entries: some Sequence<Transcript.Entry>) -> [GameActionResult] {
        entries.compactMap { entry in
            guard case .toolOutput(let output) = entry else { return nil }
            return GameActionResult(output)
        }
    }

    /// Hands the test each call, and waits for the answer the test gives: a gate, not a clock.
    final class Gatehouse: Sendable {
        let calls: AsyncStream<GameActionCall>
        private let callSink: AsyncStream<GameActionCall>.Continuation
        private let answers = Mutex<[CheckedContinuation<GameActionAnswer?, Never>]>([])

        init() { (calls, callSink) = AsyncStream.makeStream() }

        /// The handler: reports the call, then waits until `answer(_:)`, whether or not its task is cancelled (a
        /// handler that never gives up must not keep the NPC waiting past the action's time limit).
        var handler: GameActionHandler {
            { call in
                await withCheckedContinuation { continuation in
                    self.answers.withLock { $0.append(continuation) }
                    self.callSink.yield(call)
                }
            }
        }

        /// Answers the oldest call waiting.
        func answer(_ answer: GameActionAnswer?) {
            let waiting = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            waiting?.resume(returning: answer)
        }

        /// Says no more calls come (the turn is over): a test waiting for a call that never came fails, never hangs.
        func close() { callSink.finish() }

        /// Lets every call still waiting go, so no task is left behind.
        func release() { while answers.withLock({ !$0.isEmpty }) { answer(nil) } }
    }

    /// A time limit no busy machine reaches before the test answers: what is tested is the answer, not the clock.
    static let patient: @Sendable (inout GameAction) -> Void = { $0.timeoutSeconds = 3_600 }

    @Test func aScriptedRuleCallsTheActionTheGameAnswersAndTheNPCSaysTheAnswer() async throws {
        let game = await Self.atTheGate(try Self.pack(Self.patient))
        let gatehouse = Gatehouse()
        game.onAction(gatehouse.handler)
        let screen = Screen()
        let turn = Task {
            await game.perform("please signal the gatehouse to open the gate", output: screen.record)
            gatehouse.close()
        }
        var calls = gatehouse.calls.makeAsyncIterator()
        let call = try #require(await calls.next())
        // The turn waits for the game: Oona has not spoken yet.
        #expect(!screen.all.contains { if case .speechBegan = $0 { true } else { false } })
        #expect(call.npc == "oona")
        #expect(call.action == "openGate")
        #expect(call.arguments == ["gate": "north", "requestedBy": "Traveller"])
        #expect(call.awaitsAnswer)
        #expect(call.timeout == .seconds(3_600))
        gatehouse.answer(.output(["opened": true, "message": "The North Gate grinds open."]))
        await turn.value
        #expect(screen.text.contains("The North Gate grinds open."), "\(screen.text)")
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        // What Oona learned is her conversation's tool output: the game's answer, as it answered.
        let results = Self.results(in: try #require(await game.session(of: "oona")?.transcript))
        #expect(results.map(\.status) == [.answered])
        #expect(results.first?.output?.jsonValue == ["opened": true, "message": "The North Gate grinds open."])
        #expect(await game.feedback.isEmpty)
    }

    @Test func anErrorFromTheGameIsTheFailedOutcome() async throws {
        let game = await Self.atTheGate(try Self.pack())
        game.onAction { _ in .error("The winch is jammed.") }
        let screen = Screen()
        await game.perform("signal the gatehouse", output: screen.record)
        #expect(screen.text.contains("The gatehouse refuses, citizen: The winch is jammed. The gate stays shut."))
        let results = Self.results(in: try #require(await game.session(of: "oona")?.transcript))
        #expect(results == [.failed("The winch is jammed.")])
    }

    @Test func anActionNobodyAnswersTimesOutCleanly() async throws {
        // A short time limit and a handler that never answers, not even when its task is cancelled: the NPC goes on
        // with "the game did not answer" once the time is up, the turn succeeds, and nothing is reported.
        let game = await Self.atTheGate(try Self.pack { $0.timeoutSeconds = 0.05 })
        let gatehouse = Gatehouse()
        defer { gatehouse.release() }
        game.onAction(gatehouse.handler)
        let screen = Screen()
        await game.perform("signal the gatehouse", output: screen.record)
        #expect(screen.text.contains("I signalled the gatehouse, citizen. No answer."), "\(screen.text)")
        #expect(!screen.all.contains { if case .problem = $0 { true } else { false } })
        let results = Self.results(in: try #require(await game.session(of: "oona")?.transcript))
        #expect(results.map(\.status) == [.unanswered])
        #expect(results.first?.message == "The game did not answer within 0.05 s. Go on without its answer.")
        #expect(await game.feedback.isEmpty)
        #expect(await game.lastTurn?.failure == nil)
    }

    @Test func withoutAHandlerAnAwaitedActionGoesUnansweredAtOnce() async throws {
        // No game listens (as in `parley play`): the NPC does not wait for the time limit, however long it is.
        let game = await Self.atTheGate(try Self.pack { $0.timeoutSeconds = 60 })
        let screen = Screen()
        await game.perform("signal the gatehouse", output: screen.record)
        #expect(screen.text.contains("No answer."))
        let results = Self.results(in: try #require(await game.session(of: "oona")?.transcript))
        #expect(results == [.unanswered(after: nil)])
    }

    @Test func anActionThatDoesNotAwaitTellsTheGameAndGoesOn() async throws {
        let game = await Self.atTheGate(try Self.pack { $0.awaitsAnswer = false })
        let told = Mutex<[GameActionCall]>([])
        // Its answer is not used: the NPC only told the game.
        game.onAction { call in
            told.withLock { $0.append(call) }
            return .output("ignored")
        }
        let screen = Screen()
        await game.perform("signal the gatehouse", output: screen.record)
        #expect(told.withLock { $0.map(\.awaitsAnswer) } == [false])
        let results = Self.results(in: try #require(await game.session(of: "oona")?.transcript))
        #expect(results == [.told])
        // Oona's rule has no reply for `told`: its plain replies say it.
        #expect(screen.text.contains("Only the gatehouse opens the North Gate"), "\(screen.text)")
    }

    @Test func aServerModelCallsTheActionAndReadsTheGamesAnswer() async throws {
        let model = MockLanguageModel(replies: [
            .text("Halt. State your business, citizen."),
            .toolCall("openGate", arguments: #"{"gate": "north", "requestedBy": "a traveller"}"#),
            .text("The gatehouse says the gate is open. Go."),
        ])
        let game = await Self.atTheGate(try Self.pack(Self.patient), models: { _, _ in model })
        let gatehouse = Gatehouse()
        game.onAction(gatehouse.handler)
        let screen = Screen()
        let turn = Task {
            await game.perform("open the gate for me", output: screen.record)
            gatehouse.close()
        }
        var calls = gatehouse.calls.makeAsyncIterator()
        let call = try #require(await calls.next())
        #expect(call.arguments == ["gate": "north", "requestedBy": "a traveller"])
        gatehouse.answer(.output(["opened": true]))
        await turn.value
        #expect(screen.text.contains("The gatehouse says the gate is open. Go."))
        // The model saw the action as a tool with the action's schema, and read the game's answer as its output.
        let last = try #require(model.requests.last)
        let definition = try #require(last.tools.first { $0.name == "openGate" })
        #expect(definition.parameters.jsonSchema == (try Self.pack()).world.actions["openGate"]?.arguments)
        guard case .toolOutput(let output)? = last.transcript.last else {
            Issue.record("the model did not read the action's output")
            return
        }
        #expect(output.toolName == "openGate")
        #expect(GameActionResult(output) == .answered(GeneratedContent(jsonValue: ["opened": true])))
    }

    @Test func onlyTheNPCsAnActionListsHaveItsTool() async throws {
        let model = MockLanguageModel(replies: [.text("Hello.")])
        let game = Game(state: try Self.pack().initialState, models: { _, _ in model })
        await game.perform("talk to mira") { _ in }
        #expect(model.requests.last?.tools.contains { $0.name == "openGate" } == false)
        #expect(model.requests.last?.tools.contains { $0.name == "lookUpStock" } == true)
    }

    @Test(arguments: [
        (#"{"gate": "south"}"#, "$.gate"),
        (#"{"requestedBy": "me"}"#, "gate"),
        (#"{"gate": "north", "bribe": 10}"#, "$.bribe"),
    ])
    func aCallThatDoesNotFitTheSchemaIsRefusedAndReported(arguments: String, detail: String) async throws {
        let model = MockLanguageModel(replies: [
            .text("Halt."), .toolCall("openGate", arguments: arguments), .text("Hm."),
        ])
        let game = await Self.atTheGate(try Self.pack(), models: { _, _ in model })
        let calls = Mutex(0)
        game.onAction { _ in
            calls.withLock { $0 += 1 }
            return .output(["opened": true])
        }
        let screen = Screen()
        await game.perform("open the gate", output: screen.record)
        // The game never saw it; the model was told why; the turn went on; one report was filed.
        #expect(calls.withLock { $0 } == 0)
        guard case .toolOutput(let output)? = model.requests.last?.transcript.last,
            let result = GameActionResult(output)
        else {
            Issue.record("the model was not told")
            return
        }
        #expect(result.status == .refused)
        #expect(result.reasons.first?.contains(detail) == true, "\(result.reasons)")
        #expect(screen.text.contains("Hm."))
        let refused = await game.refusedActions
        #expect(refused.count == 1)
        #expect(refused.first?.action == "openGate")
        let reports = await game.feedback
        #expect(reports.count == 1)
        #expect(reports.first?.kind == .refusedAction)
        let explanation = try #require(reports.first?.attachment.issues.first?.explanation)
        #expect(explanation.hasPrefix("Unexpected call of the game's action openGate. App context — player: Traveller"))
        #expect(explanation.contains(detail))
        #expect(await game.lastTurn?.feedback.count == 1)
    }

    @Test func theActionsOutputIsInTheSaveAndTheRestoredNPCReadsIt() async throws {
        let folder = TemporaryFolder()
        let pack = try Self.pack()
        let store = SaveGameStore(folder: folder.url)
        let first = GameHost(pack: pack, models: Self.scripted, store: store)
        await first.onAction { _ in .output(["opened": true, "message": "The North Gate grinds open."]) }
        for line in ["n", "talk to oona", "signal the gatehouse"] { await first.perform(line) { _ in } }
        let live = try #require(await first.game.session(of: "oona")?.transcript)
        await first.close()

        // A new host, as in a new process: the NPC's conversation holds the call and the game's answer, as it was.
        let second = GameHost(pack: pack, models: Self.scripted, store: store)
        await second.perform("load autosave") { _ in }
        let saved = try #require(try await second.game.allConversations()["oona"]?.transcript)
        #expect(Array(saved) == Array(live))
        #expect(Self.results(in: saved).map(\.status) == [.answered])
        // The restored game keeps playing actions through the host's handler, set once for every game it loads.
        let asked = Mutex(0)
        await second.onAction { _ in
            asked.withLock { $0 += 1 }
            return .error("The winch is jammed.")
        }
        await second.perform("load autosave") { _ in }
        let screen = Screen()
        await second.perform("talk to oona", output: screen.record)
        await second.perform("signal the gatehouse", output: screen.record)
        #expect(asked.withLock { $0 } == 1)
        #expect(screen.text.contains("The winch is jammed."), "\(screen.text)")
    }

    /// The shipped `actions.json` follows its published schema (and the loader reads it without a word).
    @Test func theShippedActionsFollowTheirSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Content")
        let actions = try JSONValue(parsing: Array(try Data(contentsOf: root.appendingPathComponent("actions.json"))))
        let schema = try GenerationSchema(
            jsonSchema: try JSONValue(
                parsing: Array(try Data(contentsOf: root.appendingPathComponent("schema/actions.schema.json")))))
        #expect(schema.validate(GeneratedContent(jsonValue: actions)) == [])
        // The schema refuses what the checker refuses.
        var bad = try #require(actions.objectValue)
        bad["actions"] = [["id": "offerTrade", "description": "x", "npcs": ["oona"], "timeoutSeconds": 90]]
        let problems = schema.validate(GeneratedContent(jsonValue: .object(bad))).map(\.path)
        #expect(problems.contains("$.actions[0].id"))
        #expect(problems.contains("$.actions[0].timeoutSeconds"))
        let pack = ContentPack.load(from: root, displayPath: "Content")
        #expect(pack.diagnostics.filter { $0.file == "Content/actions.json" } == [])
        #expect(try pack.get().world.actions(for: "oona").map(\.id) == ["openGate"])
        let openGate = try #require(try pack.get().world.actions["openGate"])
        #expect(openGate.awaitsAnswer && openGate.timeout == .seconds(5))
    }
}
