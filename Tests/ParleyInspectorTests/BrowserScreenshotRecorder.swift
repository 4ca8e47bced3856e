import ChildProcess
import Foundation
import ParleyBasics
import Testing

/// Takes the README's picture of the inspector (`docs/images/inspector-conversation.png`) with headless Chromium's
/// `--screenshot`, from a conversation real games made: run with `PARLEY_RECORD_SCREENSHOT=1` to take it again, and
/// review the new picture as a diff.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["PARLEY_RECORD_SCREENSHOT"] == "1",
        "records docs/images/inspector-conversation.png when PARLEY_RECORD_SCREENSHOT=1"),
    .timeLimit(.minutes(10)))
struct BrowserScreenshotRecorder {
    static let picture = InspectorFixture.root.appendingPathComponent("docs/images/inspector-conversation.png")

    @Test func recordTheREADMEScreenshot() async throws {
        let chromium = try #require(HeadlessChromium.chromium, "\(HeadlessChromium.howToEnable)")
        try await InspectorFixture.with { fixture in
            try await fixture.play(
                [
                    "talk to mira", "how much is the lantern?", "would you take 15?", "what else do you sell?",
                    "tell me about the market", "how much is the rope?", "I will take it", "accept",
                    "do you remember my name?", "how much is the lantern now?",
                ], slot: "market", models: InspectorFixture.smallWindowModel)
            try FileManager.default.createDirectory(
                at: Self.picture.deletingLastPathComponent(), withIntermediateDirectories: true)
            let url = fixture.url("/inspect/saves/market/npcs/mira")
            let profile = fixture.folder.appendingPathComponent("chromium-profile")
            let run = try await offThePool {
                try ChildProcess.run(
                    chromium,
                    arguments: [
                        "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                        "--user-data-dir=\(profile.path)", "--window-size=960,1180",
                        "--screenshot=\(Self.picture.path)", url,
                    ])
            }
            #expect(run.termination == .exited(0), "\(String(decoding: run.error, as: UTF8.self))")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: Self.picture.path)[.size] as? Int)
            #expect(size > 10_000 && size < 400_000, "\(size) bytes")
        }
    }
}
