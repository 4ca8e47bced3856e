import Foundation
import Testing

/// `parley eval`, run as a modder runs it: the built binary on a content folder with an `eval/` corpus.
@Suite struct EvalCommandTests {
    /// A tiny pack in a temporary folder (a tinker selling nails at 2 gold), with the corpus files given; removed
    /// afterwards.
    final class TinyPack: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-eval-\(UUID().uuidString)")

        init(corpus: [String: String]?) throws {
            let files = [
                "world.json": """
                {"id": "tiny", "title": "Tiny",
                 "start": {"name": "Kit", "location": "yard", "gold": 50, "inventory": [{"item": "kettle"}]},
                 "locations": [{"id": "yard", "name": "Yard", "description": "A yard."}],
                 "goal": {"description": "Buy a nail.", "requirements": [{"type": "playerHasItem", "item": "nail"}]}}
                """,
                "items.json": """
                {"items": [
                  {"id": "kettle", "name": "Copper Kettle", "description": "A kettle.", "value": 10, "category": "tool"},
                  {"id": "nail", "name": "Iron Nail", "description": "A nail.", "value": 1, "category": "tool"}]}
                """,
                "npcs/tam.json": """
                {"id": "tam", "name": "Tam the Tinker", "persona": "A tinker.", "location": "yard", "gold": 30,
                 "inventory": [{"item": "nail", "quantity": 20}],
                 "trade": {"sells": ["tool"], "buys": ["tool"], "sellMarkup": 2.0, "buyBackRate": 0.5, "minimumPriceRatio": 1.0}}
                """,
            ].merging((corpus ?? [:]).map { ("eval/" + $0.key, $0.value) }) { $1 }
            for (path, text) in files {
                let file = url.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// One case that passes and one that fails.
    static let mixed = [
        "tam.jsonl": """
        // Tam's cases
        {"id": "tam-price-1", "npc": "tam", "kind": "price", "say": "how much is a nail?", "expect": {"calls": ["lookUpStock"], "says": ["2"], "offer": null}}

        {"id": "tam-price-2", "npc": "tam", "kind": "price", "split": "heldOut", "say": "how much is a nail?", "expect": {"says": ["99 gold"]}}
        """
    ]

    @Test func theReportListsFailuresAndAccuracyAndExitsZeroWithoutAMinimum() async throws {
        let pack = try TinyPack(corpus: Self.mixed)
        let run = try await runParley(["eval", pack.url.path])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(
            run.out.contains(
                "FAIL \(pack.url.path)/eval/tam.jsonl:4 tam-price-2 (price, heldOut): \"how much is a nail?\""))
        #expect(run.out.contains("  says: expected \"99 gold\"; got "))
        #expect(run.out.contains("Accuracy by kind:\n  price  1/2   50.0%\n"), "\(run.out)")
        #expect(run.out.contains("Accuracy by split:\n  tuning   1/1  100.0%\n  heldOut  0/1    0.0%\n"), "\(run.out)")
        #expect(
            run.out.hasSuffix(
                "False claims: 0\nUnasked actions: 0\nEmpty replies: 0\nClarifying questions: 0\n"
                    + "Accuracy: 1/2 cases passed, 50.0%\n"), "\(run.out)")
    }

    /// An offer the case did not ask for fails its case and the run, whatever the accuracy; so does an empty reply or
    /// a false claim. An `offer` failure shows what the NPC said.
    @Test func anUnaskedActionFailsTheRun() async throws {
        let pack = try TinyPack(corpus: [
            "tam.jsonl": """
            {"id": "asked", "npc": "tam", "kind": "buy", "say": "I'll buy a nail", "expect": {"offer": "Iron Nail"}}
            {"id": "unasked", "npc": "tam", "kind": "chat", "say": "I'll buy a nail", "expect": {"saysNot": ["zzz"]}}
            {"id": "wrong-offer", "npc": "tam", "kind": "buy", "say": "I'll buy a nail", "expect": {"offer": "Copper Kettle"}}
            """
        ])
        let run = try await runParley(["eval", pack.url.path, "--min-accuracy", "0"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(
            run.out.contains(
                "FAIL \(pack.url.path)/eval/tam.jsonl:2 unasked (chat, tuning): \"I'll buy a nail\"\n"
                    + "  unaskedAction: expected no action the case did not ask for; got offered: Tam the Tinker "
                    + "offers 1 Iron Nail for 2 gold.\n"), "\(run.out)")
        #expect(
            run.out.contains(
                "  offer: expected an offer containing \"Copper Kettle\"; got Tam the Tinker offers 1 Iron Nail for 2 "
                    + "gold.; the reply: \""), "\(run.out)")
        #expect(run.out.contains("Unasked actions: 1\nEmpty replies: 0\n"), "\(run.out)")
        #expect(
            run.err.contains("parley: NPCs did what they must never do: 0 false claims, 1 unasked actions, 0 empty"),
            "\(run.err)")
    }

    @Test(arguments: [("1.0", 1), ("100%", 1), ("51", 1), ("0.5", 0), ("50%", 0), ("0", 0)])
    func theMinimumAccuracyDecidesTheExitCode(minimum: String, status: Int32) async throws {
        let pack = try TinyPack(corpus: Self.mixed)
        let run = try await runParley(["eval", pack.url.path, "--min-accuracy", minimum])
        #expect(run.status == status, "\(run.out)\(run.err)")
        if status == 1 { #expect(run.err.contains("accuracy 50.0% is below the minimum")) }
    }

    @Test(arguments: ["101", "-1", "most", "95%%"])
    func aBadMinimumIsAUsageError(minimum: String) async throws {
        let run = try await runParley(["eval", "--min-accuracy", minimum])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("--min-accuracy"))
    }

    @Test func jsonHasTheDocumentedShape() async throws {
        let pack = try TinyPack(corpus: Self.mixed)
        let run = try await runParley(["eval", pack.url.path, "--json"])
        #expect(run.status == 0, "\(run.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(
            Set(document.keys)
                == [
                    "cases", "passed", "accuracy", "falseClaims", "unaskedActions", "emptyReplies",
                    "clarifyingQuestions", "skippedChecks", "byKind", "byNPC", "bySplit", "results",
                ])
        #expect(document["cases"] as? Int == 2)
        #expect(document["passed"] as? Int == 1)
        #expect(document["accuracy"] as? Double == 0.5)
        let byNPC = try #require(document["byNPC"] as? [String: [String: Any]])
        #expect(byNPC["tam"]?["cases"] as? Int == 2)
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == ["tam-price-1", "tam-price-2"])
        #expect(results[0]["rule"] as? String == "built-in-rule:builtin_ask_price")
        #expect(results[0]["calls"] as? [String] == ["lookUpStock"])
        #expect(results[1]["line"] as? Int == 4)
        let failure = try #require((results[1]["failures"] as? [[String: Any]])?.first)
        #expect(Set(failure.keys) == ["check", "expected", "actual"])
        #expect(failure["check"] as? String == "says")
    }

    @Test func aBrokenLineIsNamedWithItsFileAndLine() async throws {
        let pack = try TinyPack(corpus: [
            "tam.jsonl": """
            {"id": "ok", "npc": "tam", "kind": "price", "say": "nails?", "expect": {"says": ["2"]}}
            {"id": "bad", "npc": "tom", "kind": "price", "say": "nails?", "expect": {"says": ["2"]}}
            """
        ])
        let run = try await runParley(["eval", pack.url.path])
        #expect(run.status == 1)
        #expect(
            run.err.contains("\(pack.url.path)/eval/tam.jsonl:2: $.npc: unknown NPC \"tom\" (did you mean \"tam\"?)"),
            "\(run.err)")
        #expect(run.out.isEmpty)
        // The content checker reports it the same way.
        let check = try await runParley(["content", "check", pack.url.path])
        #expect(check.status == 1)
        #expect(check.out.contains("\(pack.url.path)/eval/tam.jsonl:2: $.npc: unknown NPC \"tom\""), "\(check.out)")
        #expect(check.out.contains("2 items; 1 error, 0 warnings"), "\(check.out)")
    }

    /// `before` runs game commands: a case buys and accepts, then speaks; a command the game refuses fails its case
    /// with the game's words, and the run goes on.
    @Test func commandsInBeforeRunAsTyped() async throws {
        let pack = try TinyPack(corpus: [
            "tam.jsonl": """
            {"id": "bought", "npc": "tam", "kind": "memory", "before": ["I'll buy a nail", {"command": "accept"}], "say": "thanks", "expect": {"offer": null, "state": ["has 1 nail", "gold = 48"]}}
            {"id": "nothing-to-accept", "npc": "tam", "kind": "memory", "before": [{"command": "accept"}], "say": "thanks", "expect": {"offer": null}}
            """
        ])
        let run = try await runParley(["eval", pack.url.path])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(
            run.out.hasPrefix(
                "FAIL \(pack.url.path)/eval/tam.jsonl:2 nothing-to-accept (memory, tuning): \"thanks\"\n"
                    + "  before: expected the command \"accept\" to run; got No offer is waiting for your answer.\n"),
            "\(run.out)")
        #expect(run.out.hasSuffix("Accuracy: 1/2 cases passed, 50.0%\n"), "\(run.out)")
    }

    @Test func aBadBeforeEntryIsNamedWithItsPath() async throws {
        let pack = try TinyPack(corpus: [
            "tam.jsonl": """
            {"id": "bad", "npc": "tam", "kind": "memory", "before": ["hello", {"comand": "accept"}], "say": "thanks", "expect": {"offer": null}}
            """
        ])
        let check = try await runParley(["content", "check", pack.url.path])
        #expect(check.status == 1)
        #expect(
            check.out.contains(
                "\(pack.url.path)/eval/tam.jsonl:1: $.before[1].comand: unknown field \"comand\" (did you mean \"command\"?)"
            ),
            "\(check.out)")
    }

    /// `--npc` and `--file` run only some cases of the shipped corpus; names they do not know get the closest one.
    @Test func npcAndFileSelectCases() async throws {
        let run = try await runParley(["eval", "Content", "--npc", "pip", "--file", "blind9", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let results = try #require(document["results"] as? [[String: Any]])
        let lines = try String(
            contentsOfFile: ParleyBinary.packageRoot.path + "/Content/eval/blind9.jsonl", encoding: .utf8)
        let expected = lines.split(separator: "\n").filter { $0.contains(#""npc": "pip""#) }.count
        #expect(expected > 0)
        #expect(results.count == expected, "\(run.err)")
        #expect(
            results.allSatisfy { $0["npc"] as? String == "pip" && $0["file"] as? String == "Content/eval/blind9.jsonl" }
        )
        // A file may be named with its extension; an NPC may be given twice.
        let named = try await runParley([
            "eval", "Content", "--file", "pip.jsonl", "--npc", "pip", "--npc", "oona", "--json",
        ])
        let namedDocument = try #require(try JSONSerialization.jsonObject(with: Data(named.out.utf8)) as? [String: Any])
        let namedResults = try #require(namedDocument["results"] as? [[String: Any]])
        #expect(!namedResults.isEmpty)
        #expect(namedResults.allSatisfy { $0["file"] as? String == "Content/eval/pip.jsonl" })
    }

    @Test(arguments: [
        (["--npc", "mria"], "the pack has no NPC \"mria\" (did you mean \"mira\"?); its NPCs: aurelio, brannoc"),
        (
            ["--file", "blindd"],
            "the corpus has no file \"blindd\" (did you mean \"blind\"?); its files: aurelio.jsonl"
        ),
        (["--npc", "oona", "--file", "mira"], "no case of the corpus matches --npc oona --file mira."),
    ])
    func anUnknownSelectionSaysWhatThereIs(options: [String], message: String) async throws {
        let run = try await runParley(["eval", "Content"] + options)
        #expect(run.status == 1)
        #expect(run.err.contains("parley: " + message), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    @Test func aPackWithoutAnEvalFolderSaysSo() async throws {
        let pack = try TinyPack(corpus: nil)
        let run = try await runParley(["eval", pack.url.path])
        #expect(run.status == 1)
        #expect(run.err.contains("no evaluation corpus in \(pack.url.path)/eval"), "\(run.err)")
    }
}
