import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import Synchronization

/// Runs an evaluation corpus (`EvalCase`s) against a model and reports what each case got right and wrong.
///
/// Each case runs in a fresh `Game` from the pack's start with the case's `start` applied: the player is moved to
/// the NPC (unless `start.location` says where), talks to it (the greeting turn is not under test), does the case's
/// `before` steps in order (lines said to the NPC, and game commands such as `accept`, run as the player types them in
/// `parley play`), then says its `say` line; then the case's expectations are checked against that last turn. What
/// the `before` steps lead to is not checked, but a command the game refuses (a problem, or `accept` with no offer
/// waiting) ends the case as a failure of the `before` check, with the game's words.
///
/// Besides the case's own checks, every case is checked for what an NPC must never do (each a failure of its own):
/// a false claim (`truth`), an empty reply (`emptyReply`), and an **unasked action** (`unaskedAction`). The NPC acted
/// in the turn under test when, during it, it made an offer (the offer pending from it afterwards is a new one, or
/// the game refused an offer it made, from its `offerTrade` or a rule's `offer` effect), gave the player an item or
/// gold (`received`, `receivedGold`), took an item or gold from the player (`gave`, `paidGold`: a gift accepted, a
/// rule's `take`), or traded. The action was asked for when the case expects one (`expectsAction(_:)`): its
/// `expect.offer` is a text, its `expect.calls` name `offerTrade`, `giveItem` or `acceptGift`, or its kind is a trade
/// request (`tradeRequestKinds`: `buy`, `sell`, `haggle`, `quantity`, `gift`). Otherwise each action is an unasked
/// one. A reply that asks the player back is counted (`isClarifyingQuestion(_:)`), not failed.
///
/// Cases run `concurrency` at a time, each lane of cases in turn on its own tasks; the report keeps corpus order, and
/// a case's result does not depend on the lane or the order it ran in. The pack's world is read once for all cases:
/// its claim check (`ClaimChecker`) is built once and shared by every game, and with `reusesModels` each lane makes an
/// NPC's model once and gives it to every game of that lane that talks to the NPC.
///
/// With a server (`VoicedModel`), the greeting and the `before` steps are answered by the planner alone
/// (`Game.setVoiceEnabled(_:)`), so every model answers the case's line in the same situation; only that line goes
/// to the server, and the report gives its voicing figures (`EvalReport.voice`).
///
/// Checks that cannot apply are reported as skipped, never as passed: `intent` and `rule` need a model that
/// records the dialogue rule that answered (`AnsweringRule`, the scripted model), and `intent` a rule that names
/// intents. `says` and `saysNot` apply to every model.
///
/// ```swift
/// let runner = EvalRunner(pack: pack, models: provider, builtInRules: ScriptedModel.builtInRules)
/// let report = await runner.run(corpus.cases)
/// print(report.text, terminator: "")
/// ```
public struct EvalRunner: Sendable {
    /// Finds false claims in an NPC's reply: the reply's text, the NPC, the game before and after the turn, and the
    /// turn's transcript entries (its prompt first). Returns a description of each false claim; none is `[]`.
    public typealias ClaimCheck =
        @Sendable (
            _ line: String, _ npc: NPCID, _ stateBefore: GameState, _ stateAfter: GameState,
            _ turnEntries: [Transcript.Entry]
        ) -> [String]

    /// The kinds of case whose line asks the NPC to trade or to take a gift, so that an action in answer is asked
    /// for: `buy`, `sell`, `haggle`, `quantity` (buying several: "I'll take five trout") and `gift`.
    public static let tradeRequestKinds: Set<String> = ["buy", "sell", "haggle", "quantity", "gift"]

