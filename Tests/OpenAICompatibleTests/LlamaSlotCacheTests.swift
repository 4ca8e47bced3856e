import Foundation
import LLMTestSupport
import LanguageModels
import Testing

@testable import OpenAICompatible

/// Slot files with a real llama-server (SmolLM2-135M-Instruct, `--slot-save-path`), which each test starts on a free
/// loopback port and stops: a switch of the slot's holder writes the holder's file, and a restore (after a switch, or
/// in a new server process) makes the next turn reuse the cache. `--cache-ram 0` switches the server's own prompt
/// cache in memory off, so that a cache hit after a switch can only come from the restored file. Only the protocol
/// and the token counts are checked, never what the model says. Skipped when the server is not installed, unless
/// PARLEY_LLM_TESTS=1.
@Suite(
    .serialized, .enabled(if: LlamaServerProcess.testsEnabled, Comment(rawValue: LlamaServerProcess.howToEnable)),
    .timeLimit(.minutes(10)))
struct LlamaSlotCacheTests {
    static let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 12)
    static let lines = ["Hello! What do you sell?", "How much is the lantern?", "Is the bread fresh?"]

    /// A fresh folder for slot files, removed afterwards.
    final class SlotFolder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-slots-\(UUID().uuidString)")
        var files: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static func connect(_ server: LlamaServerProcess) async throws -> OpenAICompatibleLanguageModel {
        var configuration = OpenAICompatibleLanguageModel.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.maximumRetries = 0
        return try await OpenAICompatibleLanguageModel.connect(configuration)
    }

    static func key(_ name: String) -> SlotCacheKey { SlotCacheKey(scope: "brackenford", name: name) }

    static func session(_ model: OpenAICompatibleLanguageModel, _ name: String) -> LanguageModelSession {
        LanguageModelSession(
            model: model.keepingCache(as: key(name)),
            instructions: "You are \(name), a merchant in the market town of Brackenford. You sell bread, candles, "
                + "lamp oil, a brass lantern and rope. Answer in one short sentence, in character.")
    }

    /// Says `lines` in turn and returns the last turn's usage.
    @discardableResult
    static func say(_ lines: [String], in session: LanguageModelSession) async throws -> GenerationUsage {
        var usage: GenerationUsage?
        for line in lines { usage = try await session.respond(to: line, options: options).usage }
        return try #require(usage)
    }

    @Test func switchingTheSlotsHolderWritesTheHoldersFile() async throws {
        let folder = SlotFolder()
        try await LlamaServerProcess.with(slotSavePath: folder.url, arguments: ["--cache-ram", "0"]) { server in
            let model = try await Self.connect(server)
            let mira = Self.session(model, "mira")
            try await Self.say(Array(Self.lines.prefix(2)), in: mira)
            #expect(folder.files.isEmpty, "turns write no file")
            try await Self.say(["Good day!"], in: Self.session(model, "bram"))
            let file = try #require(model.keepingCache(as: Self.key("mira")).cacheFileName)
            #expect(folder.files == [file], "Mira's cache was saved when Bram took the slot")
            #expect(await model.slotCacheSupport == .available)
            let statistics = await model.slotCacheStatistics
            #expect(statistics.saves == 1)
            #expect(statistics.savedBytes > 0)
        }
    }

    @Test func aRestoredCacheIsReusedAfterASwitch() async throws {
        let folder = SlotFolder()
        try await LlamaServerProcess.with(slotSavePath: folder.url, arguments: ["--cache-ram", "0"]) { server in
            let model = try await Self.connect(server)
            let mira = Self.session(model, "mira")
            try await Self.say(Array(Self.lines.prefix(2)), in: mira)
            try await Self.say(["Good day!"], in: Self.session(model, "bram"))
            let usage = try await Self.say(["Is the bread fresh?"], in: mira)
            #expect(await model.slotCacheStatistics.restores == 1, "Mira's file came back into the slot")
            let cached = try #require(usage.cachedPromptTokens)
            #expect(cached > 0)
            #expect(usage.promptTokens - cached < usage.promptTokens / 2, "\(usage): mostly reused, not processed")
        }
    }

    @Test func aCacheOutlivesTheServerProcess() async throws {
        let folder = SlotFolder()
        var transcript = Transcript()
        try await LlamaServerProcess.with(slotSavePath: folder.url) { server in
            let model = try await Self.connect(server)
            let mira = Self.session(model, "mira")
            try await Self.say(Self.lines, in: mira)
            await model.saveSlotCaches()
            #expect(folder.files.count == 1, "saved as the game closes")
            transcript = mira.transcript
        }
        // A new server process (its memory empty) and a new backend, as after `parley play --continue`.
        try await LlamaServerProcess.with(slotSavePath: folder.url) { server in
            let model = try await Self.connect(server)
            let mira = LanguageModelSession(model: model.keepingCache(as: Self.key("mira")), transcript: transcript)
            let usage = try await Self.say(["And the rope?"], in: mira)
            #expect(await model.slotCacheStatistics.restores == 1)
            let cached = try #require(usage.cachedPromptTokens)
            #expect(cached > 0)
            #expect(usage.promptTokens - cached < usage.promptTokens / 2, "\(usage)")
            // The turn answered, and its entries joined the transcript.
            #expect(mira.transcript.count == transcript.count + 2)
        }
    }

    @Test func aServerWithoutSlotSavePathIsUsedAsBefore() async throws {
        try await LlamaServerProcess.with { server in
            let model = try await Self.connect(server)
            try await Self.say(["Hello!"], in: Self.session(model, "mira"))
            try await Self.say(["Hello!"], in: Self.session(model, "bram"))
            try await Self.say(["Hello again!"], in: Self.session(model, "mira"))
            await model.saveSlotCaches()
            #expect(await model.slotCacheSupport == .unavailable)
            let statistics = await model.slotCacheStatistics
            #expect(statistics.saves == 0)
            #expect(statistics.restores == 0)
        }
    }

    @Test func aPrewarmFillsTheCacheOfTheTurnThatFollows() async throws {
        let folder = SlotFolder()
        try await LlamaServerProcess.with(slotSavePath: folder.url, arguments: ["--cache-ram", "0"]) { server in
            let model = try await Self.connect(server)
            let mira = Self.session(model, "mira")
            // What the session's prewarm(promptPrefix:) sends, awaited here instead of in the background.
            await mira.model.prewarm(for: GenerationRequest(transcript: mira.transcript))
            #expect(await model.slotCacheStatistics.prewarms == 1, "the server took max_tokens 0")
            let usage = try await Self.say(["Hello! What do you sell?"], in: mira)
            let cached = try #require(usage.cachedPromptTokens)
            #expect(cached > 0, "\(usage): the instructions were processed by the prewarm")
        }
    }
}
