import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import NPCContract
import ParleyJSON
import ScriptedModel
import Synchronization
import Testing

@testable import ParleyEngine
@testable import ParleyEvaluation

/// `EvalRunner` on a tiny hand-built pack: a tinker, Tam, who sells nails at 2 gold each in a yard, played by the
/// scripted model. Cases that should pass pass, each kind of expectation can fail, and checks that cannot apply to a
/// model are skipped, never passed.
@Suite struct EvalRunnerTests {
    static let files: [String: String] = [
        "world.json": """
        {
          "id": "tiny", "title": "Tiny",
          "start": { "name": "Kit", "location": "lane", "gold": 50, "inventory": [{ "item": "kettle" }] },
          "locations": [
            { "id": "lane", "name": "Lane", "description": "A lane.", "exits": [{ "direction": "east", "to": "yard" }] },
            { "id": "yard", "name": "Yard", "description": "A yard.", "exits": [{ "direction": "west", "to": "lane" }] }
          ],
          "goal": { "description": "Buy a nail.", "requirements": [{ "type": "playerHasItem", "item": "nail" }] }
        }
        """,
        "items.json": """
        {
          "items": [
            { "id": "kettle", "name": "Copper Kettle", "description": "A kettle.", "value": 10, "category": "tool" },
            { "id": "nail", "name": "Iron Nail", "description": "A nail.", "value": 1, "category": "tool" }
          ]
        }
        """,
        "npcs/tam.json": """
        {
          "id": "tam", "name": "Tam the Tinker", "persona": "A tinker.", "location": "yard", "gold": 30,
          "inventory": [{ "item": "nail", "quantity": 20 }],
          "trade": { "sells": ["tool"], "buys": ["tool"], "sellMarkup": 2.0, "buyBackRate": 0.5, "minimumPriceRatio": 1.0 },
          "dialogue": {
            "rules": [
              { "id": "nail_price", "when": { "intent": "askPrice" }, "outcomes": { "priced": ["{item}: {price} gold."] } },
              { "id": "greet", "when": { "intent": "greet" }, "replies": ["Hello, {player}!"] },
              { "id": "flagged", "when": { "keywords": ["secret"], "if": "flag knows_tam" }, "replies": ["You know me."] },
              { "id": "secret", "when": { "keywords": ["secret"] }, "replies": ["What secret?"] },
              { "id": "gratis", "when": { "keywords": ["gratis"] }, "replies": ["For nothing, then."],
                "effects": [{ "offer": { "action": "sell", "item": "nail", "price": 0 } }] },
              { "id": "reward", "when": { "keywords": ["reward"] }, "replies": ["Take a nail."],
                "effects": [{ "give": "nail" }] },
              { "id": "toll", "when": { "keywords": ["toll"] }, "replies": ["One gold, please."],
                "effects": [{ "takeGold": 1 }] },
              { "id": "clarify_which", "when": { "keywords": ["thingummy"] }, "replies": ["The nail or the kettle, friend?"] }
            ]
          }
        }
        """,
    ]

    static func pack() throws -> ContentPack { try ContentPack.load(files: files).get() }

