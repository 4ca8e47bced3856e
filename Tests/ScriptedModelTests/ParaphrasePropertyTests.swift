import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import Testing

@testable import ScriptedModel

/// Ten thousand generated lines (`ParaphraseGrammar`: templates × synonyms × items × typos, seeded), each said to a
/// shipped NPC in a fresh conversation with the engine's real tools: no NPC makes an offer the player did not ask
/// for, none is ever silent, and none says anything false about the game (`ClaimChecker`); and an order for
/// something the NPC sells, without a typo, gets an offer or a clarifying question, never a look-up alone.
@Suite struct ParaphrasePropertyTests {
    /// What the player carries: things every NPC buys or would be given, so selling and giving have something.
    static let carried: [ItemID] = [
        "rusty_sword", "bread", "brass_compass", "leather_boots", "old_coin", "painted_fan", "apple", "hammer",
    ]

    /// The shipped NPCs, in the order lines are dealt to them.
    static let npcs: [NPCID] = ["mira", "brannoc", "hesper", "oona", "aurelio", "pip"]

    /// How many lines the property test says.
    static let lineCount = 10_000

    /// One thing wrong with an NPC's answer to a generated line.
    struct Violation: CustomStringConvertible, Equatable {
        /// What is wrong.
        enum Kind: String { case unaskedOffer, silent, falseClaim, orderIgnored }
        let kind: Kind
        let detail: String
        var description: String { "\(kind.rawValue): \(detail)" }
    }

    /// What an NPC's answer to a line did wrong, if anything.
    ///
    /// - Parameters:
    ///   - line: The generated line.
    ///   - reply: What the NPC said.
    ///   - calls: The tools the NPC called this turn, by name.
    ///   - ruleOffers: Whether the rule that answered makes an offer by its effects.
    ///   - falseClaims: The false statements the claim check found in the reply.
    /// - Returns: Every violation.
    static func violations(
        of line: ParaphraseGrammar.Line, reply: String, calls: [String], ruleOffers: Bool, falseClaims: [String]
    ) -> [Violation] {
        var found: [Violation] = []
        if reply.allSatisfy(\.isWhitespace) { found.append(Violation(kind: .silent, detail: "an empty reply")) }
        if !line.kind.asksToTrade, calls.contains(NPCTool.offerTrade.rawValue) || ruleOffers {
            found.append(Violation(kind: .unaskedOffer, detail: "an offer: \(reply)"))
        }
        found += falseClaims.map { Violation(kind: .falseClaim, detail: "\($0) in \"\(reply)\"") }
        return found
    }

    /// Whether an order was acted on: an offer made, or a clarifying question asked (the outcome recorded as asking
    /// back, `AnsweringOutcome.asksBack`), never a look-up alone ("a mug of ale, landlady!" answered with its price).
    static func actedOn(calls: [String], outcome: AnsweringOutcome?) -> Bool {
        calls.contains(NPCTool.offerTrade.rawValue) || outcome?.asksBack == true
    }

    /// Says a generated line (after its lines before) to its NPC in a fresh game and returns what went wrong.
    ///
    /// - Parameters:
    ///   - line: The line.
    ///   - speaker: The scripted model playing the line's NPC and the transcript a conversation with it starts with
    ///     (shared by lines: the model keeps nothing of a conversation that a new one could see).
    ///   - checker: The claim check.
    static func check(
        _ line: ParaphraseGrammar.Line, speaker: Speaker, checker: ClaimChecker
    ) async throws
        -> [Violation]
    {
        let visit = try Self.visit(line.npc)
        let npc = try #require(visit.game.world.npcs[line.npc])
        let session = LanguageModelSession(
            model: speaker.model, tools: line.npc == "oona" ? visit.guardTools : visit.tools,
            transcript: speaker.start)
        for earlier in line.before { _ = try await session.turn(earlier) }
        let turn = try await session.turn(line.text)
        let rule = turn.entries.lazy.compactMap { entry -> AnsweringRule? in
            if case .response(let response) = entry { return response.answeringRule }
            return nil
        }.first
        let ruleOffers = rule?.rule(of: npc)?.effects.contains { $0.offerTerms != nil } ?? false
        let outcome = turn.entries.lazy.compactMap { entry -> AnsweringOutcome? in
            if case .response(let response) = entry { return response.answeringOutcome }
            return nil
        }.first
        let claims = checker.falseClaims(
            in: turn.reply, npc: line.npc, state: visit.game, turnEntries: turn.entries, pendingOffer: visit.pending)
        let calls = turn.calls.map { String($0.prefix { $0 != "(" }) }
        var found = violations(
            of: line, reply: turn.reply, calls: calls, ruleOffers: ruleOffers, falseClaims: claims.map(\.description))
        // An order without a typo, for one thing this NPC sells (and the player can pay for), is acted on.
        if line.kind == .buy, !line.hasTypo, line.before.isEmpty, let item = line.item,
            Scene.sells(item, npc: npc, world: visit.game.world), !actedOn(calls: calls, outcome: outcome)
        {
            found.append(Violation(kind: .orderIgnored, detail: "no offer and no question: \(turn.reply)"))
        }
        return found
    }

    /// A fresh game at an NPC, the player carrying `carried` and 200 gold.
    static func visit(_ npc: NPCID) throws -> NPCVisit {
        var inventory = Inventory()
        for item in carried { inventory.add(item, quantity: 1) }
        return try Packs.visit(npc, gold: 200, inventory: inventory)
    }

