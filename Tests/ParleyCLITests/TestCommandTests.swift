import Foundation
import Testing

/// `parley test`, run as a modder runs it: the built binary on a content folder.
@Suite struct TestCommandTests {
    /// A copy of the shipped content in a temporary folder, removed afterwards.
    final class PackCopy: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-\(UUID().uuidString)")
        var content: URL { url.appendingPathComponent("Content") }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: ParleyBinary.packageRoot.appendingPathComponent("Content"), to: content)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func plan(_ name: String) -> URL { content.appendingPathComponent("tests/\(name).json") }

        func edit(_ name: String, _ change: (String) -> String) throws {
            let text = try String(contentsOf: plan(name), encoding: .utf8)
            try Data(change(text).utf8).write(to: plan(name))
        }
    }

    @Test func theShippedPlansPass() async throws {
        let run = try await runParley(["test"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        let plans = try FileManager.default.contentsOfDirectory(
            atPath: ParleyBinary.packageRoot.appendingPathComponent("Content/tests").path
        ).filter { $0.hasSuffix(".json") }
        #expect(plans.count >= 6)
        #expect(run.out.hasSuffix("Tests: \(plans.count) passed, 0 failed\n"))
        #expect(run.out.contains("PASS Content/tests/mira.json: Mira quotes, haggles and sells the lantern"))
    }

    @Test func aBrokenExpectationFailsWithItsStepAndExitCodeOne() async throws {
        let copy = try PackCopy()
        try copy.edit("mira") { $0.replacingOccurrences(of: #""gold = 10""#, with: #""gold = 11""#) }
        let run = try await runParley(["test", copy.content.path])
        #expect(run.status == 1)
        #expect(
            run.out.contains("FAIL \(copy.content.path)/tests/mira.json: Mira quotes, haggles and sells the lantern"))
        // The failure names the step and what was expected.
        let failure = try #require(run.out.split(separator: "\n").first { $0.contains("gold = 11") })
        #expect(failure.contains("step 4"), "\(failure)")
        #expect(failure.contains("accept"), "\(failure)")
        #expect(run.out.contains("PASS \(copy.content.path)/tests/brannoc.json"))
        #expect(run.out.hasSuffix("5 passed, 1 failed\n"))
    }

    @Test func aMalformedPlanIsAClearErrorAndTheOthersStillRun() async throws {
        let copy = try PackCopy()
        try Data(#"{"name": "half a plan", "steps": [{"do": 3}]}"#.utf8).write(to: copy.plan("broken"))
        let run = try await runParley(["test", copy.content.path])
        #expect(run.status == 1)
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("broken.json") })
        #expect(line.hasPrefix("FAIL "))
        #expect(line.contains("$.steps[0].do"), "\(line)")
        #expect(run.out.contains("PASS \(copy.content.path)/tests/mira.json"))
    }

    @Test func namesThePackDoesNotHaveAreFoundBeforeThePlanRuns() async throws {
        let copy = try PackCopy()
        try Data(
            #"""
            {"name": "typos", "player": {"location": "north_gaet", "inventory": {"lantren": 1}},
             "steps": [{"do": "look", "state": ["has ropee", "quest lockett is asked", "quest locket >= fond"]}]}
            """#.utf8
        ).write(to: copy.plan("typos"))
        let run = try await runParley(["test", copy.content.path])
        #expect(run.status == 1)
        let lines = run.out.split(separator: "\n").filter { $0.contains("typos.json") }.map(String.init)
        #expect(
            lines == [
                #"FAIL \#(copy.content.path)/tests/typos.json: $.player.location: unknown location "north_gaet" (did you mean "north_gate"?)"#,
                #"FAIL \#(copy.content.path)/tests/typos.json: $.player.inventory.lantren: unknown item "lantren" (did you mean "lantern"?)"#,
                #"FAIL \#(copy.content.path)/tests/typos.json: $.steps[0].state[0]: unknown item "ropee" (did you mean "rope"?)"#,
                #"FAIL \#(copy.content.path)/tests/typos.json: $.steps[0].state[1]: unknown quest "lockett" (did you mean "locket"?)"#,
                #"FAIL \#(copy.content.path)/tests/typos.json: $.steps[0].state[2]: unknown stage of locket "fond" (did you mean "found"?)"#,
            ], "\(run.out)")
    }

    @Test func recordWritesWhatTheNPCsSaidAndThenThePlanPasses() async throws {
        let copy = try PackCopy()
        let original = try String(contentsOf: copy.plan("mira"), encoding: .utf8)
        // Forget one recorded line, and change another to something Mira does not say.
        try copy.edit("mira") {
            $0.replacingOccurrences(
                of: #""saysExactly": "Off you go, friend, and come back soon! Tell everyone about Mira's stall!""#,
                with: #""saysExactly": "Something else entirely.""#)
        }
        #expect(try await runParley(["test", copy.content.path]).status == 1)
        let record = try await runParley(["test", copy.content.path, "--record"])
        #expect(record.status == 0, "\(record.out)\(record.err)")
        #expect(record.out.hasSuffix("(recorded)\n"))
        // The recorded plan is the original again, and passes.
        #expect(try String(contentsOf: copy.plan("mira"), encoding: .utf8) == original)
        #expect(try await runParley(["test", copy.content.path]).status == 0)
    }

    @Test func aPackWithErrorsIsNotTested() async throws {
        let copy = try PackCopy()
        let mira = copy.content.appendingPathComponent("npcs/mira.json")
        let text = try String(contentsOf: mira, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""item": "lantern""#, with: #""item": "lantren""#).utf8).write(
            to: mira)
        let run = try await runParley(["test", copy.content.path])
        #expect(run.status == 1)
        #expect(run.err.contains(#"unknown item "lantren""#), "\(run.err)")
        #expect(run.err.contains("fix the content pack's errors before testing it"))
    }

    @Test func aFolderWithoutPlansSaysWhereToLearn() async throws {
        let copy = try PackCopy()
        try FileManager.default.removeItem(at: copy.content.appendingPathComponent("tests"))
        let run = try await runParley(["test", copy.content.path])
        #expect(run.status == 1)
        #expect(run.err.contains("no test plans"))
        #expect(run.err.contains("docs/modding.md"))
    }

    /// The tutorial in docs/modding.md works as written: its files, added to the shipped pack, check clean and
    /// their test plan passes.
    @Test func theModdingTutorialWorksAsWritten() async throws {
        let guide = try String(
            contentsOf: ParleyBinary.packageRoot.appendingPathComponent("docs/modding.md"), encoding: .utf8)
        let marker = "<!-- tutorial-file: "
        var files: [String: String] = [:]
        for part in guide.components(separatedBy: marker).dropFirst() {
            let name = String(part.prefix { $0 != " " })
            let afterFence = try #require(part.range(of: "```json\n"))
            let end = try #require(part.range(of: "\n```", range: afterFence.upperBound..<part.endIndex))
            files[name] = String(part[afterFence.upperBound..<end.lowerBound])
        }
        #expect(files.keys.sorted() == ["npcs/tamsin.json", "tests/tamsin.json"])
        let copy = try PackCopy()
        for (name, text) in files {
            try Data(text.utf8).write(to: copy.content.appendingPathComponent(name))
        }
        let check = try await runParley(["content", "check", copy.content.path])
        #expect(check.status == 0)
        #expect(check.out.contains("7 NPCs, 30 items; 0 errors, 0 warnings"), "\(check.out)")
        let test = try await runParley(["test", copy.content.path])
        #expect(test.status == 0, "\(test.out)")
        #expect(test.out.contains("PASS \(copy.content.path)/tests/tamsin.json: Tamsin sells a rope"))
    }
}