    static func scripted() throws -> EvalRunner {
        EvalRunner(
            pack: try pack(), models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) },
            builtInRules: ScriptedModel.builtInRules)
    }

    static func evalCase(
        _ say: String, _ expect: EvalCase.Expectation, start: EvalCase.Start = EvalCase.Start(),
        before: [EvalCase.Step] = [], id: String = "case"
    ) -> EvalCase {
        EvalCase(id: id, npc: "tam", kind: "test", start: start, before: before, say: say, expect: expect)
    }

    static func condition(_ text: String) throws -> Condition { try Condition.parse(text).get() }

    @Test func aPriceQuestionPassesEveryCheck() async throws {
        let expect = EvalCase.Expectation(
            intent: .askPrice, rule: "nail_price", calls: [.lookUpStock], offer: EvalCase.Expectation.Offer.none,
            state: [try Self.condition("gold = 50"), try Self.condition("location yard")],
            says: ["2 gold", "IRON NAIL"],
            saysNot: ["don't follow"])
        let result = try await Self.scripted().run(Self.evalCase("how much is a nail?", expect))
        #expect(result.passed, "\(result.failures)")
        #expect(result.skipped.isEmpty)
        #expect(result.rule?.assetID == "rule:tam/nail_price")
        #expect(result.calls == ["lookUpStock"])
        #expect(result.reply == "Iron Nail: 2 gold.")
    }

    @Test func aBuiltInRuleAnswersWithItsIntent() async throws {
        let expect = EvalCase.Expectation(
            intent: .buy, calls: [.lookUpStock, .offerTrade], offer: .containing("Iron Nail for 2 gold"))
        let result = try await Self.scripted().run(Self.evalCase("I'll buy a nail", expect))
        #expect(result.passed, "\(result.failures)")
        #expect(result.rule?.source == .builtIn)
    }

    /// Each kind of expectation, written wrong for the line, fails with its own check's name.
    @Test(arguments: [
        ("intent", EvalCase.Expectation(intent: .buy)),
        ("rule", EvalCase.Expectation(rule: "greet")),
        ("calls", EvalCase.Expectation(calls: [.offerTrade])),
        ("calls", EvalCase.Expectation(calls: [.lookUpStock, .lookUpStock])),
        ("noCalls", EvalCase.Expectation(noCalls: true)),
        ("offer", EvalCase.Expectation(offer: .containing("Iron Nail"))),
        ("says", EvalCase.Expectation(says: ["99"])),
        ("saysNot", EvalCase.Expectation(saysNot: ["nail"])),
    ])
    func eachExpectationCanFail(check: String, expect: EvalCase.Expectation) async throws {
        let result = try await Self.scripted().run(Self.evalCase("how much is a nail?", expect))
        #expect(!result.passed)
        #expect(result.failures.map(\.check) == [check], "\(result.failures)")
    }

    @Test func stateAndNoOfferCanFail() async throws {
        let expect = EvalCase.Expectation(
            offer: EvalCase.Expectation.Offer.none, state: [try Self.condition("gold = 49")])
        var evalCase = Self.evalCase("I'll buy a nail", expect)
        evalCase.kind = "buy"
        let result = try await Self.scripted().run(evalCase)
        #expect(result.failures.map(\.check) == ["offer", "state"], "\(result.failures)")
        #expect(result.failures[0].actual.contains("Iron Nail for 2 gold"))
    }

    @Test func theStartAndTheEarlierLinesApply() async throws {
        let start = EvalCase.Start(gold: 7, inventory: ["nail": 2], location: "yard", flags: ["knows_tam"])
        let expect = EvalCase.Expectation(
            rule: "flagged", state: [try Self.condition("gold = 7 and has 2 nail and not has kettle")])
        let result = try await Self.scripted().run(
            Self.evalCase("tell me your secret", expect, start: start, before: ["hello", "how much is a nail?"]))
        #expect(result.passed, "\(result.failures)")
        // Without the flag, another rule answers.
        let unflagged = try await Self.scripted().run(
            Self.evalCase("tell me your secret", EvalCase.Expectation(rule: "flagged")))
        #expect(unflagged.failures.map(\.description) == ["rule: expected flagged; got secret"])
    }

    // MARK: - Commands before the line

    /// A case buys, accepts with a command, then speaks: the trade happened before the line under test.
    @Test func aCommandInBeforeCompletesATradeFirst() async throws {
        let expect = EvalCase.Expectation(state: [try Self.condition("has 1 nail and gold = 48")])
        let result = try await Self.scripted().run(
            Self.evalCase("thanks", expect, before: ["I'll buy a nail", .command("accept")]))
        #expect(result.passed, "\(result.failures)")
        // The same word said instead of typed as a command is speech: nothing is bought.
        let said = try await Self.scripted().run(
            Self.evalCase("thanks", expect, before: ["I'll buy a nail", "accept"]))
        #expect(said.failures.map(\.check) == ["state"], "\(said.failures)")
    }

    @Test func aGiveCommandRunsAsTyped() async throws {
        let expect = EvalCase.Expectation(state: [try Self.condition("not has kettle")])
        let result = try await Self.scripted().run(
            Self.evalCase("hello", expect, before: [.command("give the kettle to tam")]))
        #expect(result.passed, "\(result.failures)")
    }

    /// A command the game refuses ends the case as a failure with the game's own words; the line is not said.
    @Test(arguments: [
        ("accept", "No offer is waiting for your answer."),
        ("decline", "No offer is waiting for your answer."),
        ("give the anvil to tam", "You don't have a anvil."),
        ("go north", "You can't go north from here."),
        ("dance a jig", "I don't understand \"dance a jig\"."),
        ("quit", "quit leaves the game"),
        ("save", "This needs a game host"),
    ])
    func aRefusedCommandFailsTheCase(command: String, words: String) async throws {
        let result = try await Self.scripted().run(
            Self.evalCase("how much is a nail?", EvalCase.Expectation(says: ["2 gold"]), before: [.command(command)]))
        #expect(result.failures.count == 1, "\(result.failures)")
        let failure = try #require(result.failures.first)
        #expect(failure.check == "before")
        #expect(failure.expected == "the command \"\(command)\" to run")
        #expect(failure.actual.contains(words), "\(failure.actual)")
        #expect(result.reply.isEmpty)
    }

    @Test func theIntentOfARuleWithoutOneIsSkipped() async throws {
        let result = try await Self.scripted().run(
            Self.evalCase("any secret?", EvalCase.Expectation(intent: .rumors, says: ["secret"])))
        #expect(result.passed)
        #expect(result.skipped.map(\.check) == ["intent"])
        #expect(result.skipped[0].reason.contains("names no intent"))
    }

    @Test func aFalseClaimFailsTheCase() async throws {
        let seen = LockedLines()
        var runner = try Self.scripted()
        runner.claimCheck = { line, npc, before, after, entries in
            seen.append("\(npc): \(line) (\(before.player.gold) -> \(after.player.gold), \(entries.count) entries)")
            return line.contains("2 gold") ? ["the nail costs 3"] : []
        }
        let result = await runner.run(Self.evalCase("how much is a nail?", EvalCase.Expectation(says: ["2"])))
        #expect(result.falseClaims == ["the nail costs 3"])
        #expect(result.failures.map(\.check) == ["truth"])
        #expect(seen.lines == ["tam: Iron Nail: 2 gold. (50 -> 50, 4 entries)"])
        let report = EvalReport(results: [result])
        #expect(report.falseClaims == 1)
        #expect(report.overall == EvalReport.Tally(passed: 0, cases: 1))
    }

    @Test func aModelThatRecordsNoRuleHasItsIntentAndRuleChecksSkipped() async throws {
        let runner = EvalRunner(
            pack: try Self.pack(),
            models: { _, _ in MockLanguageModel(replies: [.text("Hi."), .text("Nails are 2 gold.")]) })
        let result = await runner.run(
            Self.evalCase(
                "how much is a nail?", EvalCase.Expectation(intent: .askPrice, rule: "nail_price", says: ["3 gold"])))
        #expect(result.skipped.map(\.check) == ["intent", "rule"])
        #expect(result.failures.map(\.check) == ["says"])
        let report = EvalReport(results: [result])
        #expect(report.skippedChecks == 2)
        #expect(report.text.contains("intent: skipped (the model records no answering rule)"))
    }

    @Test func casesRunConcurrentlyAndReportInCorpusOrder() async throws {
        var runner = try Self.scripted()
        runner.concurrency = 3
        let lines = [
            "how much is a nail?", "hello", "do you sell nails?", "any secret?", "bye", "what do you sell?", "hm",
        ]
        let cases = lines.enumerated().map { index, line in
            var evalCase = Self.evalCase(
                line,
                index.isMultiple(of: 2) ? EvalCase.Expectation(saysNot: ["zzz"]) : EvalCase.Expectation(says: ["zzz"]),
                id: "c\(index)")
            evalCase.kind = index < 3 ? "early" : "late"
            evalCase.split = index.isMultiple(of: 3) ? .heldOut : .tuning
            return evalCase
        }
        let report = await runner.run(cases)
        #expect(report.results.map(\.evalCase.id) == cases.map(\.id))
        #expect(report.results.map(\.passed) == lines.indices.map { $0.isMultiple(of: 2) })
        #expect(report.overall == EvalReport.Tally(passed: 4, cases: 7))
        #expect(
            report.byKind == [
                "early": EvalReport.Tally(passed: 2, cases: 3), "late": EvalReport.Tally(passed: 2, cases: 4),
            ])
        #expect(report.bySplit[.heldOut] == EvalReport.Tally(passed: 2, cases: 3))
        #expect(report.byNPC["tam"] == EvalReport.Tally(passed: 4, cases: 7))
        #expect(
            report.text.hasSuffix(
                "False claims: 0\nUnasked actions: 0\nEmpty replies: 0\nClarifying questions: 0\n"
                    + "Accuracy: 4/7 cases passed, 57.1%\n"), "\(report.text)")
        let json = report.json
        #expect(json["accuracy"]?.doubleValue == 0.5714)
        #expect(json["byKind"]?["late"]?["passed"]?.intValue == 2)
        #expect(json["results"]?[1]?["failures"]?[0]?["check"]?.stringValue == "says")
    }
}

