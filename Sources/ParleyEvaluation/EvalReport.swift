import ContentPacks
import Foundation
import GameWorld
import ParleyBasics
import ParleyEngine
import ParleyJSON

/// What `parley eval` reports: each case's result, and accuracy (cases passed / cases) overall, per kind, per NPC
/// and per split, with the counts of what an NPC must never do (false claims, unasked actions, empty replies) and of
/// clarifying questions.
///
/// As text (`text`): each failure with its case, then the tables and the overall line:
///
/// ```
/// FAIL Content/eval/mira.jsonl:3 mira-price-003 (price, tuning): "what's the lantern going for?"
///   says: expected "25"; got "Sorry, friend, you've lost me."
/// Accuracy by kind:
///   price      9/10   90.0%
/// ...
/// False claims: 0
/// Unasked actions: 0
/// Empty replies: 0
/// Clarifying questions: 2
/// Accuracy: 129/130 cases passed, 99.2%
/// ```
///
/// As JSON (`json`), documented in `docs/modding.md` ("Evaluating your NPCs").
public struct EvalReport: Sendable, Equatable {
    /// How many cases of a group passed.
    public struct Tally: Sendable, Equatable {
        /// The cases that passed.
        public var passed: Int
        /// All the cases.
        public var cases: Int

        /// Creates a tally.
        ///
        /// - Parameters:
        ///   - passed: The cases that passed.
        ///   - cases: All the cases.
        public init(passed: Int = 0, cases: Int = 0) {
            self.passed = passed
            self.cases = cases
        }

        /// `passed / cases`, from 0 to 1; 0 for no cases.
        public var accuracy: Double { cases == 0 ? 0 : Double(passed) / Double(cases) }

        mutating func count(_ passed: Bool) {
            cases += 1
            if passed { self.passed += 1 }
        }
    }

    /// Each case's result, in corpus order (file, then line).
    public var results: [EvalResult]

    /// Creates a report.
    ///
    /// - Parameter results: The results, in corpus order.
    public init(results: [EvalResult]) {
        self.results = results
    }

    /// All cases.
    public var overall: Tally {
        var tally = Tally()
        for result in results { tally.count(result.passed) }
        return tally
    }

    /// The cases of each kind.
    public var byKind: [String: Tally] { tallies { $0.kind } }
    /// The cases of each NPC.
    public var byNPC: [NPCID: Tally] { tallies { $0.npc } }
    /// The cases of each split.
    public var bySplit: [EvalCase.Split: Tally] { tallies { $0.split } }

    /// The false claims found, over all cases.
    public var falseClaims: Int { results.reduce(0) { $0 + $1.falseClaims.count } }
    /// The unasked actions found, over all cases (see `EvalRunner`).
    public var unaskedActions: Int { results.reduce(0) { $0 + $1.unaskedActions.count } }
    /// The cases whose reply was empty.
    public var emptyReplies: Int { results.count(where: \.emptyReply) }
    /// The cases answered with a clarifying question.
    public var clarifyingQuestions: Int { results.count(where: \.clarifyingQuestion) }
    /// Whether no case made a false claim, took an unasked action or gave an empty reply: what an NPC must never do,
    /// whatever the accuracy.
    public var isClean: Bool { falseClaims == 0 && unaskedActions == 0 && emptyReplies == 0 }
    /// The checks that could not apply, over all cases.
    public var skippedChecks: Int { results.reduce(0) { $0 + $1.skipped.count } }
    /// The results that failed.
    public var failures: [EvalResult] { results.filter { !$0.passed } }

    private func tallies<Key: Hashable>(_ key: (EvalCase) -> Key) -> [Key: Tally] {
        var tallies: [Key: Tally] = [:]
        for result in results { tallies[key(result.evalCase), default: Tally()].count(result.passed) }
        return tallies
    }

    // MARK: - Text

