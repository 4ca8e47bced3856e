#if !canImport(Darwin)
import Foundation
import LanguageModels
import Observation
import OpenAICompatible
import Synchronization

/// The model an app asks for when it names none, as Apple's `SystemLanguageModel` is: `SystemLanguageModel.default`,
/// which `LanguageModelSession()` and every session initializer without a `model:` use.
///
/// Linux has no system model, so what `default` is comes from configuration, in this order:
///
/// 1. Code: `SystemLanguageModel.configure(_:)`, with any `LanguageModel` or with a specification such as
///    `http://127.0.0.1:8080/v1` (the text `parley --model` takes).
/// 2. The environment: `PARLEY_MODEL`, with such a specification: a server's `/v1` URL, with `#name` after it for
///    servers that serve several models, or `scripted`: `ScriptedLanguageModel`, offline and deterministic, which
///    answers every prompt with a `(scripted)` reply and every schema with the simplest content it allows, so that
///    an app runs with no server.
/// 3. Else the model is unavailable: `availability` is `.unavailable(.notConfigured)`, whose description says how
///    to configure one, and a session using it throws `SystemLanguageModel.Error.assetsUnavailable` saying the
///    same.
///
/// The configuration is read when the model is used, not when it is made, so `default` follows a later
/// `configure(_:)`. A server is asked whether it can answer the first time `availability` is read (within the
/// backend's `availabilityTimeout`, 2 s by default), so the check Apple's samples make once, at the start, already
/// knows; later reads say what the backend last learnt.
///
/// ```swift
/// import FoundationModels
///
/// let model = SystemLanguageModel.default
/// guard model.isAvailable else { return print("The model is unavailable: \(model.availability)") }
/// let session = LanguageModelSession(instructions: "You plan short trips.")
/// print(try await session.respond(to: "A day in Eastmarch?").content)
/// ```
///
/// It is a `LanguageModel` like any other: it forwards every request to the configured backend. `useCase` and
/// `guardrails` are kept and change nothing (a server has neither Apple's content-tagging model nor its
/// guardrails). An `Adapter` is applied as one of llama-server's LoRA adapters.
///
/// It is `Observable`, as Apple's is: a SwiftUI view or `withObservationTracking` that reads `availability` (or
/// `isAvailable`) is told when the configuration changes (`configure(_:)`, `resetConfiguration()`), which is when
/// what the model is changes here. (Apple's changes when the system model finishes downloading; a server that comes
/// up or goes down is not observed: read `availability` again, which says what the backend last learnt.)
public final class SystemLanguageModel: LanguageModel, Observable {
    /// The model `LanguageModelSession()` and the other initializers without a model use: the general use case,
    /// default guardrails, no adapter.
    public static let `default` = SystemLanguageModel(useCase: .general, guardrails: .default)

    /// Apple's name for the availability type: `LanguageModelAvailability`, whose reasons are a configuration's
    /// and a server's.
    public typealias Availability = LanguageModelAvailability

    /// What the model is used for.
    public let useCase: UseCase
    /// The guardrails asked for.
    public let guardrails: Guardrails
    /// The adapter applied to the model, if any.
    public let adapter: Adapter?

    /// The backend with the adapter applied, once found on the server (per configured server).
    private let adapted = Mutex<(server: ObjectIdentifier, backend: Resolved)?>(nil)

    /// Tells observers of `availability` that the configuration changed.
    private let registrar = ObservationRegistrar()

    /// A model, held weakly, so that a change of configuration reaches its observers.
    private struct Observed: Sendable {
        weak var model: SystemLanguageModel?
    }

    /// Every model made and still in use, for `configurationChanged()`.
    private static let instances = Mutex<[Observed]>([])

    /// Registers a new model with `instances`, forgetting the ones no longer in use.
    private static func register(_ model: SystemLanguageModel) {
        instances.withLock { instances in
            instances.removeAll { $0.model == nil }
            instances.append(Observed(model: model))
        }
    }

    /// Tells the observers of every model's `availability` that the configuration changed (outside every lock, so
    /// that an observer may read the model).
    private static func configurationChanged() {
        for model in instances.withLock({ $0.compactMap(\.model) }) {
            model.registrar.willSet(model, keyPath: \.availability)
            model.registrar.didSet(model, keyPath: \.availability)
        }
    }

    /// A model for a use case.
    ///
    /// - Parameters:
    ///   - useCase: What the model is used for; kept, and changes nothing here.
    ///   - guardrails: The guardrails; kept, and changes nothing here.
    public init(useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.useCase = useCase
        self.guardrails = guardrails
        self.adapter = nil
        Self.register(self)
    }