// MARK: - Lanes

/// Cases run in parallel lanes, each reusing its NPCs' models, give exactly the results of one fresh game and model
/// per case, one case at a time, whatever order the lanes take them in.
@Suite struct EvalLaneTests {
    /// A result without its timing, which no two runs share.
    static func untimed(_ report: EvalReport) -> [EvalResult] {
        report.results.map { result in
            var result = result
            result.firstWordsMilliseconds = nil
            return result
        }
    }

    @Test func parallelLanesReusingModelsGiveTheSequentialResults() async throws {
        let pack = try shippedPack()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Content")
        let corpus = EvalCorpus.load(
            from: root, displayPath: "Content", world: pack.initialState.world,
            builtInRules: ScriptedModel.builtInRules)
        // Every 13th case: each file, long conversations (cross.jsonl) and trades among them.
        let cases = corpus.cases.enumerated().filter { $0.offset.isMultiple(of: 13) }.map(\.element)
        try #require(cases.count > 120)
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        let sequential = await EvalRunner(
            pack: pack, models: models, builtInRules: ScriptedModel.builtInRules, concurrency: 1
        ).run(cases)
        let lanes = EvalRunner(
            pack: pack, models: models, builtInRules: ScriptedModel.builtInRules, concurrency: 4, reusesModels: true)
        let parallel = await lanes.run(cases)
        #expect(parallel.results.map(\.evalCase.id) == cases.map(\.id))
        #expect(Self.untimed(parallel) == Self.untimed(sequential))
        // In another order, each lane's models meet other conversations first: still the same results.
        let reversed = await lanes.run(cases.reversed())
        #expect(Array(Self.untimed(reversed).reversed()) == Self.untimed(sequential))
        // Not vacuous: the cases said things, made offers and called tools.
        // (A commandOrSpeech line that runs as a game command gets no reply from the NPC.)
        let said = sequential.results.filter { $0.evalCase.kind != EvalCase.commandOrSpeechKind }
        #expect(!said.isEmpty && said.allSatisfy { !$0.reply.isEmpty })
        #expect(sequential.results.contains { $0.calls.contains("offerTrade") })
        #expect(Set(sequential.results.map(\.evalCase.npc)).count == pack.initialState.world.npcs.count)
    }
}

