#if !canImport(Darwin)
import Foundation
import LanguageModels

extension SystemLanguageModel {
    /// A fine-tuning of the model, as Apple's `SystemLanguageModel.Adapter` (a LoRA adapter): here one of
    /// llama-server's LoRA adapters, which the server loads when it starts (`--lora FILE`, once per adapter).
    ///
    /// ```swift
    /// let adapter = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: "adapters/tagger.gguf"))
    /// let session = LanguageModelSession(model: SystemLanguageModel(adapter: adapter))
    /// ```
    ///
    /// The adapter is found by name among the server's (`GET /lora-adapters`): the file name without its
    /// extension, or the whole path, must match the path the server was given. Each request of a session with
    /// the model then names it with scale 1 (llama-server's per-request `lora` field), and the server's other
    /// adapters at 0. A model whose server does not list it, a server without adapters, a model that is not a
    /// server's, and no configured model at all, are unavailable (`.adapterUnavailable`, or `.notConfigured`),
    /// and using them throws `SystemLanguageModel.Error.assetsUnavailable` saying why.
    public struct Adapter: Sendable, Equatable {
        /// The adapter's name: its file's name without the extension, or the name it was made with.
        public let name: String
        /// The adapter's file, when it was made from one.
        public let fileURL: URL?

        /// An adapter from its file, as the server was started with it (`--lora FILE`); the file need not be on
        /// this machine, only on the server's.
        ///
        /// - Parameter fileURL: The adapter's file, for example `tagger.gguf`.
        /// - Throws: `AssetError.invalidAsset` when the URL names no file.
        public init(fileURL: URL) throws {
            let name = fileURL.deletingPathExtension().lastPathComponent
            guard fileURL.isFileURL, !name.isEmpty, name != "/" else {
                throw AssetError.invalidAsset(.init(debugDescription: "\(fileURL) is not an adapter's file"))
            }
            self.name = name
            self.fileURL = fileURL
        }

        /// An adapter by name: on Apple platforms an asset pack's; here the name of a file the server loaded
        /// (`tagger` for `--lora adapters/tagger.gguf`).
        ///
        /// - Parameter name: The adapter's name.
        /// - Throws: `AssetError.invalidAdapterName` when the name is empty or contains a `/`.
        public init(name: String) throws {
            guard !name.isEmpty, !name.contains("/") else {
                throw AssetError.invalidAdapterName(.init(debugDescription: "\"\(name)\" is not an adapter's name"))
            }
            self.name = name
            self.fileURL = nil
        }

        /// Metadata the adapter's creator wrote into it; empty here (the server does not report it).
        public var creatorDefinedMetadata: [String: String] { [:] }

        /// Whether a path the server lists is this adapter's.
        func matches(path: String) -> Bool {
            if let fileURL, path == fileURL.path || path == fileURL.relativePath { return true }
            let listed = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            return listed == name
        }

        // MARK: - Compiling, finding and removing adapters

        /// Prepares the adapter, as Apple's `compile()` does: there it compiles the adapter for the device's
        /// neural engine; a llama-server LoRA adapter needs no compiling (the server loaded it when it started), so
        /// this checks that the configured model can take it, that is that the server has loaded it, and returns.
        /// Call it where Apple's code does, before the first session, to learn early that the adapter is missing.
        ///
        /// - Throws: `AssetError.compatibleAdapterNotFound`, saying why, when the configured model cannot take the
        ///   adapter: no model is configured, it is not a server's, the server cannot be reached, has no adapters
        ///   or has not loaded this one.
        public func compile() async throws {
            if case .unavailable(_, let explanation) = await SystemLanguageModel(adapter: self).backend() {
                throw AssetError.compatibleAdapterNotFound(.init(debugDescription: explanation))
            }
        }

        /// The identifiers of the adapters named `name` that the configured model can take, as Apple's
        /// `compatibleAdapterIdentifiers(name:)` gives the asset packs of an adapter that fit the system model:
        /// here the paths the server lists at `GET /lora-adapters` (as it was given them, `--lora FILE`) whose
        /// file name without its extension is `name`.
        ///
        /// Apple's is synchronous, so this waits for the server's answer (within twice the backend's
        /// `availabilityTimeout` and a second; 5 s by default); call it off the main thread where that matters.
        ///
        /// - Parameter name: The adapter's name, as `init(name:)` takes it (`tagger` for `tagger.gguf`).
        /// - Returns: The server's paths of the adapters of that name, in its order; empty when none is loaded,
        ///   the server has no adapters or cannot be reached, the configured model is not a server's, or none is
        ///   configured.
        public static func compatibleAdapterIdentifiers(name: String) -> [String] {
            guard let adapter = try? Adapter(name: name), case .server(let server) = SystemLanguageModel.configured
            else { return [] }
            let timeout = server.configuration.availabilityTimeout * 2 + .seconds(1)
            let listed = SystemLanguageModel.waitFor(timeout: timeout) { try? await server.loraAdapters() }
            return (listed ?? nil)?.map(\.path).filter { adapter.matches(path: $0) } ?? []
        }