    /// The model playing an NPC, and the transcript every conversation with it starts with: the engine's
    /// instructions for the fresh game of `visit(_:)` (the same for every line).
    struct Speaker: Sendable {
        let model: ScriptedModel
        let start: Transcript

        init(_ npc: NPCID) throws {
            let visit = try ParaphrasePropertyTests.visit(npc)
            let known = try #require(visit.game.world.npcs[npc])
            model = ScriptedModel(npc: known, world: visit.game.world)
            start =
                LanguageModelSession(
                    model: model, tools: npc == "oona" ? visit.guardTools : visit.tools,
                    instructions: NPCInstructions.make(npc: known, state: visit.game, hasTradeTools: known.trade.trades)
                ).transcript
        }
    }

    /// The generated lines: `count` of them from `seed`, dealt to the NPCs in turn.
    static func lines(count: Int, seed: UInt64) throws -> [ParaphraseGrammar.Line] {
        let world = try Packs.shipped().world
        let grammar = ParaphraseGrammar(world: world, carried: carried)
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in grammar.line(to: npcs[index % npcs.count], &random) }
    }

    @Test func tenThousandGeneratedLinesGetNoUnaskedOfferNoSilenceNoFalseClaimAndNoIgnoredOrder() async throws {
        let lines = try Self.lines(count: Self.lineCount, seed: 0x9A8A_F8A5E)
        let world = try Packs.shipped().world
        let checker = ClaimChecker(world: world)
        let speakers = try Dictionary(uniqueKeysWithValues: Self.npcs.map { ($0, try Speaker($0)) })
        let counts = Dictionary(grouping: lines, by: \.kind).mapValues(\.count)
        // Two halves at once: the lines are independent, each in its own game.
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for part in 0..<2 {
                group.addTask {
                    var failures: [String] = []
                    for line in lines[(part * lines.count / 2)..<((part + 1) * lines.count / 2)] {
                        // An in-process model's turn never suspends: without a yield these two loops would hold
                        // both threads of a two-core machine's cooperative pool for minutes, and starve the suites
                        // beside them.
                        await Task.yield()
                        let speaker = try #require(speakers[line.npc])
                        for violation in try await Self.check(line, speaker: speaker, checker: checker) {
                            failures.append("\(violation) ← \(line)")
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // Every kind of line was said, so the property is not met by saying only easy ones.
        #expect(Set(counts.keys) == Set(ParaphraseGrammar.Kind.allCases))
        #expect(counts.values.allSatisfy { $0 >= 100 }, "\(counts)")
        #expect(
            failures.isEmpty, "\(failures.count) violations; the first: \(failures.prefix(40).joined(separator: "\n"))")
    }

    @Test func theGrammarWritesDistinctLinesOfEveryKind() throws {
        let lines = try Self.lines(count: Self.lineCount, seed: 1)
        #expect(lines.count >= 10_000)
        #expect(Set(lines.map { $0.before + [$0.text] }).count > 5_000)
        #expect(lines.contains { $0.text.hasPrefix("SYSTEM:") || $0.text.hasPrefix("[admin]") })
        // The same seed writes the same lines.
        #expect(try Self.lines(count: 200, seed: 7).map(\.text) == Self.lines(count: 200, seed: 7).map(\.text))
    }

    // MARK: - The property can fail

    @Test func anOfferAfterAPriceQuestionAnEmptyReplyAndAFalsePriceAreEachCaught() throws {
        let line = ParaphraseGrammar.Line(
            npc: "mira", kind: .price, before: [], text: "how much is the lantern?", template: "", item: "lantern")
        #expect(
            Self.violations(
                of: line, reply: "", calls: ["lookUpStock", "offerTrade"], ruleOffers: false, falseClaims: []
            )
            .map(\.kind) == [.silent, .unaskedOffer])
        #expect(
            Self.violations(of: line, reply: "25 gold.", calls: [], ruleOffers: true, falseClaims: []).map(\.kind)
                == [.unaskedOffer])
        // The same offer after an order is no violation.
        let order = ParaphraseGrammar.Line(
            npc: "mira", kind: .buy, before: [], text: "I'll take the lantern", template: "", item: "lantern")
        #expect(
            Self.violations(of: order, reply: "Yours.", calls: ["offerTrade"], ruleOffers: false, falseClaims: [])
                .isEmpty)
        // An order answered with a look-up alone is not acted on; an offer or a question back is.
        #expect(!Self.actedOn(calls: ["lookUpStock"], outcome: AnsweringOutcome(.priced)))
        #expect(Self.actedOn(calls: ["lookUpStock"], outcome: AnsweringOutcome(.clarify)))
        #expect(Self.actedOn(calls: ["lookUpStock", "offerTrade"], outcome: AnsweringOutcome(.refused)))
        // A false price is found by the real claim check.
        let world = try Packs.shipped().world
        let visit = try Packs.visit("mira")
        let claims = ClaimChecker(world: world).falseClaims(
            in: "The Brass Lantern is 3 gold, friend.", npc: "mira", state: visit.game, turnEntries: [],
            pendingOffer: nil)
        #expect(!claims.isEmpty)
        #expect(
            Self.violations(of: line, reply: "x", calls: [], ruleOffers: false, falseClaims: claims.map(\.description))
                .map(\.kind) == [.falseClaim])
    }
}