    /// The configured model with an adapter: on llama-server, the LoRA adapter of that name the server loaded
    /// (`--lora`), applied to every request. Elsewhere the model is unavailable with
    /// `.unavailable(.adapterUnavailable)`.
    ///
    /// - Parameters:
    ///   - adapter: The adapter.
    ///   - guardrails: The guardrails; kept, and changes nothing here.
    public init(adapter: Adapter, guardrails: Guardrails = .default) {
        self.useCase = .general
        self.guardrails = guardrails
        self.adapter = adapter
        Self.register(self)
    }

    // MARK: - Configuration

    /// Makes `model` the one `SystemLanguageModel.default` (and every `SystemLanguageModel`) uses, before
    /// `PARLEY_MODEL`.
    ///
    /// - Parameter model: The model, for example an `OpenAICompatibleLanguageModel` or a test's mock. (Not a
    ///   `SystemLanguageModel`, which would ask itself.)
    public static func configure(_ model: some LanguageModel) {
        let backend: Resolved =
            if let server = model as? OpenAICompatibleLanguageModel { .server(server) } else { .model(model) }
        configuration.withLock { $0.code = backend }
        configurationChanged()
    }

    /// Makes the model a specification names the one `SystemLanguageModel.default` uses, before `PARLEY_MODEL`:
    /// a server's `/v1` URL (`#name` after it for servers with several models), as `parley --model` takes it, or
    /// `scripted` for `ScriptedLanguageModel`.
    ///
    /// - Parameter specification: The specification.
    /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` when it is neither (saying what is wrong with it);
    ///   the configuration is then left as it was.
    public static func configure(_ specification: String) throws {
        let backend = resolve(specification, source: "the specification")
        if case .unavailable(_, let explanation) = backend {
            throw Error.assetsUnavailable(.init(debugDescription: explanation))
        }
        configuration.withLock { $0.code = backend }
        configurationChanged()
    }

    /// Forgets what `configure(_:)` set, so `PARLEY_MODEL` (or nothing) decides again; for tests.
    public static func resetConfiguration() {
        configuration.withLock { $0.code = nil }
        configurationChanged()
    }

    /// The environment variable read when no code configured a model: `PARLEY_MODEL`.
    public static let environmentVariable = "PARLEY_MODEL"

    /// What configured the model, as resolved.
    enum Resolved: Sendable {
        /// A model given in code.
        case model(any LanguageModel)
        /// An OpenAI-compatible server, which can take adapters.
        case server(OpenAICompatibleLanguageModel)
        /// Nothing usable: the reason, and what to do in full.
        case unavailable(LanguageModelAvailability.UnavailableReason, String)
    }

    private struct Configuration {
        var code: Resolved?
        /// The backend made from `PARLEY_MODEL`, with the text it was made from, so that it keeps what it learnt.
        var environment: (text: String, backend: Resolved)?
    }

    private static let configuration = Mutex(Configuration())

    /// The environment `PARLEY_MODEL` is read from in this task: the process's unless bound (`$environment`).
    ///
    /// For the package's tests, which must not `setenv`: the process's environment is shared by every test running
    /// beside them and inherited by every process they start (a `PARLEY_MODEL` set by one test was read by the
    /// `parley` processes of others), and `setenv` beside a `getenv` on another thread is a data race.
    @TaskLocal package static var environment: [String: String]?

    /// The configured backend: code's, else `PARLEY_MODEL`'s, else none.
    static var configured: Resolved {
        if let code = configuration.withLock({ $0.code }) { return code }
        guard let text = (environment ?? ProcessInfo.processInfo.environment)[environmentVariable],
            !text.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            return .unavailable(
                .notConfigured,
                "No model is configured: Linux has no system model. Set \(environmentVariable) to a server's URL "
                    + "(such as http://127.0.0.1:8080/v1, with #name after it for servers that serve several "
                    + "models) or to scripted (offline placeholder answers), or call SystemLanguageModel.configure(_:) "
                    + "with a LanguageModel or such a URL before the first use.")
        }
        if let known = configuration.withLock({ $0.environment }), known.text == text { return known.backend }
        let backend = resolve(text, source: environmentVariable)
        configuration.withLock { $0.environment = (text, backend) }
        return backend
    }

    private static func resolve(_ text: String, source: String) -> Resolved {
        let advice =
            "set \(environmentVariable) to a server's URL such as http://127.0.0.1:8080/v1 (with #name after it "
            + "for servers that serve several models) or to scripted, or call SystemLanguageModel.configure(_:) "
            + "with a LanguageModel"
        do {
            switch try ModelSpecification.parse(text) {
            case .scripted:
                return .model(ScriptedLanguageModel())
            case .server(let url, let model):
                do {
                    return .server(try OpenAICompatibleLanguageModel(configuration: .init(baseURL: url, model: model)))
                } catch {
                    return .unavailable(.notConfigured, "The HTTP client for \(url) cannot start: \(error).")
                }
            }
        } catch {
            return .unavailable(
                .notConfigured,
                "\(source) \"\(text)\" is not a model\(error.problem.map { " (\($0))" } ?? ""): \(advice).")
        }
    }

    /// The backend this model forwards to: the configured one, with the adapter applied when there is one.
    func backend() async -> Resolved {
        let base = Self.configured
        guard let adapter else { return base }
        switch base {
        case .unavailable: return base
        case .model(let model):
            return .unavailable(
                .adapterUnavailable,
                "The adapter \(adapter.name) cannot be applied to the configured model \(model.id): only an "
                    + "OpenAI-compatible server that has loaded it (llama-server with --lora) takes adapters.")
        case .server(let server):
            let key = ObjectIdentifier(server)
            if let known = adapted.withLock({ $0 }), known.server == key { return known.backend }
            let found = await Self.apply(adapter, to: server)
            // An unreachable server is not remembered: it may come up.
            if case .unavailable(.serverUnreachable, _) = found { return found }
            adapted.withLock { $0 = (key, found) }
            return found
        }
    }

    /// The server's backend with the adapter applied, or why it cannot be.
    private static func apply(_ adapter: Adapter, to server: OpenAICompatibleLanguageModel) async -> Resolved {
        let url = server.configuration.baseURL
        let listed: [OpenAICompatibleLanguageModel.LoRAAdapter]?
        do {
            listed = try await server.loraAdapters()
        } catch {
            return .unavailable(
                .serverUnreachable,
                "The server at \(url) cannot be reached to find the adapter "
                    + "\(adapter.name): \(server.redactingSecrets(in: "\(error)")).")
        }
        guard let listed else {
            return .unavailable(
                .adapterUnavailable,
                "The server at \(url) has no LoRA adapters (no GET /lora-adapters): the adapter \(adapter.name) "
                    + "needs llama-server started with --lora and the adapter's file.")
        }
        guard let match = listed.first(where: { adapter.matches(path: $0.path) }) else {
            let names = listed.map(\.path).joined(separator: ", ")
            return .unavailable(
                .adapterUnavailable,
                "The server at \(url) has not loaded the adapter \(adapter.name) "
                    + (listed.isEmpty ? "(it has no adapters)" : "(it has \(names))")
                    + ": start llama-server with --lora and the adapter's file.")
        }
        do {
            return .server(try server.applying(match))
        } catch {
            return .unavailable(.adapterUnavailable, "The HTTP client for \(url) cannot start: \(error).")
        }
    }

    /// The backend, or the error a use of an unavailable model throws.
    private func usableBackend() async throws -> any LanguageModel {
        switch await backend() {
        case .model(let model): return model
        case .server(let server): return server
        case .unavailable(_, let explanation):
            throw Error.assetsUnavailable(.init(debugDescription: explanation))
        }
    }

    /// Runs `work` to its end from synchronous code, waiting at most `timeout`: for the first read of
    /// `availability`, which must say what the server says although it cannot `await`.
    static func waitFor<T: Sendable>(
        timeout: Duration, _ work: @escaping @Sendable () async -> T
    ) -> T? {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let environment = Self.environment  // A detached task inherits no task-locals.
        Task.detached {
            let value = await Self.$environment.withValue(environment) { await work() }
            result.withLock { $0 = value }
            done.signal()
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        _ = done.wait(timeout: .now() + seconds)
        return result.withLock { $0 }
    }

    /// Whether `availability` has asked the server once (per backend).
    private let asked = Mutex<ObjectIdentifier?>(nil)

    // MARK: - Availability

    /// Whether the model can answer now: `.unavailable(.notConfigured)` when nothing configures a model,
    /// `.unavailable(.adapterUnavailable)` when the adapter cannot be applied, else the backend's availability.
    /// The first read for a server asks it (within its `availabilityTimeout`) and may wait that long.
    public var availability: LanguageModelAvailability {
        registrar.access(self, keyPath: \.availability)
        let base = Self.configured
        switch base {
        case .unavailable(let reason, _): return .unavailable(reason)
        case .model(let model) where adapter == nil: return model.availability
        case .model: return .unavailable(.adapterUnavailable)
        case .server(let server):
            let key = ObjectIdentifier(server)
            let first = asked.withLock { asked in
                defer { asked = key }
                return asked != key
            }
            let timeout = server.configuration.availabilityTimeout * 2 + .seconds(1)
            if first {
                let checked = Self.waitFor(timeout: timeout) { () -> LanguageModelAvailability in
                    let availability = await server.refreshAvailability()
                    guard availability == .available, self.adapter != nil else { return availability }
                    if case .unavailable(let reason, _) = await self.backend() { return .unavailable(reason) }
                    return availability
                }
                if let checked { return checked }
            }
            if adapter != nil {
                if case .unavailable(let reason, _)? = adapted.withLock({ $0?.server == key ? $0?.backend : nil }) {
                    return .unavailable(reason)
                }
            }
            return server.availability
        }
    }

    /// The languages the model answers in. A server's model does not say, so this is English and the languages
    /// the user prefers (`Locale.preferredLanguages`): what a check such as
    /// `supportedLanguages.contains(Locale.current.language)` needs to go ahead.
    public var supportedLanguages: Set<Locale.Language> {
        Set(([Locale.current.identifier, "en"] + Locale.preferredLanguages).map { Locale.Language(identifier: $0) })
    }

    /// Whether the model answers in a locale's language: `true` for any, as a server's model takes any text.
    ///
    /// - Parameter locale: The locale; the current one by default.
    /// - Returns: `true`.
    public func supportsLocale(_ locale: Locale = Locale.current) -> Bool { true }

    // MARK: - LanguageModel

    /// The backend's id, or `system` when none is configured.
    public var id: String { Self.forwarded(Self.configured)?.id ?? "system" }

    /// The backend's version, or `unconfigured`.
    public var version: String { Self.forwarded(Self.configured)?.version ?? "unconfigured" }

    /// The backend's capabilities; text, tool calling and guided generation when none is configured.
    public var capabilities: LanguageModelCapabilities {
        Self.forwarded(Self.configured)?.capabilities ?? LanguageModelCapabilities([.toolCalling, .guidedGeneration])
    }

    /// The backend's context window.
    public var contextSize: Int {
        get async throws { try await usableBackend().contextSize }
    }

    /// The backend's context window when it knows it without waiting.
    public var knownContextSize: Int? { Self.forwarded(Self.configured)?.knownContextSize }

    /// Whether the backend writes free text; `true` when none is configured.
    public var writesFreeText: Bool { Self.forwarded(Self.configured)?.writesFreeText ?? true }

    /// The text without the backend's secrets.
    public func redactingSecrets(in text: String) -> String {
        Self.forwarded(Self.configured)?.redactingSecrets(in: text) ?? text
    }

    /// The backend's voice and planner, if it is such a pair.
    public var voicing: ModelVoicing? { Self.forwarded(Self.configured)?.voicing }

    /// Counts tokens as the backend does.
    public func tokenCount(for entries: some Collection<Transcript.Entry>) async throws -> Int {
        try await usableBackend().tokenCount(for: Array(entries))
    }

    /// Counts a schema's tokens as the backend does.
    public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await usableBackend().tokenCount(for: schema)
    }

    /// Counts a request's tokens as the backend does.
    public func tokenCount(for request: GenerationRequest) async throws -> Int {
        try await usableBackend().tokenCount(for: request)
    }

    /// The backend's next step.
    ///
    /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` when no model is configured or the adapter
    ///   cannot be applied, saying what to do; else what the backend throws.
    public func generate(_ request: GenerationRequest) async throws -> Generation {
        try await usableBackend().generate(request)
    }

