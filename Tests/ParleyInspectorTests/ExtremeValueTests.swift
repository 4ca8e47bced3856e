import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import ParleyJSON
import SaveGames
import Testing

@testable import ParleyInspector

/// Numbers from outside (a model server's counts and context window, a save's recordings, however they got there)
/// reach every inspector page and every command that shows a save's recordings: each page and each command must
/// come out whole, never trap (one trap ends `parley serve` and every game in it), and show no nonsense such as
/// `nan` coordinates or negative token counts.
@Suite(.timeLimit(.minutes(10))) struct ExtremeValueTests {
    /// JSON numbers at and beyond the ends of `Int` and `Double`: `1e400` reads as an infinite `Double`.
    static let extremes = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e300", "-1e300", "1e400", "-1e400",
        "0", "-1", "0.5",
    ]

    /// A model server that reports the largest context window there is, as `max_model_len: 2^63-1` does: no
    /// tampering, just a game played against it, then its pages.
    @Test func aModelWithTheLargestContextWindowLeavesEveryPageWhole() async throws {
        try await InspectorFixture.with { fixture in
            try await fixture.play(
                ["talk to mira", "how much is the lantern?"], slot: "huge",
                models: { _, _ in MockLanguageModel(contextSize: .max) { _ in .text("Ten gold, friend.") } })
            let recordings = try SaveGameStore(folder: fixture.folder).open(slot: "huge", access: .readOnly)
                .turnRecordings()
            try #require(recordings.contains { $0.contextSize == .max }, "the recordings keep the window the model had")
            try await Self.expectEveryPageWhole(fixture, slot: "huge")
        }
    }

    /// Each extreme number in every numeric field of every recording of a save.
    @Test func extremeNumbersInRecordingsLeaveEveryPageAndCommandWhole() async throws {
        try await InspectorFixture.with { fixture in
            for (index, number) in Self.extremes.enumerated() {
                let slot = "extreme-\(index)"
                try await fixture.saveWithARefusedOffer(slot: slot)
                try Self.tamper(slot, in: fixture.folder, with: number)
                try await Self.expectEveryPageWhole(fixture, slot: slot, number: number)
                // The pages read the tampered recordings: the count saturates, and is never below 0.
                let expected = max(try #require(JSONNumber(text: number)).saturatingIntValue, 0)
                let turns = try await fixture.json("/v1/saves/\(slot)/conversations/mira").json["turns"]
                #expect(turns?[0]?["usage"]?["promptTokens"]?.intValue == expected, "\(number)")
                for arguments in [
                    ["saves", "show", slot], ["transcript", slot, "mira"], ["transcript", slot, "mira", "--json"],
                    ["transcript", slot, "mira", "--annotated"], ["recordings", "export", slot],
                ] {
                    let run = try await runParley(arguments + ["--saves", fixture.folder.path])
                    #expect(run.status == 0, "parley \(arguments.joined(separator: " ")) with \(number): \(run.err)")
                    #expect(!run.out.isEmpty && !run.err.contains("Fatal error"), "\(number): \(run.err)")
                }
            }
        }
    }

    /// Adds to a save, for each of its recordings, a later one of the same turn whose numbers are all `number`.
    static func tamper(_ slot: String, in folder: URL, with number: String) throws {
        let file = try SaveGameStore(folder: folder).open(slot: slot)
        let value = JSONValue.number(try #require(JSONNumber(text: number)))
        let later = Date().addingTimeInterval(3600)
        for (index, saved) in try file.recordings().enumerated() {
            var object = try #require(try JSONValue(parsing: Array(saved.json.utf8)).objectValue)
            object["id"] = .string("tampered-\(index)")
            object["usage"] = ["promptTokens": value, "cachedPromptTokens": value, "completionTokens": value]
            object["timings"] = ["firstWordsMilliseconds": value, "totalMilliseconds": value]
            object["contextSize"] = value
            object["trim"] = ["count": value, "notes": "what was kept"]
            try file.addRecording(
                id: "tampered-\(index)", npc: saved.npc, createdAt: later.addingTimeInterval(Double(index)),
                json: JSONValue.object(object).jsonString())
        }
    }

    /// Every page and JSON route of a save answers 200 with a whole, sane document.
    static func expectEveryPageWhole(_ fixture: InspectorFixture, slot: String, number: String = "") async throws {
        let reports = try await fixture.json("/v1/saves/\(slot)/feedback").json["reports"]?.arrayValue ?? []
        var pages = ["/inspect", "/inspect/saves/\(slot)", "/inspect/saves/\(slot)/npcs/mira"]
        pages += reports.compactMap { $0["id"]?.stringValue }.map { "/inspect/saves/\(slot)/feedback/\($0)" }
        for path in pages {
            let response = try await fixture.client.execute(.get(fixture.url(path)))
            #expect(response.status == 200, "\(path) with \(number)")
            expectSane(response.bodyText, path: path, number: number)
            #expect(response.bodyText.contains("</html>"), "\(path) with \(number) is cut short")
        }
        // The replay page, rendered as its route renders it.
        let replay = try await fixture.inspector.replayReport(slot)
        expectSane(
            InspectorPages.replay(replay, slot: slot, modelName: "scripted").description, path: "replay",
            number: number)
        for path in [
            "/v1/saves", "/v1/saves/\(slot)", "/v1/saves/\(slot)/conversations/mira", "/v1/saves/\(slot)/feedback",
        ] {
            let (status, json) = try await fixture.json(path)
            #expect(status == 200, "\(path) with \(number)")
            #expect(!json.isNull, "\(path) with \(number) is not JSON")
        }
        let (_, conversation) = try await fixture.json("/v1/saves/\(slot)/conversations/mira")
        for turn in conversation["turns"]?.arrayValue ?? [] {
            for count in ["promptTokens", "cachedPromptTokens", "completionTokens"] {
                if let tokens = turn["usage"]?[count]?.intValue { #expect(tokens >= 0, "\(number): \(turn)") }
            }
            if let window = turn["contextSize"]?.intValue { #expect(window > 0, "\(number): \(turn)") }
            if let trims = turn["trim"]?["count"]?.intValue { #expect(trims > 0, "\(number): \(turn)") }
            if let first = turn["firstWordsMilliseconds"]?.doubleValue {
                #expect(first.isFinite && first >= 0, "\(number): \(turn)")
            }
        }
    }

    /// No coordinate or figure that is not a number, and no negative count.
    static func expectSane(_ page: String, path: String, number: String) {
        let nonsense = [
            "\"nan\"", "\"-nan\"", "nan,", ",nan", "nan ms", "\"inf\"", "\"-inf\"", "inf,", ",inf", ",-inf", "-1 ms",
            "-9223372036854775808", "<dd>-",
        ]
        for text in nonsense {
            #expect(!page.contains(text), "\(path) with \(number) shows \"\(text)\"")
        }
    }
}
