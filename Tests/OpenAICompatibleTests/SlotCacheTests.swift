import Foundation
import HTTPTestSupport
import LanguageModels
import ParleyJSON
import Testing

@testable import OpenAICompatible

/// Keyed copies of the backend keep their KV caches in llama-server's slot files: a slot's holder is saved when the
/// slot changes hands and when the game saves, and a key's file is restored when it comes back; servers without
/// slot actions (Ollama, vLLM, OpenAI, llama-server without `--slot-save-path`) get no slot request, or one that
/// fails unseen, after which the backend stops trying. The fake server checks the protocol, not any cache.
@Suite(.timeLimit(.minutes(10)))
struct SlotCacheTests {
    static func request(_ line: String = "Hello?") -> GenerationRequest {
        GenerationRequest(
            transcript: Transcript(entries: [
                .instructions(.init(segments: [.text(.init(content: "You are Mira."))], toolDefinitions: [])),
                .prompt(.init(segments: [.text(.init(content: line))])),
            ]),
            options: GenerationOptions(maximumResponseTokens: 8))
    }

    static func key(_ name: String) -> SlotCacheKey { SlotCacheKey(scope: "w", name: name) }

    /// Plays one request for each name in turn, each on its key's copy of one backend.
    static func play(_ names: [String], on model: OpenAICompatibleLanguageModel) async throws {
        for name in names {
            _ = try await model.keepingCache(as: key(name)).generate(request())
        }
    }

    @Test func aKeysFirstRequestTriesItsFileAndIsPinnedToTheSlot() async throws {
        let server = try FakeSlotServer(slots: 1)
        defer { server.stop() }
        let model = try server.model()
        let mira = model.keepingCache(as: Self.key("mira"))
        _ = try await mira.generate(Self.request())
        let file = try #require(mira.cacheFileName)
        #expect(server.actions == [.init(name: "restore", slot: 0, fileName: file)])
        #expect(server.chatSlots == [0])
        let statistics = await model.slotCacheStatistics
        #expect(statistics.failedRestores == 1, "no file yet: harmless")
        #expect(await model.slotCacheSupport == .available)
    }