    /// The backend's next step, streamed.
    public func streamGeneration(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationUpdate, any Swift.Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await update in try await self.usableBackend().streamGeneration(request) {
                        continuation.yield(update)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Prepares the backend, when one is configured.
    public func prewarm(for request: GenerationRequest) async {
        try? await usableBackend().prewarm(for: request)
    }

    private static func forwarded(_ resolved: Resolved) -> (any LanguageModel)? {
        switch resolved {
        case .model(let model): model
        case .server(let server): server
        case .unavailable: nil
        }
    }
}

// MARK: - Use cases and guardrails

extension SystemLanguageModel {
    /// What an app uses the model for, as Apple's framework names it.
    public struct UseCase: Sendable, Equatable {
        private let name: String

        /// General prompting: text, structured output, tools.
        public static let general = UseCase(name: "general")
        /// Tagging content (topics, entities, emotions); on Apple platforms a specialised model, here the same.
        public static let contentTagging = UseCase(name: "contentTagging")
    }

    /// The guardrails Apple's framework applies to input and output. A server has none of its own here, so both
    /// values are kept and change nothing.
    public struct Guardrails: Sendable {
        private let name: String

        /// The default guardrails.
        public static let `default` = Guardrails(name: "default")
        /// Guardrails that allow transforming sensitive text (Apple's: string generation only).
        public static let permissiveContentTransformations = Guardrails(name: "permissiveContentTransformations")
    }
}
#endif
