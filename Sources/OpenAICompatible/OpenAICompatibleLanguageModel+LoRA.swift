import ParleyJSON

extension OpenAICompatibleLanguageModel {
    /// A LoRA adapter the server has loaded: llama-server loads one per `--lora FILE` it is started with and lists
    /// them at `GET /lora-adapters`.
    public struct LoRAAdapter: Sendable, Equatable {
        /// The server's number for the adapter, which requests name it by.
        public var id: Int
        /// The adapter's file, as the server was given it.
        public var path: String
        /// The scale the server applies when a request names no adapter (0 when it was loaded with
        /// `--lora-init-without-apply`).
        public var scale: Double

        /// Creates an adapter's description.
        ///
        /// - Parameters:
        ///   - id: The server's number for it.
        ///   - path: Its file.
        ///   - scale: Its default scale.
        public init(id: Int, path: String, scale: Double) {
            self.id = id
            self.path = path
            self.scale = scale
        }
    }

    /// The LoRA adapters the server has loaded (llama-server's `GET /lora-adapters`, at the server's root), or `nil`
    /// when the server has no such endpoint (other servers, or an answer that is not such a list).
    ///
    /// - Returns: The adapters, in the server's order; empty when it was started without `--lora`.
    /// - Throws: `ModelServerError.unreachable` when the server cannot be reached.
    public func loraAdapters() async throws -> [LoRAAdapter]? {
        guard let list = try await optionalGet(configuration.rootURL + "/lora-adapters")?.arrayValue else {
            return nil
        }
        var adapters: [LoRAAdapter] = []
        for entry in list {
            guard let id = entry["id"]?.intValue, let path = entry["path"]?.stringValue else { return nil }
            adapters.append(LoRAAdapter(id: id, path: path, scale: entry["scale"]?.doubleValue ?? 0))
        }
        return adapters
    }

    /// This backend with a LoRA adapter applied to each of its requests at `scale`, and every other adapter of the
    /// server at 0 (llama-server's per-request `lora` field, which sets the scale of the adapters it names and 0 for
    /// the others, for that request only; the server's own setting is left alone).
    ///
    /// - Parameters:
    ///   - adapter: The adapter, as `loraAdapters()` lists it.
    ///   - scale: How strongly to apply it; 1 by default.
    /// - Returns: A new backend for the same server.
    /// - Throws: `HTTPClientError` when the HTTP client cannot start.
    public func applying(_ adapter: LoRAAdapter, scale: Double = 1) throws -> OpenAICompatibleLanguageModel {
        var configuration = self.configuration
        configuration.extraBody["lora"] = .array([
            .object(JSONObject([("id", .integer(adapter.id)), ("scale", .double(scale))]))
        ])
        return try OpenAICompatibleLanguageModel(configuration: configuration)
    }
}
