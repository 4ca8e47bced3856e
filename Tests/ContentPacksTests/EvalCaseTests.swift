import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import ParleyJSON
import Testing

/// The evaluation case format (`eval/*.jsonl`): every member read, both inventory forms, and every problem reported
/// on `file:line` with its JSON path.
@Suite struct EvalCaseTests {
    static let file = "Content/eval/mira.jsonl"

    static func read(_ line: String, number: Int = 7) -> (case: EvalCase?, diagnostics: [ContentDiagnostic]) {
        EvalCase.read(line: line, file: file, number: number)
    }

    @Test func aFullCaseIsReadMemberByMember() throws {
        let line = """
            {"id": "mira-price-003", "npc": "mira", "kind": "price", "split": "heldOut",
             "start": {"gold": 30, "inventory": {"bread": 2}, "location": "square", "flags": ["met_mira"]},
             "before": ["how much is the rope?"], "say": "what's the lantern going for?",
             "expect": {"intent": "askPrice", "rule": "lantern_price", "calls": ["lookUpStock", "offerTrade"],
                        "noCalls": false, "offer": "Lantern for 25 gold", "state": ["gold = 30", "has 2 bread"],
                        "says": ["25"], "saysNot": ["lost me"]}}
            """.replacingOccurrences(of: "\n", with: " ")
        let (read, diagnostics) = Self.read(line)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let evalCase = try #require(read)
        #expect(evalCase.id == "mira-price-003")
        #expect(evalCase.npc == "mira")
        #expect(evalCase.kind == "price")
        #expect(evalCase.split == .heldOut)
        #expect(evalCase.start.gold == 30)
        #expect(evalCase.start.inventory == ["bread": 2])
        #expect(evalCase.start.location == "square")
        #expect(evalCase.start.flags == ["met_mira"])
        #expect(evalCase.before == ["how much is the rope?"])
        #expect(evalCase.say == "what's the lantern going for?")
        #expect(evalCase.expect.intent == .askPrice)
        #expect(evalCase.expect.rule == "lantern_price")
        #expect(evalCase.expect.calls == [.lookUpStock, .offerTrade])
        #expect(evalCase.expect.noCalls == false)
        #expect(evalCase.expect.offer == .containing("Lantern for 25 gold"))
        #expect(evalCase.expect.state.map(\.description) == ["gold = 30", "has 2 bread"])
        #expect(evalCase.expect.says == ["25"])
        #expect(evalCase.expect.saysNot == ["lost me"])
        #expect(evalCase.location == "Content/eval/mira.jsonl:7")
    }

