import Foundation
import LanguageModels
import ParleyBasics
import ParleyHTTP
import ParleyJSON

// KV caches that outlive a slot, an NPC switch and the process: llama-server's slot files (`--slot-save-path`),
// and prewarming a prompt before the request that will follow it. See `SlotTable` for when files are written and
// read, and docs/model-servers.md, "Caches".

extension OpenAICompatibleLanguageModel {
    // MARK: - Keys

    /// This backend with a cache key, for one NPC: the same server, HTTP client, server details and slot table, and
    /// requests that build on `key`'s KV cache.
    ///
    /// On llama-server started with `--slot-save-path`, each request of the copy runs in a slot that holds `key`'s
    /// cache: when no slot holds it, the backend saves the cache of the slot used longest ago to its holder's file
    /// and restores `key`'s file into that slot (`SlotCacheKey.fileName(modelID:modelVersion:)`), so the first turn
    /// after switching NPCs, or after the game was closed and continued, processes only what is new. Any other
    /// server (and llama-server without the option) is used as without a key.
    ///
    /// ```swift
    /// let mira = model.replying(inAtMost: 2).keepingCache(as: SlotCacheKey(scope: world.id, name: "mira"))
    /// ```
    ///
    /// - Parameter key: The key, or `nil` for none.
    /// - Returns: The copy; `id`, `version` and `configuration` are this backend's.
    public func keepingCache(as key: SlotCacheKey?) -> OpenAICompatibleLanguageModel {
        OpenAICompatibleLanguageModel(copying: self, configuration: configuration, cacheKey: key)
    }

    /// The name of the file this copy's cache is kept in on the server, or `nil` without a cache key.
    ///
    /// It is `cacheKey`'s file name for the model as the server reports it (its name and build, which are `id`
    /// and `version` unless the configuration names others), so a cache is restored only into the model that made
    /// it.
    public var cacheFileName: String? {
        guard let cacheKey else { return nil }
        let identity = cacheIdentity(knownServerInfo)
        return cacheKey.fileName(modelID: identity.model, modelVersion: identity.version)
    }

    /// Whether the server keeps caches in slot files, as far as its answers showed.
    public var slotCacheSupport: SlotCacheSupport {
        get async { await slots.support }
    }

    /// What this backend and its copies did with slot files and prewarms so far.
    public var slotCacheStatistics: SlotCacheStatistics {
        get async { await slots.statistics }
    }

    /// Saves every slot whose cache changed since it was saved or restored to its holder's file, so that a later
    /// process (or server) can restore it: for when the game saves or closes. Waits for requests in progress and
    /// cancels prewarms. Does nothing on servers without slot files; never throws (a cache that could not be saved
    /// costs speed later, nothing else).
    public func saveSlotCaches() async {
        await slots.saveAll(perform: slotActionSender)
    }

    /// The model and version a cache file belongs to: what the server reports of itself, else `id` and `version`.
    private func cacheIdentity(_ info: ServerInfo?) -> (model: String, version: String) {
        (info?.modelName ?? id, info?.build ?? version)
    }

    // MARK: - Prewarm

    /// Asks llama-server to process the request's prompt now (`max_tokens: 0`), so that the request that follows
    /// finds it in its cache; with a cache key, in the key's slot (restoring its file first when needed). Other
    /// servers get nothing.
    ///
    /// A prewarm never delays a real request: it is not sent while one runs or waits, and a real request that
    /// starts cancels every prewarm of another key (one of its own key is doing its work, and is waited for). It
    /// never fails visibly: whatever goes wrong is ignored.
    ///
    /// - Parameter request: The request that will probably follow, without its last prompt.
    public func prewarm(for request: GenerationRequest) async {
        guard configuration.prewarms, configuration.sendsServerExtensions,
            let info = try? await serverInfo(), info.kind == .llamaServer
        else { return }
        _ = try? await withSlot(background: true) { slot in
            let (builder, _) = try await self.builder(for: request)
            guard case .object(var body) = builder.body(for: request, stream: false, slot: slot) else { return }
            body["max_tokens"] = 0
            var http = HTTPRequest.postJSON(
                self.configuration.baseURL + "/chat/completions", body: Data(JSONValue.object(body).jsonString().utf8),
                headers: self.authorizationHeaders)
            http.connectTimeout = self.configuration.connectTimeout
            http.timeout = min(self.configuration.requestTimeout, .seconds(60))
            let response = try await self.client.stream(http)
            _ = try await response.collect(maximumBodySize: ReplyLimits.errorBodyBytes)
            if response.isSuccess { await self.slots.countPrewarm() }
        }
    }