    /// The report as text: each failure, the accuracy per kind, NPC and split, the counts of false claims, unasked
    /// actions, empty replies and clarifying questions, the overall line.
    public var text: String {
        var lines: [String] = []
        for result in failures {
            let evalCase = result.evalCase
            lines.append(
                "FAIL \(evalCase.location) \(evalCase.id) (\(evalCase.kind), \(evalCase.split.rawValue)): "
                    + "\(Self.quoted(evalCase.say))")
            for failure in result.failures { lines.append("  \(failure)") }
            for skipped in result.skipped { lines.append("  \(skipped)") }
        }
        func table(_ title: String, _ rows: [(String, Tally)]) {
            lines.append("Accuracy by \(title):")
            let width = rows.map(\.0.count).max() ?? 0
            let countWidth = rows.map { "\($0.1.passed)/\($0.1.cases)".count }.max() ?? 0
            for (name, tally) in rows {
                let count = "\(tally.passed)/\(tally.cases)"
                lines.append(
                    "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + String(repeating: " ", count: countWidth - count.count) + count + "  "
                        + Self.padded(Self.percent(tally.accuracy), to: 6))
            }
        }
        table("kind", byKind.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        table("NPC", byNPC.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, $0.value) })
        table("split", bySplit.sorted { $0.key < $1.key }.map { ($0.key.rawValue, $0.value) })
        lines.append("False claims: \(falseClaims)")
        lines.append("Unasked actions: \(unaskedActions)")
        lines.append("Empty replies: \(emptyReplies)")
        lines.append("Clarifying questions: \(clarifyingQuestions)")
        lines += voiceLines
        if skippedChecks > 0 { lines.append("Skipped checks: \(skippedChecks) (they cannot apply to this model)") }
        let overall = overall
        lines.append("Accuracy: \(overall.passed)/\(overall.cases) cases passed, \(Self.percent(overall.accuracy))")
        return lines.map { $0 + "\n" }.joined()
    }

    /// `99.2%`: a fraction as a percentage with one decimal, rounded down so that a report never claims more.
    ///
    /// - Parameter fraction: A fraction from 0 to 1.
    /// - Returns: The percentage's text.
    public static func percent(_ fraction: Double) -> String {
        let tenths = Int(saturating: (fraction * 1000).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)%"
    }

    static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\n", with: " / ") + "\""
    }

    // MARK: - JSON

    /// The report as one JSON document:
    ///
    /// `{"cases", "passed", "accuracy", "falseClaims", "unaskedActions", "emptyReplies", "clarifyingQuestions",
    /// "skippedChecks", "byKind": {KIND: {"cases", "passed", "accuracy"}}, "byNPC": {...}, "bySplit": {...},
    /// "results": [{"id", "npc", "kind", "split", "file", "line", "say", "passed", "reply", "rule", "calls",
    /// "failures": [{"check", "expected", "actual"}], "skipped": [{"check", "reason"}], "falseClaims": [...],
    /// "unaskedActions": [...], "emptyReply", "clarifyingQuestion"}]}`. `rule` is the answering rule's asset id or `null`. With a
    /// server, the document also has `"voice"` (see `voiceJSON`) and each result its `"voicing"` (as in a turn
    /// recording) and `"firstWordsMilliseconds"`.
    public var json: JSONValue {
        func tally(_ tally: Tally) -> JSONValue {
            var object = JSONObject()
            object["cases"] = .integer(tally.cases)
            object["passed"] = .integer(tally.passed)
            object["accuracy"] = .double(Self.rounded(tally.accuracy))
            return .object(object)
        }
        func group<Key>(_ tallies: [Key: Tally], name: (Key) -> String) -> JSONValue {
            .object(JSONObject(tallies.map { (name($0.key), tally($0.value)) }.sorted { $0.0 < $1.0 }))
        }
        var document = JSONObject()
        let overall = overall
        document["cases"] = .integer(overall.cases)
        document["passed"] = .integer(overall.passed)
        document["accuracy"] = .double(Self.rounded(overall.accuracy))
        document["falseClaims"] = .integer(falseClaims)
        document["unaskedActions"] = .integer(unaskedActions)
        document["emptyReplies"] = .integer(emptyReplies)
        document["clarifyingQuestions"] = .integer(clarifyingQuestions)
        document["skippedChecks"] = .integer(skippedChecks)
        document["byKind"] = group(byKind) { $0 }
        document["byNPC"] = group(byNPC) { $0.rawValue }
        document["bySplit"] = .object(
            JSONObject(bySplit.sorted { $0.key < $1.key }.map { ($0.key.rawValue, tally($0.value)) }))
        if voice != nil { document["voice"] = voiceJSON }
        document["results"] = .array(results.map(Self.json(for:)))
        return .object(document)
    }

    /// A fraction rounded to 4 decimals, for JSON.
    static func rounded(_ fraction: Double) -> Double { (fraction * 10_000).rounded() / 10_000 }

    private static func json(for result: EvalResult) -> JSONValue {
        let evalCase = result.evalCase
        var object = JSONObject()
        object["id"] = .string(evalCase.id)
        object["npc"] = .string(evalCase.npc.rawValue)
        object["kind"] = .string(evalCase.kind)
        object["split"] = .string(evalCase.split.rawValue)
        object["file"] = .string(evalCase.file)
        object["line"] = .integer(evalCase.line)
        object["say"] = .string(evalCase.say)
        object["passed"] = .bool(result.passed)
        object["reply"] = .string(result.reply)
        object["rule"] = result.rule.map { .string($0.assetID) } ?? .null
        object["calls"] = .array(result.calls.map(JSONValue.string))
        object["failures"] = .array(
            result.failures.map { failure in
                .object(
                    JSONObject([
                        ("check", .string(failure.check)), ("expected", .string(failure.expected)),
                        ("actual", .string(failure.actual)),
                    ]))
            })
        object["skipped"] = .array(
            result.skipped.map { skipped in
                .object(JSONObject([("check", .string(skipped.check)), ("reason", .string(skipped.reason))]))
            })
        object["falseClaims"] = .array(result.falseClaims.map(JSONValue.string))
        object["unaskedActions"] = .array(result.unaskedActions.map(JSONValue.string))
        object["emptyReply"] = .bool(result.emptyReply)
        object["clarifyingQuestion"] = .bool(result.clarifyingQuestion)
        if let voicing = result.voicing {
            object["voicing"] = voicing.jsonValue
            object["firstWordsMilliseconds"] = result.firstWordsMilliseconds.map(JSONValue.double) ?? .null
        }
        return .object(object)
    }
}
