import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// The condition language: every term, true and false; precedence; writing and reading back; syntax errors.
@Suite struct ConditionTests {
    /// Kit in the square with a lantern, 3 loaves and 30 gold; the flag `met_mira` set, the counter `visits` at 3,
    /// Mira's attitude 15, the quest at `asked`; a first meeting, 5 turns, last about `lantern`.
    static func context() throws -> ConditionContext {
        var state = try StoryPack.pack().initialState
        for event: GameEvent in [
            .setFlag(name: "met_mira"), .changedCounter(name: "visits", by: 3), .changedAttitude(npc: "mira", by: 15),
            .advancedQuest(quest: "gem", to: "asked"),
        ] {
            try state.apply(event)
        }
        return ConditionContext(
            state: state, npc: "mira",
            conversation: ConversationFacts(isFirstMeeting: true, turns: 5, lastTopic: "lantern"))
    }

    static func holds(_ text: String) throws -> Bool {
        try Condition.parse(text).get().holds(in: context())
    }

    @Test(arguments: [
        ("has lantern", true), ("has compass", false), ("has 3 bread", true), ("has 4 bread", false),
        ("gold >= 30", true), ("gold > 30", false), ("gold < 31", true), ("gold <= 29", false), ("gold = 30", true),
        ("gold == 30", true), ("gold != 30", false),
        ("flag met_mira", true), ("flag gate_open", false),
        ("counter visits >= 3", true), ("counter visits > 3", false), ("counter never_counted = 0", true),
        ("attitude >= 10", true), ("attitude >= 20", false), ("attitude > -5", true),
        ("quest gem is asked", true), ("quest gem is found", false), ("quest gem >= asked", true),
        ("quest gem >= found", false), ("quest gem > unstarted", true), ("quest gem < returned", true),
        ("quest gem != asked", false),
        ("location square", true), ("location yard", false),
        ("first meeting", true), ("not first meeting", false),
        ("turns >= 5", true), ("turns > 5", false),
        ("topic lantern", true), ("topic gem", false),
    ])
    func eachTermHoldsOrNot(text: String, expected: Bool) throws {
        #expect(try Self.holds(text) == expected, "\(text)")
        #expect(try Self.holds("not (\(text))") == !expected, "not (\(text))")
    }

    @Test func termsNamingWhatTheWorldLacksNeverHold() throws {
        #expect(try !Self.holds("quest nothing >= asked"))
        #expect(try !Self.holds("quest gem >= nowhere"))
        #expect(try !Self.holds("has unicorn"))
    }

    @Test func attitudeIsTheContextNPCsAndZeroWithoutOne() throws {
        var context = try Self.context()
        #expect(try Condition.parse("attitude = 15").get().holds(in: context))
        context.npc = "oona"
        #expect(try Condition.parse("attitude = 0").get().holds(in: context))
        context.npc = nil
        #expect(try Condition.parse("attitude = 0").get().holds(in: context))
    }

    // MARK: - Combining

    @Test(arguments: [
        ("flag a or flag b and flag c", Condition.any([.flag("a"), .all([.flag("b"), .flag("c")])])),
        ("(flag a or flag b) and flag c", .all([.any([.flag("a"), .flag("b")]), .flag("c")])),
        ("not flag a and flag b", .all([.not(.flag("a")), .flag("b")])),
        ("not (flag a and flag b)", .not(.all([.flag("a"), .flag("b")]))),
        ("not not flag a", .not(.not(.flag("a")))),
        ("flag a and flag b and flag c", .all([.flag("a"), .flag("b"), .flag("c")])),
        ("flag a or flag b or flag c", .any([.flag("a"), .flag("b"), .flag("c")])),
        ("((flag a))", .flag("a")),
        ("NOT Flag a AND has 2 bread", .all([.not(.flag("a")), .has(item: "bread", quantity: 2)])),
        ("gold>=20", .gold(.atLeast, amount: 20)),
        ("attitude >= -10", .attitude(.atLeast, value: -10)),
        ("quest gem is found", .quest("gem", .equal, stage: "found")),
        ("quest gem == found", .quest("gem", .equal, stage: "found")),
    ])
    func notBindsTighterThanAndWhichBindsTighterThanOr(text: String, expected: Condition) throws {
        #expect(try Condition.parse(text).get() == expected)
    }