    // MARK: - Slots

    /// Runs `body` in the slot that holds this copy's cache (its argument, for `id_slot`), or unpinned (`nil`)
    /// when there is no key or the server keeps no slot files.
    ///
    /// - Parameters:
    ///   - background: Whether it is a prewarm, which gives way to real requests.
    ///   - body: The request.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; `CancellationError` when a prewarm gave way.
    func withSlot<T: Sendable>(
        background: Bool, _ body: @escaping @Sendable (Int?) async throws -> T
    ) async throws -> T {
        let pin = try await slotPin()
        let cancellation = background ? SlotTable.Cancellation() : nil
        let lease = try await slots.lease(
            key: cacheKey, pin: pin, background: background, cancellation: cancellation, perform: slotActionSender)
        do {
            let result: T
            if let cancellation {
                let work = Task { try await body(lease.slot) }
                cancellation.onCancel { work.cancel() }
                result = try await withTaskCancellationHandler {
                    try await work.value
                } onCancel: {
                    work.cancel()
                }
            } else {
                result = try await body(lease.slot)
            }
            await slots.release(lease)
            return result
        } catch {
            await slots.release(lease, gaveWay: cancellation?.isCancelled == true)
            throw error
        }
    }

    /// Where this copy's requests are pinned: its key's file and the server's slot count, or `nil` for unpinned
    /// requests (no key, caches switched off, a server that is not llama-server).
    func slotPin() async throws -> SlotTable.Pin? {
        guard let cacheKey, configuration.keepsSlotCaches, configuration.sendsServerExtensions else { return nil }
        let info = try await serverInfo()
        guard info.kind == .llamaServer, let count = info.slotCount, count > 0 else { return nil }
        let identity = cacheIdentity(info)
        return SlotTable.Pin(
            holder: SlotTable.Holder(
                key: cacheKey, fileName: cacheKey.fileName(modelID: identity.model, modelVersion: identity.version)),
            slotCount: count)
    }

    /// Sends slot actions for the slot table.
    var slotActionSender: SlotTable.Perform {
        { [self] action, slot, fileName in await performSlotAction(action, slot: slot, fileName: fileName) }
    }

    /// `POST /slots/{slot}?action=save|restore` with `{"filename": …}`, once (no retries: a failed action costs only
    /// speed).
    func performSlotAction(_ action: SlotTable.Action, slot: Int, fileName: String) async -> SlotTable.Outcome {
        let body: JSONValue = ["filename": .string(fileName)]
        var request = HTTPRequest.postJSON(
            configuration.rootURL + "/slots/\(slot)?action=\(action.rawValue)", body: Data(body.jsonString().utf8),
            headers: authorizationHeaders)
        request.connectTimeout = configuration.connectTimeout
        request.timeout = configuration.slotCacheTimeout
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await client.stream(request).collect(maximumBodySize: ReplyLimits.errorBodyBytes)
            switch response.status {
            case 200..<300:
                let json = try? JSONValue(parsing: Array(response.body))
                let milliseconds =
                    json?["timings"]?[action == .save ? "save_ms" : "restore_ms"]?.doubleValue
                    ?? (clock.now - start).milliseconds
                let bytes = json?[action == .save ? "n_written" : "n_read"]?.intValue ?? 0
                return .done(milliseconds: milliseconds, bytes: max(bytes, 0))
            case 404, 405, 501:
                return .unsupported
            default:
                return .refused
            }
        } catch {
            return .failed
        }
    }
}