    /// The content pack the cases run in.
    public var pack: ContentPack
    /// Makes each NPC's model.
    public var models: Game.ModelProvider
    /// The rules the model answers with besides the NPCs' own (the scripted model's built-in rules), to find the
    /// intents of a built-in answering rule; empty for models that have none.
    public var builtInRules: DialogueRules
    /// How many cases run at once, at least 1.
    public var concurrency: Int
    /// Whether each lane of cases makes an NPC's model once and reuses it in all its games, rather than making one
    /// per game. Right for models that answer from the transcript they are given and keep nothing else between
    /// requests that changes an answer (the scripted model, `VoicedModel`); wrong for a mock that replays a list of
    /// replies. `false` by default.
    public var reusesModels: Bool
    /// Finds more false claims in each reply, besides the game's own claim check (`ClaimChecker`, which every turn
    /// runs and records); a case with any fails.
    public var claimCheck: ClaimCheck
    /// The lines under test as a speech recogniser heard them, by case id: such a case's line is said as spoken
    /// (`Game.say(_:to:output:)` with the `HeardSpeech`: its text instead of the case's `say`, under its acting bar),
    /// and its result gives the calls the game refused because it was heard too unsurely to act on
    /// (`EvalResult.unclearSpeechRefusals`). A case that checks `runs` is typed as ever. Empty by default.
    public var heard: [String: HeardSpeech] = [:]

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - pack: The content pack.
    ///   - models: Makes each NPC's model.
    ///   - builtInRules: The model's own rules, besides the NPCs'.
    ///   - concurrency: How many cases run at once (4 by default, at least 1).
    ///   - reusesModels: Whether a lane of cases reuses each NPC's model (see `reusesModels`); `false` by default.
    ///   - claimCheck: Finds more false claims in a reply than the game's claim check; none by default.
    public init(
        pack: ContentPack, models: @escaping Game.ModelProvider, builtInRules: DialogueRules = DialogueRules(),
        concurrency: Int = 4, reusesModels: Bool = false,
        claimCheck: @escaping ClaimCheck = { _, _, _, _, _ in [] }
    ) {
        self.pack = pack
        self.models = models
        self.builtInRules = builtInRules
        self.concurrency = max(1, concurrency)
        self.reusesModels = reusesModels
        self.claimCheck = claimCheck
    }

    /// Runs cases, `concurrency` at a time.
    ///
    /// - Parameter cases: The cases, in corpus order.
    /// - Returns: The report, its results in the cases' order.
    public func run(_ cases: [EvalCase]) async -> EvalReport {
        let checker = ClaimChecker(world: pack.initialState.world)
        let next = EvalLane.Counter()
        var results = [EvalResult?](repeating: nil, count: cases.count)
        await withTaskGroup(of: [(Int, EvalResult)].self) { group in
            for _ in 0..<min(concurrency, cases.count) {
                group.addTask {
                    // A lane takes the next case until none is left.
                    let lane = EvalLane(runner: self, claimChecker: checker)
                    var done: [(Int, EvalResult)] = []
                    while case let index = next.take(), index < cases.count {
                        done.append((index, await run(cases[index], in: lane)))
                    }
                    return done
                }
            }
            for await done in group {
                for (index, result) in done { results[index] = result }
            }
        }
        return EvalReport(results: results.compactMap { $0 })
    }

    /// Runs one case in a fresh game.
    ///
    /// - Parameter evalCase: The case.
    /// - Returns: Its result.
    public func run(_ evalCase: EvalCase) async -> EvalResult {
        await run(evalCase, in: EvalLane(runner: self, claimChecker: ClaimChecker(world: pack.initialState.world)))
    }

    /// Runs one case in a fresh game of a lane, with the lane's models and claim check.
    func run(_ evalCase: EvalCase, in lane: EvalLane) async -> EvalResult {
        guard let npc = pack.initialState.world.npcs[evalCase.npc] else {
            let failure = EvalResult.Failure(
                check: "turn", expected: "an NPC \"\(evalCase.npc)\"", actual: "the pack has none")
            return EvalResult(evalCase: evalCase, failures: [failure])
        }
        let game = Game(state: startingState(of: evalCase, npc: npc), models: lane.models)
        await game.share(lane.claimChecker)
        // The setup turns are the planner's alone, so that every model answers the case's line in the same situation.
        await game.setVoiceEnabled(false)
        let ignored = Heard()
        await game.perform(.talk(npc.name), output: ignored.record)
        for step in evalCase.before {
            switch step {
            case .say(let line):
                await game.perform(.say(line), output: ignored.record)
            case .command(let line):
                if let refusal = await Self.run(command: line, in: game) {
                    let failure = EvalResult.Failure(
                        check: "before", expected: "the command \"\(line)\" to run", actual: refusal)
                    return EvalResult(evalCase: evalCase, failures: [failure])
                }
            }
        }

        let before = await TurnMarks(game, npc: npc.id)
        let heard = Heard()
        await game.setVoiceEnabled(true)
        let ran = await Self.performLineUnderTest(
            of: evalCase, in: game, heard: self.heard[evalCase.id], output: heard.record)
        let stateAfter = await game.state
        let recordings = await game.recordings.dropFirst(before.recordings).filter { $0.npc == npc.id }
        let entries = recordings.flatMap(\.entries)
        let reply = heard.speech
        let calls = entries.flatMap { entry -> [String] in
            guard case .toolCalls(let calls) = entry else { return [] }
            return calls.map(\.toolName)
        }
        let rule = entries.reversed().lazy.compactMap { entry -> AnsweringRule? in
            guard case .response(let response) = entry else { return nil }
            return response.answeringRule
        }.first
        let pending = await game.pendingOffers.values.map(\.summary).sorted()

        var checks = Checks(expect: evalCase.expect)
        checks.rule(rule, of: npc, builtInRules: builtInRules)
        checks.calls(calls)
        checks.offer(pending, reply: reply)
        checks.state(stateAfter, npc: npc.id)
        checks.words(reply)
        for problem in heard.problems where Self.problemsCount(after: ran) {
            checks.fail("turn", "no problem", problem)
        }
        checks.failures += Self.runsFailures(expected: evalCase.expect.runs, command: ran)
        // What the game's claim check found at each of the case's turns, and anything the caller's check adds.
        let falseClaims =
            recordings.flatMap(\.falseClaims) + claimCheck(reply, npc.id, before.state, stateAfter, entries)
        for claim in falseClaims { checks.fail("truth", "no false claim", claim) }
        // A line that ran as a game command (`give bread to mira`) acted for the player; only what the NPC did unasked
        // in its answer to words counts.
        let saidToTheNPC = Self.problemsCount(after: ran)
        let unasked =
            Self.expectsAction(evalCase) || !saidToTheNPC ? [] : await before.actions(since: game, npc: npc.id)
        for action in unasked { checks.fail("unaskedAction", "no action the case did not ask for", action) }
        let emptyReply = saidToTheNPC && heard.problems.isEmpty && reply.allSatisfy(\.isWhitespace)
        if emptyReply { checks.fail("emptyReply", "a reply", "nothing said") }
        var result = EvalResult(
            evalCase: evalCase, failures: checks.failures, skipped: checks.skipped, reply: reply, rule: rule,
            calls: calls, falseClaims: falseClaims)
        result.unaskedActions = unasked
        result.unclearSpeechRefusals = recordings.flatMap(\.unclearSpeechRefusals)
        result.emptyReply = emptyReply
        let response = entries.last { if case .response = $0 { true } else { false } }
        if case .response(let answer)? = response { result.clarifyingQuestion = Self.isClarifyingQuestion(answer) }
        let answered = recordings.last { $0.responseText != nil } ?? recordings.last
        result.voicing = answered?.voicing
        result.firstWordsMilliseconds = answered?.firstWordsMilliseconds
        return result
    }