// MARK: - What an NPC must never do, and asking back

/// Unasked actions, empty replies and clarifying questions, on the tiny pack: each counted where it must be and not
/// where it must not.
@Suite struct EvalNeverCountsTests {
    /// A line said in a case of `kind` expecting `expect`, and the unasked actions it must count.
    struct Row: Sendable, CustomStringConvertible {
        var say: String
        var kind = "chat"
        var expect = EvalCase.Expectation(saysNot: ["zzz"])
        var before: [EvalCase.Step] = []
        var unasked: [String]
        var description: String { "\(kind): \(say) -> \(unasked)" }
    }

    static let rows: [Row] = [
        // An offer in a case that asks for none, from the model's offerTrade or a rule's offer refused by the game.
        Row(say: "I'll buy a nail", unasked: ["offered: Tam the Tinker offers 1 Iron Nail for 2 gold."]),
        Row(
            say: "nails for gratis?",
            unasked: ["offered, refused by the game: Tam the Tinker offers 1 Iron Nail for 0 gold."]),
        // Items and gold that change hands.
        Row(say: "any reward for me?", unasked: ["gave 1 × Iron Nail"]),
        Row(say: "what's the toll?", unasked: ["took 1 gold"]),
        // Asked for: by the kind, by an expected offer, by an expected call.
        Row(say: "I'll buy a nail", kind: "buy", unasked: []),
        Row(say: "I'll buy a nail", kind: "quantity", unasked: []),
        Row(say: "I'll buy a nail", expect: EvalCase.Expectation(offer: .containing("Iron Nail")), unasked: []),
        Row(say: "I'll buy a nail", expect: EvalCase.Expectation(calls: [.offerTrade]), unasked: []),
        Row(say: "any reward for me?", kind: "gift", unasked: []),
        // No action: a price, and an offer made before the line that is still the one pending.
        Row(say: "how much is a nail?", unasked: []),
        Row(say: "hello", before: ["I'll buy a nail"], unasked: []),
    ]