    @Test func andAndOrEvaluateAsWritten() throws {
        #expect(try Self.holds("flag gate_open or has lantern and gold >= 30"))
        #expect(try !Self.holds("(flag gate_open or has lantern) and gold > 30"))
        #expect(try Self.holds("not flag gate_open and not has compass"))
    }

    // MARK: - Writing

    @Test(arguments: [
        "has lantern", "has 2 bread", "gold >= 20", "flag met_mira", "counter visits < 3", "attitude != -5",
        "quest gem is found", "quest gem >= asked", "location yard", "first meeting", "turns > 4", "topic gem",
        "not flag a", "flag a and (flag b or flag c)", "not (flag a or flag b) and flag c",
        "flag a or flag b and flag c",
        "not (not flag a and flag b)",
    ])
    func aConditionIsWrittenAsItsExpressionAndReadsBack(text: String) throws {
        let condition = try Condition.parse(text).get()
        #expect(condition.description == text)
        #expect(try Condition.parse(condition.description).get() == condition)
        let json = try JSONEncoder().encode(condition)
        let expected = try JSONEncoder().encode(text)
        #expect(json == expected)
        #expect(try JSONDecoder().decode(Condition.self, from: json) == condition)
    }

    @Test func emptyListsAreWrittenAsConditionsThatMeanTheSame() throws {
        let context = try Self.context()
        for (condition, expected) in [(Condition.all([]), true), (.any([]), false)] {
            #expect(condition.holds(in: context) == expected)
            let reread = try Condition.parse(condition.description).get()
            #expect(reread.holds(in: context) == expected)
            #expect(reread.holds(in: ConditionContext(state: context.state)) == expected)
        }
    }

    @Test func aStringThatIsNoConditionDoesNotDecode() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Condition.self, from: Data(#""hass x""#.utf8)) }
    }

    @Test func termsListEveryTermInOrder() throws {
        let condition = try Condition.parse("not flag a and (counter b > 1 or quest q is s)").get()
        #expect(
            condition.terms == [.flag("a"), .counter("b", .greaterThan, value: 1), .quest("q", .equal, stage: "s")])
    }

    // MARK: - Syntax errors

    @Test(arguments: [
        ("", "the condition is empty"),
        ("hass lantern", "unknown condition \"hass\""),
        ("has", "expected an item after \"has\""),
        ("has 2", "expected an item after \"has 2\""),
        ("has 0 bread", "the quantity after \"has\" must be from 1 to 10000, found 0"),
        ("has Lantern", "\"Lantern\" is not a valid item id"),
        ("gold 20", "expected a comparison (<, <=, =, !=, >=, >) after \"gold\", found \"20\""),
        ("gold >=", "expected a whole number after \"gold >=\""),
        ("gold >= lots", "expected a whole number after \"gold >=\", found \"lots\""),
        ("gold >= 99999999999999999999", "the number 99999999999999999999 is too large"),
        ("counter >= 2", "expected a counter after \"counter\", found \">=\""),
        ("quest gem found", "expected \"is\" or a comparison after \"quest gem\", found \"found\""),
        ("quest gem is", "expected a stage after \"quest gem is\""),
        ("first", "expected \"meeting\" after \"first\""),
        ("flag a and", "expected a condition after \"and\""),
        ("and flag a", "\"and\" needs a condition before it"),
        ("flag a or or flag b", "\"or\" needs a condition before it"),
        ("not", "expected a condition after \"not\""),
        ("(flag a", "missing \")\""),
        ("flag a)", "unexpected \")\""),
        ("()", "unexpected \")\""),
        ("flag a flag b", "expected \"and\" or \"or\" before \"flag\""),
        ("20 > gold", "expected a condition, found \"20\""),
        ("gold >= 5 & flag a", "unexpected \"&\""),
        ("! flag a", "unexpected \"!\""),
        ("flag met-mira", "unexpected \"-\""),
        ("flag and", "expected a flag after \"flag\", found \"and\""),
    ])
    func malformedExpressionsSayWhatIsWrong(text: String, message: String) {
        guard case .failure(let error) = Condition.parse(text) else {
            Issue.record("\"\(text)\" parsed")
            return
        }
        #expect(error.message == message || error.message.hasPrefix(message), "\(text): \(error.message)")
        #expect(error.hint != nil, "\(text) has no hint")
    }
}