    /// Whether a case expects the NPC to act in its turn under test: its `expect.offer` is a text, its
    /// `expect.calls` name a tool that acts (`offerTrade`, `giveItem`, `acceptGift`), or its kind is a trade request
    /// (`tradeRequestKinds`). An action in a case that expects none is an unasked action.
    ///
    /// - Parameter evalCase: The case.
    /// - Returns: `true` when an action may follow the case's line.
    public static func expectsAction(_ evalCase: EvalCase) -> Bool {
        if case .containing? = evalCase.expect.offer { return true }
        if evalCase.expect.calls.contains(where: { [.offerTrade, .giveItem, .acceptGift].contains($0) }) {
            return true
        }
        return tradeRequestKinds.contains(evalCase.kind)
    }

    /// Whether a reply asks the player back what they meant: the outcome the model recorded for it asks back
    /// (`AnsweringOutcome.asksBack`: `outcome:clarify`, `ambiguous`, `noItem`), or the rule that answered is named
    /// for it (its asset id, `built-in-rule:<id>` or `rule:<npc>/<id>`, contains `clarify`, ignoring case).
    ///
    /// - Parameter response: The response entry of the turn, if there was one.
    /// - Returns: `true` for a clarifying question; `false` for any other reply, or none.
    public static func isClarifyingQuestion(_ response: Transcript.Response?) -> Bool {
        guard let response else { return false }
        if response.answeringOutcome?.asksBack == true { return true }
        return response.answeringRule?.assetID.range(of: "clarify", options: .caseInsensitive) != nil
    }

    /// Runs a `before` command as the player types it, in the pack's language, read as a command even while talking
    /// (`GameCommand.parse` with `talking: false`, so words that are no command are not said to the NPC).
    ///
    /// - Returns: Why the game refused it, in its words; `nil` when it ran.
    static func run(command line: String, in game: Game) async -> String? {
        let command = GameCommand.parse(line, talking: false, scope: CommandScope(state: await game.state))
        if command == .quit { return "quit leaves the game; a case cannot go on after it" }
        let offersBefore = await game.pendingOffers.count
        let heard = Heard()
        await game.perform(command, output: heard.record)
        if !heard.problems.isEmpty { return heard.problems.joined(separator: " ") }
        // With no offer to answer, the game says so as narration, not as a problem: the command did nothing.
        if command == .accept || command == .decline, await game.pendingOffers.count >= offersBefore {
            return heard.narration.isEmpty ? "no offer was answered" : heard.narration.joined(separator: " ")
        }
        return nil
    }