        /// Removes the adapters that no longer fit the system model, as Apple's `removeObsoleteAdapters()` deletes
        /// downloaded adapter asset packs trained for an older model: a no-op here, since nothing on this machine
        /// is downloaded or managed for an adapter (the server loads its adapter files when it starts, and which
        /// ones is its configuration's business).
        ///
        /// - Throws: Nothing here; Apple's throws when it cannot delete an asset pack.
        public static func removeObsoleteAdapters() throws {}

        /// Whether an asset pack holds an adapter the configured model can take, as Apple's `isCompatible(_:)`:
        /// here whether the server lists an adapter whose path is the pack's `id`, or whose file name without its
        /// extension is. Waits for the server's answer as `compatibleAdapterIdentifiers(name:)` does.
        ///
        /// - Parameter assetPack: The asset pack; on Linux, an `AssetPack` made from an adapter's name or path.
        /// - Returns: `true` when the server has loaded the adapter.
        public static func isCompatible(_ assetPack: AssetPack) -> Bool {
            let id = assetPack.id
            let name = URL(fileURLWithPath: id).deletingPathExtension().lastPathComponent
            return compatibleAdapterIdentifiers(name: name).contains { $0 == id || name == id }
        }

        /// Why an adapter cannot be made, as Apple's `SystemLanguageModel.Adapter.AssetError`.
        public enum AssetError: Swift.Error, LocalizedError, Sendable {
            /// The asset is not an adapter.
            case invalidAsset(Context)
            /// The name is not an adapter's.
            case invalidAdapterName(Context)
            /// No adapter compatible with the model was found.
            case compatibleAdapterNotFound(Context)

            /// What went wrong.
            public struct Context: Sendable {
                /// A description for developers.
                public let debugDescription: String

                /// Creates the context.
                ///
                /// - Parameter debugDescription: A description for developers.
                public init(debugDescription: String) { self.debugDescription = debugDescription }
            }

            /// The context's description.
            public var errorDescription: String? {
                switch self {
                case .invalidAsset(let context), .invalidAdapterName(let context),
                    .compatibleAdapterNotFound(let context):
                    context.debugDescription
                }
            }
        }
    }

    /// Why the model cannot be used, as Apple 27's `SystemLanguageModel.Error`.
    public enum Error: Swift.Error, LocalizedError, CustomStringConvertible, Sendable {
        /// The model cannot answer: here, none is configured, or its adapter cannot be applied.
        case assetsUnavailable(AssetsUnavailable)

        /// Why the model's assets (here: its configuration) are unavailable.
        public struct AssetsUnavailable: Sendable {
            /// What is wrong and what to do.
            public let debugDescription: String

            /// Creates the payload.
            ///
            /// - Parameter debugDescription: What is wrong and what to do.
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// What is wrong and what to do.
        public var description: String {
            switch self {
            case .assetsUnavailable(let payload): payload.debugDescription
            }
        }

        /// What is wrong and what to do.
        public var errorDescription: String? { description }
    }
}

/// An asset pack, as BackgroundAssets' `AssetPack` is on Apple platforms, where adapters are delivered as asset
/// packs: here only its identifier, for `SystemLanguageModel.Adapter.isCompatible(_:)`. Linux has no BackgroundAssets,
/// and llama-server's adapters are files it loads when it starts, so an asset pack is made from an adapter's name or
/// its path as the server lists it.
public struct AssetPack: Sendable, Hashable, Identifiable {
    /// The asset pack's identifier: an adapter's name (`tagger`) or its path as the server lists it.
    public let id: String

    /// An asset pack by its identifier.
    ///
    /// - Parameter id: An adapter's name, or its path as the server lists it.
    public init(id: String) { self.id = id }
}

extension SystemLanguageModel.Error: ConvertibleToGenerationError {
    /// `GenerationError.assetsUnavailable`, what Apple 26 threw for a model that cannot answer, keeping this error
    /// for the conversions back; sessions throw it so with the `FoundationModels26Errors` trait.
    #if !FoundationModels26Errors
    @available(*, deprecated, message: "GenerationError is Apple 26's")
    #endif
    package var generationError: LanguageModelSession.GenerationError? {
        .assetsUnavailable(.init(debugDescription: description, underlying: self))
    }
}

// MARK: - Apple's reasons

extension LanguageModelAvailability.UnavailableReason {
    /// Apple's reason for a device that cannot run the system model, so that a `switch` written for Apple's
    /// reasons compiles: here `.notConfigured`, a machine with no model configured.
    public static var deviceNotEligible: Self { .notConfigured }

    /// Apple's reason for a user who has not turned Apple Intelligence on, so that a `switch` written for Apple's
    /// reasons compiles: here `.notConfigured` too (a `switch` matches the first of the two it lists).
    public static var appleIntelligenceNotEnabled: Self { .notConfigured }
}
#endif
