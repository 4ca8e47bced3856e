import FoundationModels
import Observation
import Synchronization
import Testing

/// Apple-style code against `SystemLanguageModel.default`, configured by nothing, by `PARLEY_MODEL`, and by code.
/// The suite is serialized: the configuration is the process's. The environment it reads is its own
/// (`NoProcessEnvironment`), never the process's, which it never changes.
@Suite(.serialized, NoProcessEnvironment()) struct SystemLanguageModelTests {
    /// A model written in the test, answering every request with `reply` and counting requests.
    final class ReplyingModel: LanguageModel, @unchecked Sendable {
        let reply: String
        private let lock = NSLock()
        private var requests = 0
        init(reply: String) { self.reply = reply }
        var id: String { "replying" }
        var version: String { "1" }
        var contextSize: Int { 4096 }
        var requestCount: Int { lock.withLock { requests } }
        func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int { entries.count }
        func tokenCount(for schema: GenerationSchema) async throws -> Int { 1 }
        func generate(_ request: GenerationRequest) async throws -> Generation {
            lock.withLock { requests += 1 }
            return Generation(output: .text(reply))
        }
    }

    /// No configuration and no environment.
    func unconfigure() {
        SystemLanguageModel.resetConfiguration()
    }

    /// Runs `body` with `PARLEY_MODEL` set to `value` for this task only (`SystemLanguageModel.environment`): the
    /// process's environment is never changed, since the tests beside this one and the processes they start share it.
    func withModelEnvironment<T>(_ value: String, _ body: () async throws -> T) async rethrows -> T {
        try await SystemLanguageModel.$environment.withValue([SystemLanguageModel.environmentVariable: value]) {
            try await body()
        }
    }

    @Test("Unconfigured, the model is unavailable, and says how to configure one")
    func unconfigured() async throws {
        unconfigure()
        let model = SystemLanguageModel.default
        #expect(model.availability == .unavailable(.notConfigured))
        #expect(!model.isAvailable)
        guard case .unavailable(let reason) = model.availability else { return }
        #expect("\(reason)".contains("PARLEY_MODEL") && "\(reason)".contains("SystemLanguageModel.configure"))
        let session = LanguageModelSession()
        let error = await #expect(throws: SystemLanguageModel.Error.self) {
            try await session.respond(to: "Plan a trip.")
        }
        #expect(error.map { "\($0)".contains("PARLEY_MODEL") } == true, "\(String(describing: error))")
        #expect(session.transcript.count <= 1, "the failed turn was rolled back")
    }

    /// An unconfigured model's error is what Apple 27 throws; its 26.x form (what sessions throw with the
    /// `FoundationModels26Errors` trait) is `GenerationError.assetsUnavailable`, which converts back to nothing
    /// (`LanguageModelError` has no such case) and keeps the description.
    @available(*, deprecated)
    @Test("An unconfigured model's error converts to GenerationError.assetsUnavailable")
    func unconfiguredErrorHasA26Form() async throws {
        unconfigure()
        var thrown: (any Error)?
        do { try await LanguageModelSession().respond(to: "Plan a trip.") } catch { thrown = error }
        let error = try #require(thrown as? SystemLanguageModel.Error)
        let old = try #require(LanguageModelSession.GenerationError(error))
        guard case .assetsUnavailable(let context) = old else {
            Issue.record("not assetsUnavailable: \(old)")
            return
        }
        #expect(context.debugDescription.contains("PARLEY_MODEL"), "\(context.debugDescription)")
        #expect(LanguageModelError(old) == nil)
    }

    @Test("Apple's switch over its reasons compiles, and an unconfigured model takes its first reason")
    func applesReasons() {
        unconfigure()
        let shown: String
        switch SystemLanguageModel.default.availability {
        case .available: shown = "available"
        case .unavailable(.deviceNotEligible): shown = "not eligible"
        case .unavailable(.appleIntelligenceNotEnabled): shown = "not enabled"
        case .unavailable(.modelNotReady): shown = "not ready"
        case .unavailable(let other): shown = "other: \(other)"
        }
        #expect(shown == "not eligible")
    }

    @Test("A PARLEY_MODEL that is not a model says what is wrong with it, as parley --model does")
    func invalidEnvironment() async throws {
        unconfigure()
        await withModelEnvironment("htp:/x") {
            #expect(!SystemLanguageModel.default.isAvailable)
            let error = await #expect(throws: SystemLanguageModel.Error.self) {
                try await LanguageModelSession().respond(to: "Hello")
            }
            #expect(error.map { "\($0)".contains("starts with http:// or https://") } == true)
        }
    }

    @Test("PARLEY_MODEL with a server's URL: available, and LanguageModelSession() answers from the server")
    func environmentServer() async throws {
        unconfigure()
        let server = try LoopbackModelServer(reply: "Three days in Eastmarch.")
        defer { server.stop() }
        try await withModelEnvironment(server.url) {
            #expect(SystemLanguageModel.default.availability == .available)
            let session = LanguageModelSession(instructions: "You plan short trips.")
            let response = try await session.respond(to: "Plan a trip.")
            #expect(response.content == "Three days in Eastmarch.")
            #expect(server.chatBodies.count == 1)
            #expect(server.chatBodies.first?.contains("You plan short trips.") == true)
        }
    }

    @Test("Code comes before the environment: configure(_:) with a model, then with a server's URL")
    func codeBeforeEnvironment() async throws {
        unconfigure()
        try await withModelEnvironment("scripted") {
            let model = ReplyingModel(reply: "From code.")
            SystemLanguageModel.configure(model)
            defer { SystemLanguageModel.resetConfiguration() }
            #expect(SystemLanguageModel.default.isAvailable)
            let session = LanguageModelSession {
                "You plan short trips."
            }
            #expect(try await session.respond(to: "Plan a trip.").content == "From code.")
            #expect(model.requestCount == 1)

            let server = try LoopbackModelServer(reply: "From the server.")
            defer { server.stop() }
            try SystemLanguageModel.configure(server.url)
            #expect(try await LanguageModelSession().respond(to: "Plan a trip.").content == "From the server.")
            #expect(model.requestCount == 1)
        }
    }

    @Test("A session continues a transcript with the default model")
    func transcriptInit() async throws {
        unconfigure()
        SystemLanguageModel.configure(ReplyingModel(reply: "Again."))
        defer { SystemLanguageModel.resetConfiguration() }
        let first = LanguageModelSession(tools: [], instructions: "Be brief.")
        _ = try await first.respond(to: "Hello")
        let second = LanguageModelSession(transcript: first.transcript)
        _ = try await second.respond(to: "Hello again")
        #expect(second.transcript.count == first.transcript.count + 2)
    }

    @Test("An adapter the server loaded is named in every request; one it lacks makes the model unavailable")
    func adapters() async throws {
        unconfigure()
        let server = try LoopbackModelServer(
            reply: "tagged",
            adapters: #"[{"id":0,"path":"/srv/other.gguf","scale":0.0},"#
                + #"{"id":1,"path":"/srv/tagger.gguf","scale":0.0}]"#)
        defer { server.stop() }
        try SystemLanguageModel.configure(server.url)
        defer { SystemLanguageModel.resetConfiguration() }

        let tagger = SystemLanguageModel(adapter: try .init(fileURL: URL(fileURLWithPath: "adapters/tagger.gguf")))
        #expect(tagger.availability == .available)
        #expect(try await LanguageModelSession(model: tagger).respond(to: "Tag this").content == "tagged")
        let body = try #require(server.chatBodies.last)
        #expect(body.contains(#""lora":[{"id":1,"scale":1"#), "\(body)")

        let missing = SystemLanguageModel(adapter: try .init(name: "summarizer"))
        #expect(missing.availability == .unavailable(.adapterUnavailable))
        let error = await #expect(throws: SystemLanguageModel.Error.self) {
            try await LanguageModelSession(model: missing).respond(to: "Sum up")
        }
        #expect(error.map { "\($0)".contains("has not loaded the adapter summarizer") } == true)
    }

    @Test("Apple's adapter management: compile checks the server loaded it; identifiers and compatibility are its list")
    func adapterManagement() async throws {
        unconfigure()
        // Nothing configured: no identifiers, nothing compatible, and compile says why.
        #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "tagger").isEmpty)
        #expect(!SystemLanguageModel.Adapter.isCompatible(AssetPack(id: "tagger")))
        let unconfigured = await #expect(throws: SystemLanguageModel.Adapter.AssetError.self) {
            try await SystemLanguageModel.Adapter(name: "tagger").compile()
        }
        #expect(unconfigured?.errorDescription?.contains("PARLEY_MODEL") == true, "\(String(describing: unconfigured))")

        let server = try LoopbackModelServer(
            reply: "tagged",
            adapters: #"[{"id":0,"path":"/srv/other.gguf","scale":0.0},"#
                + #"{"id":1,"path":"/srv/tagger.gguf","scale":0.0},{"id":2,"path":"tagger.bin","scale":0.0}]"#)
        defer { server.stop() }
        try SystemLanguageModel.configure(server.url)
        defer { SystemLanguageModel.resetConfiguration() }

        #expect(
            SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "tagger") == [
                "/srv/tagger.gguf", "tagger.bin",
            ])
        #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "other") == ["/srv/other.gguf"])
        #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "summarizer").isEmpty)
        #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "").isEmpty)
        #expect(SystemLanguageModel.Adapter.isCompatible(AssetPack(id: "tagger")))
        #expect(SystemLanguageModel.Adapter.isCompatible(AssetPack(id: "/srv/tagger.gguf")))
        #expect(!SystemLanguageModel.Adapter.isCompatible(AssetPack(id: "/elsewhere/tagger.gguf")))
        #expect(!SystemLanguageModel.Adapter.isCompatible(AssetPack(id: "summarizer")))

        try await SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: "adapters/tagger.gguf")).compile()
        let missing = await #expect(throws: SystemLanguageModel.Adapter.AssetError.self) {
            try await SystemLanguageModel.Adapter(name: "summarizer").compile()
        }
        #expect(
            missing?.errorDescription?.contains("has not loaded the adapter summarizer") == true,
            "\(String(describing: missing))")
        // Nothing is downloaded for an adapter here, so there is nothing obsolete to remove; the server's list stays.
        try SystemLanguageModel.Adapter.removeObsoleteAdapters()
        #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "tagger").count == 2)
        // Asking changed nothing on the server: only its list was read.
        #expect(server.chatBodies.isEmpty)

        // A server without adapters: none compatible, and compile says so.
        let plain = try LoopbackModelServer(reply: "plain")
        defer { plain.stop() }
        try SystemLanguageModel.configure(plain.url)
        #expect(SystemLanguageModel.Adapter.compatibleAdapterIdentifiers(name: "tagger").isEmpty)
        await #expect(throws: SystemLanguageModel.Adapter.AssetError.self) {
            try await SystemLanguageModel.Adapter(name: "tagger").compile()
        }
    }

    @Test("SystemLanguageModel is Observable: who read availability is told when the configuration changes")
    func observable() throws {
        unconfigure()
        let model = SystemLanguageModel.default
        let tagging = SystemLanguageModel(useCase: .contentTagging)
        let changes = Mutex<[String]>([])
        withObservationTracking {
            _ = model.availability
        } onChange: {
            changes.withLock { $0.append("default") }
        }
        #expect(changes.withLock { $0 }.isEmpty, "reading told nobody")
        SystemLanguageModel.configure(ReplyingModel(reply: "x"))
        defer { SystemLanguageModel.resetConfiguration() }
        #expect(changes.withLock { $0 } == ["default"])
        #expect(model.isAvailable)

        // isAvailable is tracked too, on any model; a model nobody read from tells nobody.
        withObservationTracking {
            _ = tagging.isAvailable
        } onChange: {
            changes.withLock { $0.append("tagging") }
        }
        try SystemLanguageModel.configure("scripted")
        #expect(changes.withLock { $0 } == ["default", "tagging"], "each observer told once, as Observation does")
        SystemLanguageModel.resetConfiguration()
        #expect(changes.withLock { $0 } == ["default", "tagging"])
        #expect(!tagging.isAvailable)
    }

    @Test("A server without adapters, or a model given in code, takes no adapter")
    func noAdapters() async throws {
        unconfigure()
        let server = try LoopbackModelServer(reply: "plain")
        defer { server.stop() }
        try SystemLanguageModel.configure(server.url)
        defer { SystemLanguageModel.resetConfiguration() }
        let adapter = try SystemLanguageModel.Adapter(name: "tagger")
        #expect(SystemLanguageModel(adapter: adapter).availability == .unavailable(.adapterUnavailable))
        let error = await #expect(throws: SystemLanguageModel.Error.self) {
            try await LanguageModelSession(model: SystemLanguageModel(adapter: adapter)).respond(to: "Tag")
        }
        #expect(error.map { "\($0)".contains("no GET /lora-adapters") } == true)

        SystemLanguageModel.configure(ReplyingModel(reply: "x"))
        #expect(SystemLanguageModel(adapter: adapter).availability == .unavailable(.adapterUnavailable))
        #expect(throws: SystemLanguageModel.Adapter.AssetError.self) { try SystemLanguageModel.Adapter(name: "") }
    }
}

/// Binds `SystemLanguageModel.environment` to an empty environment around each test of a suite, so that what
/// `PARLEY_MODEL` the machine or a test beside it has changes nothing here; a test sets its own with
/// `withModelEnvironment(_:_:)`.
struct NoProcessEnvironment: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await SystemLanguageModel.$environment.withValue([:]) { try await function() }
    }
}