    @Test func switchingTheSlotsHolderSavesItThenRestoresTheOther() async throws {
        let server = try FakeSlotServer(slots: 1)
        defer { server.stop() }
        let model = try server.model()
        try await Self.play(["mira", "bram", "mira"], on: model)
        let mira = try #require(model.keepingCache(as: Self.key("mira")).cacheFileName)
        let bram = try #require(model.keepingCache(as: Self.key("bram")).cacheFileName)
        #expect(
            server.actions.map(\.description) == [
                "restore 0 \(mira)", "save 0 \(mira)", "restore 0 \(bram)", "save 0 \(bram)", "restore 0 \(mira)",
            ])
        #expect(server.chatSlots == [0, 0, 0])
        let statistics = await model.slotCacheStatistics
        #expect(statistics.saves == 2)
        #expect(statistics.restores == 1, "Mira's file, saved when Bram took the slot")
        #expect(statistics.savedBytes == 8192)
    }

    @Test func theSlotsOwnHolderNeedsNoSlotAction() async throws {
        let server = try FakeSlotServer(slots: 1)
        defer { server.stop() }
        try await Self.play(["mira", "mira", "mira"], on: try server.model())
        #expect(server.actions.map(\.name) == ["restore"])
        #expect(server.chatSlots == [0, 0, 0])
    }

    @Test func eachSlotKeepsItsHolderAndTheOneUsedLongestAgoMakesWay() async throws {
        let server = try FakeSlotServer(slots: 2)
        defer { server.stop() }
        let model = try server.model()
        try await Self.play(["mira", "bram", "mira", "bram"], on: model)
        #expect(server.actions.map(\.name) == ["restore", "restore"])
        #expect(server.chatSlots == [0, 1, 0, 1])
        // Oona needs a slot: Mira's was used longest ago, so Mira is saved and Oona takes slot 0.
        try await Self.play(["oona"], on: model)
        let mira = try #require(model.keepingCache(as: Self.key("mira")).cacheFileName)
        #expect(server.actions.suffix(2).map(\.description).first == "save 0 \(mira)")
        #expect(server.chatSlots.last == 0)
    }

    @Test(arguments: [404, 405, 501])
    func aServerWithoutSlotActionsIsUsedAsBeforeAndNotAskedAgain(status: Int) async throws {
        let server = try FakeSlotServer(slots: 1, actions: .refused(status: status))
        defer { server.stop() }
        let model = try server.model()
        try await Self.play(["mira", "bram", "mira", "bram"], on: model)
        #expect(server.slotRequests == 1, "one try, unseen by the player; then none")
        #expect(server.chatSlots == [nil, nil, nil, nil], "requests are not pinned")
        await model.saveSlotCaches()
        await model.prewarm(for: Self.request())
        #expect(server.slotRequests == 1)
        #expect(await model.slotCacheSupport == .unavailable)
    }

    @Test func serversThatAreNotLlamaServerGetNoSlotRequestAndNoPrewarm() async throws {
        let server = try LoopbackHTTPServer { request in
            if request.path.hasSuffix("/models") { return .json(#"{"data":[{"id":"llama3.2","owned_by":"library"}]}"#) }
            if request.path.hasSuffix("/chat/completions") { return .json(ServerTest.completion("Hm.")) }
            return .text("404 page not found", status: 404)
        }
        defer { server.stop() }
        let model = try ServerTest.model(server)
        let mira = model.keepingCache(as: Self.key("mira"))
        _ = try await mira.generate(Self.request())
        await mira.prewarm(for: Self.request())
        await mira.saveSlotCaches()
        _ = try await model.keepingCache(as: Self.key("bram")).generate(Self.request())
        #expect(!server.requests.contains { $0.path.hasPrefix("/slots") })
        let chats = ServerTest.chatRequests(server)
        #expect(chats.count == 2, "the prewarm sent nothing")
        for chat in chats { #expect(!chat.bodyText.contains("id_slot")) }
    }

    @Test(arguments: [
        LoopbackResponse.json(#"{"error":{"code":500,"message":"failed to read"}}"#, status: 500),
        .reset,
        .hang,
    ])
    func aFailedRestoreIsHarmless(restore: LoopbackResponse) async throws {
        let server = try FakeSlotServer(slots: 1, actions: .restoring(restore))
        defer { server.stop() }
        let model = try server.model(slotCacheTimeout: .milliseconds(300))
        let reply = try await model.keepingCache(as: Self.key("mira")).generate(Self.request())
        #expect(reply.output == .text("Hm."), "the turn still answers")
        #expect(server.chatSlots == [0])
        #expect(await model.slotCacheStatistics.failedRestores == 1)
    }

    @Test func savingTheGameSavesOnlyTheSlotsThatChanged() async throws {
        let server = try FakeSlotServer(slots: 2)
        defer { server.stop() }
        let model = try server.model()
        try await Self.play(["mira", "bram"], on: model)
        await model.saveSlotCaches()
        #expect(server.actions.filter { $0.name == "save" }.map(\.slot).sorted() == [0, 1])
        #expect(server.has(fileOf: "mira") && server.has(fileOf: "bram"))
        await model.saveSlotCaches()
        #expect(server.actions.filter { $0.name == "save" }.count == 2, "nothing changed since")
        try await Self.play(["bram"], on: model)
        await model.saveSlotCaches()
        #expect(server.actions.last == .init(name: "save", slot: 1, fileName: server.actions.last?.fileName ?? ""))
        #expect(server.actions.filter { $0.name == "save" }.count == 3)
    }

    @Test func streamedRequestsArePinnedToo() async throws {
        let server = try FakeSlotServer(slots: 1) { _ in .eventStream(ServerTest.stream(["Hm."])) }
        defer { server.stop() }
        let model = try server.model()
        var text = ""
        for try await update in model.keepingCache(as: Self.key("mira")).streamGeneration(Self.request()) {
            if case .text(let delta) = update { text += delta }
        }
        #expect(text == "Hm.")
        #expect(server.chatSlots == [0])
    }

    @Test func aCopyWithoutAKeyIsNotPinned() async throws {
        let server = try FakeSlotServer(slots: 1)
        defer { server.stop() }
        let model = try server.model()
        _ = try await model.generate(Self.request())
        _ = try await model.replying(inAtMost: 2).generate(Self.request())
        #expect(server.slotRequests == 0)
        #expect(server.chatSlots == [nil, nil])
    }

    @Test func keysSwitchedOffInTheConfigurationAreNotPinned() async throws {
        let server = try FakeSlotServer(slots: 1)
        defer { server.stop() }
        var configuration = try server.model().configuration
        configuration.keepsSlotCaches = false
        let model = try OpenAICompatibleLanguageModel(configuration: configuration)
        try await Self.play(["mira", "bram"], on: model)
        #expect(server.slotRequests == 0)
        #expect(server.chatSlots == [nil, nil])
    }

    // MARK: - Prewarm

    @Test func aPrewarmFillsTheKeysSlotWithoutGenerating() async throws {
        let server = try FakeSlotServer(slots: 1)
        defer { server.stop() }
        let model = try server.model()
        let mira = model.keepingCache(as: Self.key("mira"))
        await mira.prewarm(for: Self.request())
        #expect(server.chatSlots == [0])
        #expect(server.chatMaxTokens == [0])
        _ = try await mira.generate(Self.request())
        #expect(server.actions.map(\.name) == ["restore"], "the turn found Mira in her slot")
        #expect(await model.slotCacheStatistics.prewarms == 1)
    }

    @Test func aPrewarmWithoutSlotFilesIsSentUnpinned() async throws {
        let server = try FakeSlotServer(slots: 1, actions: .refused(status: 501))
        defer { server.stop() }
        let model = try server.model()
        await model.keepingCache(as: Self.key("mira")).prewarm(for: Self.request())
        await model.prewarm(for: Self.request())
        #expect(server.chatSlots == [nil, nil])
        #expect(server.chatMaxTokens == [0, 0])
    }

    @Test func aRealRequestCancelsAPrewarmOfAnotherKey() async throws {
        // Bram's prewarm never gets an answer; Mira's turn needs the only slot. Were the prewarm not cancelled, the
        // turn would wait for it until the suite's time limit.
        let server = try FakeSlotServer(slots: 1) { request in
            request.bodyText.contains(#""max_tokens":0"#) ? .hang : .json(ServerTest.completion("Hm."))
        }
        defer { server.stop() }
        let model = try server.model()
        let prewarm = Task { await model.keepingCache(as: Self.key("bram")).prewarm(for: Self.request()) }
        #expect(await server.http.wait(timeout: .seconds(90)) { _ in server.chatSlots.count == 1 })
        let reply = try await model.keepingCache(as: Self.key("mira")).generate(Self.request())
        #expect(reply.output == .text("Hm."))
        await prewarm.value
        let statistics = await model.slotCacheStatistics
        #expect(statistics.cancelledPrewarms == 1)
        #expect(statistics.prewarms == 0)
        #expect(server.chatSlots == [0, 0])
    }

    @Test func aPrewarmGivesWayToARealRequestInProgress() async throws {
        let gate = try LoopbackGate()
        let server = try FakeSlotServer(slots: 2) { request in
            request.bodyText.contains(#""max_tokens":0"#)
                ? .json(ServerTest.completion(""))
                : .gated(gate, timeout: .seconds(90), then: .json(ServerTest.completion("Hm.")))
        }
        defer { server.stop() }
        let model = try server.model()
        let turn = Task { try await model.keepingCache(as: Self.key("mira")).generate(Self.request()) }
        #expect(await server.http.wait(timeout: .seconds(90)) { _ in gate.waitingCount == 1 })
        await model.keepingCache(as: Self.key("bram")).prewarm(for: Self.request())
        #expect(server.chatSlots.count == 1, "the prewarm sent nothing while the turn ran")
        gate.open()
        _ = try await turn.value
        #expect(await model.slotCacheStatistics.cancelledPrewarms == 1)
    }

    @Test func aPrewarmOfTheSameKeyIsWaitedForNotCancelled() async throws {
        let gate = try LoopbackGate()
        let server = try FakeSlotServer(slots: 1) { request in
            request.bodyText.contains(#""max_tokens":0"#)
                ? .gated(gate, timeout: .seconds(90), then: .json(ServerTest.completion("")))
                : .json(ServerTest.completion("Hm."))
        }
        defer { server.stop() }
        let model = try server.model()
        let mira = model.keepingCache(as: Self.key("mira"))
        let prewarm = Task { await mira.prewarm(for: Self.request()) }
        #expect(await server.http.wait(timeout: .seconds(90)) { _ in gate.waitingCount == 1 })
        let turn = Task { try await mira.generate(Self.request()) }
        gate.open()
        _ = try await turn.value
        await prewarm.value
        let statistics = await model.slotCacheStatistics
        #expect(statistics.prewarms == 1)
        #expect(statistics.cancelledPrewarms == 0)
        #expect(server.chatMaxTokens == [0, 8], "the turn came after the prewarm, in the same slot")
        #expect(server.actions.map(\.name) == ["restore"])
    }

    @Test func aTurnCancelledWhileWaitingForItsSlotStopsWaiting() async throws {
        let gate = try LoopbackGate()
        let server = try FakeSlotServer(slots: 1) { _ in
            .gated(gate, timeout: .seconds(90), then: .json(ServerTest.completion("Hm.")))
        }
        defer {
            gate.open()
            server.stop()
        }
        let model = try server.model()
        let first = Task { try await model.keepingCache(as: Self.key("mira")).generate(Self.request()) }
        #expect(await server.http.wait(timeout: .seconds(90)) { _ in gate.waitingCount == 1 })
        let second = Task { try await model.keepingCache(as: Self.key("bram")).generate(Self.request()) }
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        gate.open()
        _ = try await first.value
        #expect(server.chatSlots == [0], "the cancelled turn sent nothing")
    }
}
