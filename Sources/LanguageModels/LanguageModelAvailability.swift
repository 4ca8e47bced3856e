/// Whether a model can answer now, as Apple's `SystemLanguageModel.Availability` says it for the system model.
///
/// Every backend answers `availability` (and `isAvailable`), so the usual check ports as it is:
///
/// ```swift
/// switch model.availability {
/// case .available:
///     startConversation()
/// case .unavailable(let reason):
///     show("The model is unavailable: \(reason)")
/// }
/// ```
///
/// The reasons are a server's, not a device's: Apple's `deviceNotEligible` and `appleIntelligenceNotEnabled` have no
/// meaning here, and `modelNotReady` keeps Apple's name for a model that is still loading.
public enum LanguageModelAvailability: Equatable, Sendable, CustomStringConvertible {
    /// The model can answer.
    case available
    /// The model cannot answer now, for this reason.
    case unavailable(UnavailableReason)

    /// Why a model cannot answer.
    public enum UnavailableReason: Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// Nothing answers at the server's address: it is not running, or the address is wrong.
        case serverUnreachable
        /// The server answers but its model is not ready: still loading (llama-server's 503), or not checked yet.
        case modelNotReady
        /// The server does not have the configured model (it is not in its `/v1/models`).
        case modelMissing
        /// The server refuses the API key (401 or 403).
        case unauthorized
        /// What answers is not a model server this backend can use (a web page, or no OpenAI-compatible API).
        case unsupported
        /// No model is configured: `SystemLanguageModel.default` (the FoundationModels module) before
        /// `SystemLanguageModel.configure(_:)` or `PARLEY_MODEL` names one, or with a model that cannot answer an
        /// app's prompts (the scripted model plays NPCs only).
        case notConfigured
        /// The model has no such adapter: `SystemLanguageModel(adapter:)` on a server that has not loaded it (for
        /// llama-server, one started with `--lora` and the adapter's file), or a model that takes no adapters.
        case adapterUnavailable

        /// What is wrong and what to do.
        public var description: String {
            switch self {
            case .serverUnreachable: "the server cannot be reached; start it, or check its address"
            case .modelNotReady: "the model is not ready yet (loading); try again in a moment"
            case .modelMissing: "the server does not have the model; load or pull it, or configure another"
            case .unauthorized: "the server refuses the API key; check the key"
            case .unsupported: "the server does not offer an OpenAI-compatible API at this address; check the URL"
            case .notConfigured:
                "no model is configured; set PARLEY_MODEL to a server's URL (such as http://127.0.0.1:8080/v1, "
                    + "#name after it for servers with several models), or call SystemLanguageModel.configure(_:) "
                    + "with a LanguageModel or such a URL before the first use"
            case .adapterUnavailable:
                "the model has no such adapter; start llama-server with --lora and the adapter's file, and set "
                    + "PARLEY_MODEL to its URL (other servers and the scripted model take no adapters)"
            }
        }
    }

    /// `available`, or `unavailable: ` and the reason.
    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}