    /// The pack's start with the case's overrides: gold, inventory, flags, and the place (the NPC's by default).
    func startingState(of evalCase: EvalCase, npc: NPC) -> GameState {
        let state = pack.initialState
        var player = state.player
        let start = evalCase.start
        if let gold = start.gold { player.gold = gold }
        if let inventory = start.inventory { player.inventory = inventory }
        player.location = start.location ?? npc.location
        var story = state.story
        story.flags.formUnion(start.flags)
        return GameState(world: state.world, player: player, story: story)
    }
}

/// The checks of one case's expectations against what happened, collecting failures and skipped checks.
private struct Checks {
    let expect: EvalCase.Expectation
    var failures: [EvalResult.Failure] = []
    var skipped: [EvalResult.Skipped] = []

    init(expect: EvalCase.Expectation) { self.expect = expect }

    mutating func fail(_ check: String, _ expected: String, _ actual: String) {
        failures.append(EvalResult.Failure(check: check, expected: expected, actual: actual))
    }

    mutating func skip(_ check: String, _ reason: String) {
        skipped.append(EvalResult.Skipped(check: check, reason: reason))
    }

    /// `intent` and `rule`: the answering rule's `when.intent` and id.
    mutating func rule(_ answering: AnsweringRule?, of npc: NPC, builtInRules: DialogueRules) {
        guard expect.intent != nil || expect.rule != nil else { return }
        guard let answering else {
            let reason = "the model records no answering rule"
            if expect.intent != nil { skip("intent", reason) }
            if expect.rule != nil { skip("rule", reason) }
            return
        }
        if let rule = expect.rule, rule != answering.id {
            fail("rule", rule, "\(answering.id)")
        }
        guard let intent = expect.intent else { return }
        let found =
            switch answering.source {
            case .npc: answering.rule(of: npc)
            case .builtIn: builtInRules.rules.first { $0.id == answering.id }
            }
        guard let found else {
            return skip("intent", "the answering rule \(answering) is not among the rules known to the evaluation")
        }
        guard !found.when.intents.isEmpty else {
            return skip("intent", "the answering rule \(answering.id) names no intent")
        }
        if !found.when.intents.contains(intent) {
            let names = found.when.intents.map(\.rawValue)
            fail(
                "intent", intent.rawValue,
                (names.count > 3 ? names.prefix(3).joined(separator: ", ") + ", …" : names.joined(separator: ", "))
                    + " (rule \(answering.id))")
        }
    }

    /// `calls` (in order, others between) and `noCalls`.
    mutating func calls(_ calls: [String]) {
        let shown = calls.isEmpty ? "no tool calls" : "calls of " + calls.joined(separator: ", ")
        if expect.noCalls, !calls.isEmpty { fail("noCalls", "no tool calls", shown) }
        guard !expect.calls.isEmpty else { return }
        var remaining = calls[...]
        for tool in expect.calls {
            guard let position = remaining.firstIndex(of: tool.rawValue) else {
                let expected = expect.calls.map(\.rawValue).joined(separator: ", ")
                return fail(
                    "calls", expect.calls.count > 1 ? expected + ", in this order" : "a call of " + expected, shown)
            }
            remaining = remaining[(position + 1)...]
        }
    }

    /// `offer`: text a pending offer contains, or none pending. A failure shows the NPC's reply too.
    mutating func offer(_ pending: [String], reply: String) {
        let said = "; the reply: " + (reply.isEmpty ? "nothing said" : EvalReport.quoted(reply))
        switch expect.offer {
        case nil: break
        case .none?:
            if !pending.isEmpty { fail("offer", "no pending offer", pending.joined(separator: "; ") + said) }
        case .containing(let text)?:
            if !pending.contains(where: { $0.localizedCaseInsensitiveContains(text) }) {
                fail(
                    "offer", "an offer containing \"\(text)\"",
                    (pending.isEmpty ? "no offer" : pending.joined(separator: "; ")) + said)
            }
        }
    }

    /// `state`: conditions after the turn.
    mutating func state(_ state: GameState, npc: NPCID) {
        for condition in expect.state where !condition.holds(in: ConditionContext(state: state, npc: npc)) {
            fail("state", "\(condition) to hold", "it does not (\(ConversationTestRunner.describe(state)))")
        }
    }

    /// `says` and `saysNot`: plain phrases, case-insensitive.
    mutating func words(_ reply: String) {
        let shown = reply.isEmpty ? "nothing said" : EvalReport.quoted(reply)
        for phrase in expect.says where !reply.localizedCaseInsensitiveContains(phrase) {
            fail("says", "\"\(phrase)\"", shown)
        }
        for phrase in expect.saysNot where reply.localizedCaseInsensitiveContains(phrase) {
            fail("saysNot", "no \"\(phrase)\"", shown)
        }
    }
}
