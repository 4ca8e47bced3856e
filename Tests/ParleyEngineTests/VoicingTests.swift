import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// NPCs played by a server (`VoicedModel`): grounded voicing says the planned line in the server's words only when
/// they keep its facts, and the planner answers whenever the server is slow, wrong or down. The server is a mock
/// here: what it says is the point of each test.
@Suite(.timeLimit(.minutes(10))) struct VoicingTests {
    /// The planned line the voice was asked to say: the `Reply:` line of its prompt.
    static func plannedLine(in request: GenerationRequest) -> String {
        guard
            case .prompt(let prompt)? = request.transcript.last(where: { if case .prompt = $0 { true } else { false } })
        else { return "" }
        let text = Game.text(of: prompt.segments)
        let line = text.split(separator: "\n").last { $0.hasPrefix("Reply: ") } ?? ""
        return String(line.dropFirst("Reply: ".count))
    }

    /// A voice that says the planned line after a word of its own.
    static func echoVoice(delay: Duration? = nil) -> MockLanguageModel {
        MockLanguageModel(id: "echo", version: "7", delay: delay) { request in
            .text("Well now, " + plannedLine(in: request))
        }
    }

    /// A game on the shipped world whose NPCs a `VoicedModel` plays.
    static func game(
        voice: MockLanguageModel, mode: VoiceMode = .grounded, deadline: Duration = .seconds(60)
    ) throws -> Game {
        let pack = try shippedPack()
        return Game(state: pack.initialState) { npc, world in
            VoicedModel(
                voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: mode,
                firstWordsDeadline: deadline)
        }
    }

    /// Talks to Mira and asks the lantern's price; returns what was heard of the second turn.
    static func askLanternPrice(in game: Game) async -> Screen {
        await game.perform("talk to mira", output: { _ in })
        let screen = Screen()
        await game.perform("how much is the lantern?", output: screen.record)
        return screen
    }

    static func responseText(of turn: TurnResult) -> String {
        turn.entries.last { if case .response = $0 { true } else { false } }.map { Game.text(of: $0.segments) } ?? ""
    }

    // MARK: - Grounded

    @Test func aVoicedLineThatKeepsTheFactsIsSaidAndThePlannersTurnStands() async throws {
        let voice = Self.echoVoice()
        let game = try Self.game(voice: voice)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        let planned = try #require(voicing.planned)
        #expect(voicing.outcome == .voiced)
        #expect(voicing.mode == .grounded)
        #expect(voicing.attempts == 1)
        #expect(voicing.planner.hasPrefix("scripted@"))
        #expect(planned.contains("25 gold"))
        // The player heard the voiced line, and the transcript keeps what the player heard.
        #expect(screen.text == "Mira Quickcoin: Well now, " + planned)
        #expect(Self.responseText(of: turn) == "Well now, " + planned)
        let history = try #require(await game.conversations["mira"]?.session.transcript)
        #expect(history.last.map { Game.text(of: $0.segments) } == "Well now, " + planned)
        // The planner's turn stands: its tool call and its answering rule.
        #expect(turn.recording.toolCalls.contains { $0.hasPrefix("lookUpStock") })
        guard case .response(let response)? = turn.entries.last else { Issue.record("no response"); return }
        #expect(response.answeringRule != nil)
        // The annotations and the recording say so; the recording names the voice.
        #expect(turn.annotations[TurnVoicing.annotationKey] == "voiced")
        #expect(turn.recording.modelID == "echo")
        #expect(turn.recording.modelVersion == "7")
        #expect(turn.falseClaims.isEmpty)
        // The voice saw the planned line, the player's words, and no tools.
        let request = try #require(voice.requests.last)
        #expect(request.tools.isEmpty)
        #expect(Self.plannedLine(in: request) == planned)
        #expect(request.transcript.description.contains("how much is the lantern?"))
    }

    @Test func aLineThatFailsTheCheckIsRegeneratedOnce() async throws {
        let calls = Counter()
        // The first time it voices the price, it gets it wrong.
        let voice = MockLanguageModel { request in
            let planned = Self.plannedLine(in: request)
            guard planned.contains("25"), calls.increment() == 1 else { return .text("Mind you: " + planned) }
            return .text("It costs 3 gold, dear.")
        }
        let game = try Self.game(voice: voice)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        #expect(voicing.outcome == .regenerated, "\(voicing.problems)")
        #expect(voicing.attempts == 2)
        #expect(voicing.problems.count == 1)
        #expect(voicing.problems.first?.contains("it drops the number 25") == true)
        #expect(screen.text.hasPrefix("Mira Quickcoin: Mind you: "))
        #expect(turn.annotations[TurnVoicing.annotationKey] == "regenerated")
        // The second attempt samples (the first is greedy), so it can differ.
        #expect(voice.requests.first?.options.sampling?.isGreedy == true)
        #expect(voice.requests.last?.options.sampling?.isGreedy == false)
    }

    @Test func whenBothLinesAreWrongThePlannedLineIsSaidAndNoFalseClaimReachesThePlayer() async throws {
        let voice = MockLanguageModel { _ in .text("The Brass Lantern is 2 gold, and I have 40 of them!") }
        let game = try Self.game(voice: voice)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        #expect(voicing.outcome == .fellBack)
        #expect(voicing.reason == .check)
        #expect(voicing.attempts == 2)
        #expect(voicing.problems.count == 2)
        #expect(screen.text == "Mira Quickcoin: " + (voicing.planned ?? "?"))
        #expect(!screen.text.contains("2 gold,"))
        #expect(turn.falseClaims.isEmpty)
        #expect(turn.annotations[TurnVoicing.annotationKey] == "fellBack:check")
    }

    /// A voice that says "la" to everything: not the planned line's content, so the planned line is said.
    @Test func aLineWithNoContentIsNeverSaidAndThePlannedLineIs() async throws {
        let voice = MockLanguageModel { _ in .text("la") }
        let game = try Self.game(voice: voice)
        var checked = 0
        for line in ["talk to mira", "hello", "how much is the lantern?"] {
            let screen = Screen()
            await game.perform(line, output: screen.record)
            let turn = try #require(await game.lastTurn)
            let voicing = try #require(turn.recording.voicing, "\(line)")
            guard voicing.attempts > 0 else { continue }  // The voice was not asked (an authored beat, say).
            checked += 1
            #expect(voicing.outcome == .fellBack, "\(line): \(voicing)")
            #expect(voicing.reason == .check, "\(line)")
            #expect(voicing.problems.contains { $0.contains("it carries none of the planned line's words") }, "\(line)")
            #expect(screen.text == "Mira Quickcoin: " + (voicing.planned ?? "?"), "\(line)")
            #expect(!screen.text.hasSuffix(": la"), "\(line)")
        }
        #expect(checked >= 2, "the voice was asked for the greeting's answer and the price")
    }

    @Test func aVoiceThatMissesTheDeadlineIsDroppedAndThePlannedLineAnswers() async throws {
        let voice = Self.echoVoice(delay: .seconds(30))
        let game = try Self.game(voice: voice, deadline: .milliseconds(200))
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        #expect(voicing.outcome == .fellBack)
        #expect(voicing.reason == .deadline)
        #expect(screen.text == "Mira Quickcoin: " + (voicing.planned ?? "?"))
        #expect(turn.failure == nil)
        #expect(turn.recording.firstWordsMilliseconds != nil)
    }

    @Test func aVoiceThatFailsFallsBackAndSaysWhy() async throws {
        let voice = MockLanguageModel { _ in .failure(LanguageModelError.rateLimited(.init(debugDescription: "busy"))) }
        let game = try Self.game(voice: voice)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        #expect(voicing.reason == .error)
        #expect(voicing.attempts == 1)
        #expect(voicing.problems.count == 1)
        #expect(screen.text == "Mira Quickcoin: " + (voicing.planned ?? "?"))
        #expect(turn.failure == nil)
    }

    @Test func withTheVoiceSwitchedOffThePlannerAnswersAlone() async throws {
        let voice = Self.echoVoice()
        let game = try Self.game(voice: voice)
        await game.setVoiceEnabled(false)
        #expect(await game.isVoiceEnabled == false)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing?.reason == .planned)
        #expect(screen.text.contains("25 gold"))
        #expect(voice.requests.isEmpty)
    }

    // MARK: - Free

    @Test func inFreeModeTheServerPlansAndSpeaks() async throws {
        let voice = MockLanguageModel(replies: [.text("Hello, hello!"), .text("Twenty-five, friend.")])
        let game = try Self.game(voice: voice, mode: .free)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing?.outcome == .voiced)
        #expect(turn.recording.voicing?.mode == .free)
        #expect(screen.text == "Mira Quickcoin: Twenty-five, friend.")
        #expect(voice.requests.count == 2)
    }

    @Test func inFreeModeAReplyThatStatesSomethingFalseIsNeverShownAndThePlannerAnswers() async throws {
        let voice = MockLanguageModel(replies: [
            .text("Hello, hello!"), .text("The Brass Lantern is 5 gold, friend. A bargain!"),
        ])
        let game = try Self.game(voice: voice, mode: .free)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        let voicing = try #require(turn.recording.voicing)
        #expect(voicing.outcome == .fellBack)
        #expect(voicing.reason == .check)
        #expect(voicing.problems.count == 1)
        #expect(voicing.problems.first?.contains("5 gold") == true)
        #expect(voicing.problems.first?.contains("false claim: price") == true)
        // The player heard the planner's true line, and only that: nothing of the false reply, not even in part.
        #expect(screen.text.contains("25 gold"))
        #expect(!screen.text.contains("is 5 gold"))
        #expect(!screen.text.contains("bargain"))
        // The transcript holds the planner's answer once, the recording no false claim.
        let transcript = try #require(await game.conversations["mira"]?.session.transcript)
        #expect(!transcript.description.contains("bargain"))
        #expect(transcript.filter { if case .prompt = $0 { true } else { false } }.count == 2)
        #expect(Self.responseText(of: turn).contains("25 gold"))
        #expect(turn.recording.falseClaims.isEmpty)
        #expect(turn.annotations[TurnVoicing.annotationKey]?.hasPrefix("fellBack") == true)
    }

    @Test func inFreeModeATrueReplyIsShownSentenceBySentenceEachOnceItIsChecked() async throws {
        let voice = MockLanguageModel(replies: [
            .text("Hello, hello!"), .text("The Brass Lantern is 25 gold, friend. A bargain!"),
        ])
        let game = try Self.game(voice: voice, mode: .free)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing?.outcome == .voiced)
        #expect(screen.text == "Mira Quickcoin: The Brass Lantern is 25 gold, friend. A bargain!")
        #expect(
            screen.all.compactMap { if case .speech(let text) = $0 { text } else { nil } } == [
                "The Brass Lantern is 25 gold, friend.", " A bargain!",
            ])
    }

    @Test func inFreeModeALateServerIsDroppedAndThePlannerAnswers() async throws {
        let voice = MockLanguageModel(delay: .seconds(30)) { _ in .text("I am so glad you're here.") }
        let game = try Self.game(voice: voice, mode: .free, deadline: .milliseconds(200))
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing?.outcome == .fellBack)
        #expect(turn.recording.voicing?.reason == .deadline)
        #expect(screen.text.contains("25 gold"))
        #expect(!screen.text.contains("glad"))
        // The late reply reached nothing: the transcript holds the planner's answer, once.
        let transcript = try #require(await game.conversations["mira"]?.session.transcript)
        let prompts = transcript.filter { if case .prompt = $0 { true } else { false } }
        #expect(prompts.count == 2)
        #expect(!transcript.description.contains("glad"))
        #expect(Self.responseText(of: turn).contains("25 gold"))
    }

    @Test func inFreeModeAServerErrorIsAnsweredByThePlanner() async throws {
        let voice = MockLanguageModel { _ in .failure(LanguageModelError.rateLimited(.init(debugDescription: "busy"))) }
        let game = try Self.game(voice: voice, mode: .free)
        let screen = await Self.askLanternPrice(in: game)
        let turn = try #require(await game.lastTurn)
        #expect(turn.recording.voicing?.reason == .error)
        #expect(turn.failure == nil)
        #expect(screen.text.contains("25 gold"))
    }

    // MARK: - Records

    @Test func theVoicingRoundTripsThroughTheRecordingsJSON() async throws {
        let game = try Self.game(voice: Self.echoVoice())
        _ = await Self.askLanternPrice(in: game)
        let recording = try #require(await game.lastTurn?.recording)
        let read = try TurnRecording(jsonValue: try JSONValue(parsing: recording.jsonValue.jsonString()))
        #expect(read.voicing == recording.voicing)
        #expect(read.voicing != nil)
        let voicing = TurnVoicing(
            mode: .free, outcome: .fellBack, reason: .deadline, problems: ["late"], attempts: 1, completionTokens: 9,
            planner: "scripted@1")
        #expect(TurnVoicing(jsonValue: voicing.jsonValue) == voicing)
        #expect(TurnVoicing(jsonValue: ["mode": "loud", "outcome": "voiced"]) == nil)
    }

    @Test func theEvaluationVoicesOnlyTheCasesLineAndReportsTheFigures() async throws {
        let pack = try shippedPack()
        let voice = Self.echoVoice()
        let runner = EvalRunner(
            pack: pack,
            models: { npc, world in
                VoicedModel(
                    voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1),
                    firstWordsDeadline: .seconds(60))
            }, builtInRules: ScriptedModel.builtInRules, concurrency: 1)
        let cases = [
            EvalCase(
                id: "v1", npc: "mira", kind: "price", say: "how much is the lantern?", expect: .init(says: ["25"])),
            EvalCase(
                id: "v2", npc: "mira", kind: "price", before: ["hello"], say: "how much is the lantern?",
                expect: .init(says: ["Well now"])),
        ]
        let report = await runner.run(cases)
        #expect(report.overall.passed == 2, "\(report.text)")
        // One voice request per case: the greeting and the before line were the planner's.
        #expect(voice.requests.count == 2)
        let figures = try #require(report.voice)
        #expect(figures.turns == 2)
        #expect(figures.voiced == 2)
        #expect(figures.fallbackRate == 0)
        #expect(figures.firstWordsMedian != nil)
        #expect(report.text.contains("Voicing (grounded): 2 turns, 2 voiced, 0 regenerated, 0 fell back"))
        #expect(report.json["voice"]?["turns"]?.intValue == 2)
        #expect(report.json["results"]?[0]?["voicing"]?["outcome"]?.stringValue == "voiced")
    }

    @Test func percentilesAreNearestRank() {
        #expect(EvalReport.percentile(50, of: []) == nil)
        #expect(EvalReport.percentile(50, of: [1, 2, 3, 4]) == 2)
        #expect(EvalReport.percentile(95, of: (1...100).map(Double.init)) == 95)
        #expect(EvalReport.percentile(95, of: [7]) == 7)
    }
}

/// A thread-safe counter for mocks.
final class Counter: Sendable {
    private let value = Mutex(0)
    /// Adds one and returns the new count.
    func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}

extension VoicingTests {
    @Test func aReplayVoicesThePlannersLinesAsTheGameDoes() async throws {
        let pack = try shippedPack()
        // Recorded with the scripted model alone.
        let recorded = Game(state: pack.initialState) { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        _ = await Self.askLanternPrice(in: recorded)
        let recordings = await recorded.recordings
        #expect(recordings.count == 2)
        let voice = Self.echoVoice()
        let report = await Replay.run(recordings, pack: pack) { npc, world in
            VoicedModel(
                voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), firstWordsDeadline: .seconds(60))
        }
        #expect(report.turns.count == 2)
        for turn in report.turns {
            #expect(turn.recordedVoicing == nil)
            #expect(turn.replayedVoicing == "voiced")
            #expect(turn.replayedText == "Well now, " + turn.recordedText)
            #expect(turn.status == .changed)
        }
    }
}