    @Test func defaultsAndNullOffer() throws {
        let evalCase = try #require(
            Self.read(
                #"{"id": "a", "npc": "mira", "kind": "offTopic", "say": "hm", "expect": {"offer": null, "noCalls": true}}"#
            )
            .case)
        #expect(evalCase.split == .tuning)
        #expect(evalCase.start == EvalCase.Start())
        #expect(evalCase.before.isEmpty)
        #expect(evalCase.expect.offer == EvalCase.Expectation.Offer.none)
        #expect(evalCase.expect.noCalls)
    }

    @Test(arguments: [
        #"{"bread": 2, "apple": 1}"#,
        #"[{"item": "bread", "quantity": 2}, {"item": "apple"}]"#,
    ])
    func bothInventoryFormsReadTheSame(inventory: String) throws {
        let line =
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "start": {"inventory": "#
            + inventory + #"}, "expect": {"says": ["x"]}}"#
        let evalCase = try #require(Self.read(line).case)
        #expect(evalCase.start.inventory == ["bread": 2, "apple": 1])
    }

    @Test(arguments: [
        (#"{"npc": "mira", "kind": "k", "say": "hi", "expect": {"says": ["x"]}}"#, "$.id", "a case needs \"id\""),
        (#"{"id": "a", "kind": "k", "say": "hi", "expect": {"says": ["x"]}}"#, "$.npc", "a case needs \"npc\""),
        (#"{"id": "a", "npc": "mira", "say": "hi", "expect": {"says": ["x"]}}"#, "$.kind", "a case needs \"kind\""),
        (#"{"id": "a", "npc": "mira", "kind": "k", "expect": {"says": ["x"]}}"#, "$.say", "a case needs \"say\""),
        (#"{"id": "a", "npc": "mira", "kind": "k", "say": "hi"}"#, "$.expect", "a case needs \"expect\""),
        (#"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {}}"#, "$.expect", "expect at least one"),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "split": "held", "expect": {"says": ["x"]}}"#,
            "$.split", "unknown split \"held\""
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"intent": "askPrise"}}"#,
            "$.expect.intent", "unknown intent \"askPrise\""
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"calls": ["lookUpStok"]}}"#,
            "$.expect.calls[0]", "unknown tool \"lookUpStok\""
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"state": ["gold >= 1", "gold >="]}}"#,
            "$.expect.state[1]", "gold >="
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"offer": 3}}"#, "$.expect.offer",
            "expected text the offer must contain"
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"calls": ["giveItem"], "noCalls": true}}"#,
            "$.expect.noCalls", "contradicts"
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "start": {"gold": -1}, "expect": {"says": ["x"]}}"#,
            "$.start.gold", "gold is a whole number"
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "start": {"inventory": {"bread": 0}}, "expect": {"says": ["x"]}}"#,
            "$.start.inventory.bread", "quantity must be from 1 to 10000, found 0"
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "start": {"inventory": [{"quantity": 2}]}, "expect": {"says": ["x"]}}"#,
            "$.start.inventory[0]", "missing required field \"item\""
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "start": {"inventory": [{"item": "bread"}, {"item": "bread"}]}, "expect": {"says": ["x"]}}"#,
            "$.start.inventory[1].item", "listed twice"
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"says": [1]}}"#, "$.expect.says[0]",
            "expected a string"
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"runs": "walk"}}"#, "$.expect.runs",
            "unknown way to take a line \"walk\""
        ),
        (
            #"{"id": "a", "npc": "mira", "kind": "commandOrSpeech", "say": "go north", "expect": {"says": ["x"]}}"#,
            "$.expect.runs", "a commandOrSpeech case needs \"runs\""
        ),
        (#"{"id": "a", "npc": "mira", "kind": "k", "say": "hi" "expect": {}}"#, "$", "invalid JSON at column"),
        (#"["not", "an", "object"]"#, "$", "a case is a JSON object"),
    ])
    func eachProblemNamesTheLineAndThePath(line: String, path: String, message: String) {
        let (read, diagnostics) = Self.read(line, number: 12)
        #expect(read == nil)
        let error = diagnostics.first { $0.severity == .error }
        #expect(error?.file == "Content/eval/mira.jsonl:12")
        #expect(error?.path == path, "\(diagnostics)")
        #expect(error?.message.contains(message) == true, "\(diagnostics)")
        #expect(error?.description.hasPrefix("Content/eval/mira.jsonl:12: \(path): ") == true)
    }

    // MARK: - commandOrSpeech: `runs`

    @Test(arguments: [
        ("say", EvalCase.Expectation.Runs.speech), ("command", .command(nil)), ("go", .command("go")),
        ("give", .command("give")), ("accept", .command("accept")),
    ])
    func runsSaysHowTheLineMustBeTaken(written: String, runs: EvalCase.Expectation.Runs) throws {
        let line =
            #"{"id": "a", "npc": "mira", "kind": "commandOrSpeech", "say": "go north", "expect": {"runs": ""#
            + written + #""}}"#
        let (read, diagnostics) = Self.read(line)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let evalCase = try #require(read)
        #expect(evalCase.expect.runs == runs)
        #expect(!evalCase.expect.isEmpty)
    }

    // MARK: - Commands in `before`

    @Test func beforeHoldsWordsAndCommandsInOrder() throws {
        let line = #"""
            {"id": "a", "npc": "mira", "kind": "memory", "before": ["I'll take the lantern", {"command": "accept"},
             {"command": "give bread to mira"}, "thanks"], "say": "what did I buy from you?", "expect": {"says": ["Lantern"]}}
            """#.replacingOccurrences(of: "\n", with: " ")
        let (read, diagnostics) = Self.read(line)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let evalCase = try #require(read)
        #expect(
            evalCase.before == [
                .say("I'll take the lantern"), .command("accept"), .command("give bread to mira"), "thanks",
            ])
        #expect(
            evalCase.before.map(\.description) == [
                "\"I'll take the lantern\"", "accept", "give bread to mira", "\"thanks\"",
            ])
    }

    @Test(
        arguments: [
            (#"{"comand": "accept"}"#, "$.before[1].comand", "unknown field \"comand\"", "did you mean \"command\"?"),
            (
                #"{"say": "hello"}"#, "$.before[1].say", "unknown field \"say\"",
                "write words said as a string, not an object"
            ),
            (
                #"{"command": "accept", "then": "x"}"#, "$.before[1].then", "unknown field \"then\"",
                "an entry has only \"command\""
            ),
            (
                #"{}"#, "$.before[1].command", "a command entry needs \"command\"",
                "the line the player types, e.g. {\"command\": \"accept\"}"
            ),
            (
                #"{"command": ""}"#, "$.before[1].command", "must not be empty",
                "the line the player types, e.g. \"accept\" or \"give bread to mira\""
            ),
            (
                #"{"command": "  "}"#, "$.before[1].command", "must not be empty",
                "the line the player types, e.g. \"accept\" or \"give bread to mira\""
            ),
            (#"{"command": ["accept"]}"#, "$.before[1].command", "expected a string, found array", nil),
            (
                #"3"#, "$.before[1]", "expected a string or an object, found number",
                #"write words said as a string, a command as {"command": "accept"}"#
            ),
            ("\"\"", "$.before[1]", "must not be empty", nil),
        ] as [(String, String, String, String?)])
    func aBadBeforeEntryIsAnError(entry: String, path: String, message: String, hint: String?) throws {
        let line =
            #"{"id": "a", "npc": "mira", "kind": "k", "before": ["hello", "# + entry
            + #"], "say": "hi", "expect": {"says": ["x"]}}"#
        let (read, diagnostics) = Self.read(line)
        #expect(read == nil)
        let error = try #require(diagnostics.first { $0.severity == .error })
        #expect(error.path == path, "\(diagnostics)")
        #expect(error.message == message, "\(diagnostics)")
        #expect(error.hint == hint, "\(diagnostics)")
    }

    @Test func beforeMustBeAnArray() throws {
        let (read, diagnostics) = Self.read(
            #"{"id": "a", "npc": "mira", "kind": "k", "before": {"command": "accept"}, "say": "hi", "expect": {"says": ["x"]}}"#
        )
        #expect(read == nil)
        let error = try #require(diagnostics.first)
        #expect(error.path == "$.before")
        #expect(error.message == "expected an array, found object")
    }

    @Test func anUnknownMemberIsAWarningWithADidYouMean() throws {
        let (read, diagnostics) = Self.read(
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"says": ["x"], "sayNot": ["y"]}}"#)
        #expect(read != nil)
        let warning = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.path == "$.expect.sayNot")
        #expect(warning.hint == "did you mean \"saysNot\"?")
    }

    // MARK: - The corpus

    static func corpus(_ lines: String...) -> EvalCorpus {
        EvalCorpus(files: [(name: "mira.jsonl", text: lines.joined(separator: "\n"))], world: TestWorld.world)
    }

    @Test func blankLinesAndCommentsAreSkippedAndLinesKeepTheirNumbers() {
        let corpus = Self.corpus(
            "// cases for Mira", "",
            #"{"id": "a", "npc": "mira", "kind": "price", "say": "bread?", "expect": {"says": ["2"]}}"#, "   ",
            #"  // {"id": "b"}"#,
            #"{"id": "b", "npc": "brannoc", "kind": "price", "say": "sword?", "expect": {"says": ["60"]}}"#)
        #expect(corpus.diagnostics.isEmpty, "\(corpus.diagnostics)")
        #expect(corpus.cases.map(\.id) == ["a", "b"])
        #expect(corpus.cases.map(\.line) == [3, 6])
        #expect(corpus.files == ["Content/eval/mira.jsonl"])
    }

    @Test func namesAreCheckedAgainstTheWorld() {
        let corpus = Self.corpus(
            #"{"id": "a", "npc": "mirra", "kind": "k", "say": "hi", "expect": {"says": ["x"]}}"#,
            #"{"id": "b", "npc": "mira", "kind": "k", "say": "hi", "start": {"inventory": {"bred": 1}}, "expect": {"says": ["x"]}}"#,
            #"{"id": "c", "npc": "mira", "kind": "k", "say": "hi", "start": {"location": "smithyy"}, "expect": {"says": ["x"]}}"#,
            #"{"id": "d", "npc": "mira", "kind": "k", "say": "hi", "expect": {"state": ["has lanter"]}}"#,
            #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"says": ["x"]}}"#,
            #"{"id": "e", "npc": "mira", "kind": "k", "say": "hi", "expect": {"rule": "no_such_rule"}}"#,
            #"{"id": "f", "npc": "mira", "kind": "k", "say": "hi", "expect": {"says": ["fine"]}}"#)
        let shown = corpus.diagnostics.map(\.description)
        #expect(
            shown == [
                #"Content/eval/mira.jsonl:1: $.npc: unknown NPC "mirra" (did you mean "mira"?)"#,
                #"Content/eval/mira.jsonl:2: $.start.inventory: unknown item "bred" (did you mean "bread"?)"#,
                #"Content/eval/mira.jsonl:3: $.start.location: unknown location "smithyy" (did you mean "smithy"?)"#,
                #"Content/eval/mira.jsonl:4: $.expect.state[0]: unknown item "lanter" (did you mean "lantern"?)"#,
                #"Content/eval/mira.jsonl:5: $.id: duplicate id "a" (it is used first at Content/eval/mira.jsonl:1; ids are unique across the corpus)"#,
                #"Content/eval/mira.jsonl:6: $.expect.rule: mira has no dialogue rule "no_such_rule""#,
            ], "\(shown)")
        #expect(corpus.hasErrors)
        #expect(corpus.cases.map(\.id) == ["f"])
    }

    @Test func aRuleMayBeABuiltInOneAndItsIntentIsCompared() {
        let builtIn = DialogueRules(rules: [DialogueRule(id: "builtin_greet", when: .intent(.greet))])
        let corpus = EvalCorpus(
            files: [
                (
                    name: "mira.jsonl",
                    text:
                        #"{"id": "a", "npc": "mira", "kind": "k", "say": "hi", "expect": {"rule": "builtin_greet", "intent": "farewell"}}"#
                )
            ], world: TestWorld.world, builtInRules: builtIn)
        #expect(!corpus.hasErrors)
        #expect(corpus.diagnostics.map(\.message) == [#"the rule "builtin_greet" does not answer farewell"#])
        #expect(corpus.cases.count == 1)
    }

    @Test func withoutAWorldOnlyTheFormatIsChecked() {
        let corpus = EvalCorpus(
            files: [
                (
                    name: "x.jsonl",
                    text: #"{"id": "a", "npc": "nobody", "kind": "k", "say": "hi", "expect": {"says": ["x"]}}"#
                )
            ],
            world: nil)
        #expect(corpus.diagnostics.isEmpty)
        #expect(corpus.cases.count == 1)
    }

    @Test func aReportListsTheCorpusProblemsAndFailsOnItsErrors() throws {
        let result = ContentLoadResult(pack: nil, diagnostics: [], counts: ContentCounts(), displayPath: "Content")
        let corpus = Self.corpus(
            #"{"id": "a", "npc": "mirra", "kind": "k", "say": "hi", "expect": {"says": ["x"]}}"#,
            #"{"id": "b", "npc": "mira", "kind": "k", "say": "hi", "expect": {"says": ["x"]}, "note": 1}"#)
        let report = ContentCheckReport(result, corpus: corpus)
        #expect(report.exitCode == 1)
        #expect(report.text.contains("Content/eval/mira.jsonl:1: $.npc: unknown NPC"))
        #expect(report.text.contains("Content/eval/mira.jsonl:2: $.note: warning: unknown field"))
        #expect(report.summary.hasSuffix("0 items; 1 error, 1 warning"), "\(report.summary)")
        #expect(report.json["counts"]?["errors"]?.intValue == 1)
        #expect(report.json["ok"] == .bool(false))
    }

    /// The schema lists the intents and tools the reader accepts, and the members it knows.
    @Test func theSchemaMatchesTheReader() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Content/schema/eval-case.schema.json")
        let schema = try JSONValue(parsing: try String(contentsOf: url, encoding: .utf8))
        let expect = try #require(schema["properties"]?["expect"]?["properties"])
        let intents = expect["intent"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(intents == DialogueIntent.allCases.map(\.rawValue))
        let tools = expect["calls"]?["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(tools == NPCTool.allCases.map(\.rawValue))
        #expect(
            Set(expect.objectValue?.keys ?? []) == [
                "intent", "rule", "calls", "noCalls", "offer", "state", "says", "saysNot", "runs",
            ])
        let runs = expect["runs"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(runs == ["say", "command"] + EvalCase.Expectation.Runs.commandNames)
        #expect(
            Set(schema["properties"]?.objectValue?.keys ?? [])
                == ["id", "npc", "kind", "split", "start", "before", "say", "expect"])
        // A `before` entry: words as a string, or a command as an object with only `command`.
        let entries = try #require(schema["properties"]?["before"]?["items"]?["oneOf"]?.arrayValue)
        #expect(entries.compactMap { $0["type"]?.stringValue } == ["string", "object"])
        #expect(Set(entries.last?["properties"]?.objectValue?.keys ?? []) == ["command"])
        #expect(entries.last?["required"] == ["command"])
        #expect(entries.last?["additionalProperties"] == false)
    }
}