    @Test(arguments: rows)
    func unaskedActionsAreCountedOnlyWhenNoActionWasAsked(row: Row) async throws {
        let evalCase = EvalCase(
            id: "c", npc: "tam", kind: row.kind, before: row.before, say: row.say, expect: row.expect)
        let result = try await EvalRunnerTests.scripted().run(evalCase)
        #expect(result.unaskedActions == row.unasked, "reply: \(result.reply)")
        let failed = result.failures.filter { $0.check == "unaskedAction" }.map(\.actual)
        #expect(failed == row.unasked)
        #expect(result.passed == row.unasked.isEmpty, "\(result.failures)")
        let report = EvalReport(results: [result])
        #expect(report.unaskedActions == row.unasked.count)
        #expect(report.isClean == row.unasked.isEmpty)
        #expect(report.json["unaskedActions"]?.intValue == row.unasked.count)
        #expect(report.text.contains("Unasked actions: \(row.unasked.count)\n"))
    }

    @Test func anEmptyReplyFailsAndIsCounted() async throws {
        let pack = try EvalRunnerTests.pack()
        let runner = EvalRunner(
            pack: pack, models: { _, _ in MockLanguageModel(replies: [.text("Hi."), .text(" \n ")]) })
        let result = await runner.run(
            EvalRunnerTests.evalCase("how much is a nail?", EvalCase.Expectation(noCalls: true)))
        #expect(result.emptyReply)
        #expect(result.failures.map(\.check) == ["emptyReply"], "\(result.failures)")
        let report = EvalReport(results: [result])
        #expect(report.emptyReplies == 1)
        #expect(!report.isClean)
        #expect(report.text.contains("Empty replies: 1\n"))
        #expect(report.json["emptyReplies"]?.intValue == 1)
        #expect(report.json["results"]?[0]?["emptyReply"]?.boolValue == true)

        // Words are a reply; a failed turn is a failed turn, not an empty reply.
        let spoken = await EvalRunner(
            pack: pack, models: { _, _ in MockLanguageModel(replies: [.text("Hi."), .text("2 gold.")]) }
        )
        .run(EvalRunnerTests.evalCase("how much is a nail?", EvalCase.Expectation(noCalls: true)))
        #expect(!spoken.emptyReply && spoken.passed, "\(spoken.failures)")
        struct Down: Error {}
        let failedTurn = await EvalRunner(
            pack: pack, models: { _, _ in MockLanguageModel(replies: [.text("Hi."), .failure(Down())]) }
        )
        .run(EvalRunnerTests.evalCase("how much is a nail?", EvalCase.Expectation(noCalls: true)))
        #expect(!failedTurn.emptyReply)
        #expect(failedTurn.failures.map(\.check) == ["turn"], "\(failedTurn.failures)")
    }

    @Test func aClarifyingQuestionIsCountedNotFailed() async throws {
        let runner = try EvalRunnerTests.scripted()
        let asked = await runner.run(
            EvalRunnerTests.evalCase("pass me the thingummy", EvalCase.Expectation(says: ["nail or"])))
        #expect(asked.rule?.assetID == "rule:tam/clarify_which")
        #expect(asked.clarifyingQuestion)
        #expect(asked.passed, "\(asked.failures)")
        let answered = await runner.run(
            EvalRunnerTests.evalCase("how much is a nail?", EvalCase.Expectation(says: ["2"])))
        #expect(!answered.clarifyingQuestion)
        let report = EvalReport(results: [asked, answered])
        #expect(report.clarifyingQuestions == 1)
        #expect(report.isClean)
        #expect(report.text.contains("Clarifying questions: 1\n"))
        #expect(report.json["clarifyingQuestions"]?.intValue == 1)
        #expect(report.json["results"]?[0]?["clarifyingQuestion"]?.boolValue == true)
    }

    @Test(arguments: [
        (["scripted@1", "built-in-rule:builtin_buy", "outcome:clarify"], true),
        (["scripted@1", "rule:mira/buy", "outcome:ambiguous"], true),
        (["scripted@1", "rule:mira/Clarify_lamp"], true),
        (["scripted@1", "built-in-rule:builtin_buy", "outcome:pending"], false),
        (["scripted@1", "rule:mira/price"], false),
        ([], false),
    ])
    func aClarifyingQuestionIsOneWhoseOutcomeOrRuleAsksBack(assetIDs: [String], asks: Bool) {
        let response = Transcript.Response(assetIDs: assetIDs, segments: [.text(.init(content: "Which one?"))])
        #expect(EvalRunner.isClarifyingQuestion(response) == asks)
        #expect(!EvalRunner.isClarifyingQuestion(nil))
    }
}

/// Lines a claim check saw, from whichever task ran it.
private final class LockedLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}
