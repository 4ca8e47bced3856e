/// Values a caller gives a backend with a turn, besides the conversation: typed, each under its own key type.
///
/// A request's transcript is what the model reads; a context is what a backend that plays a part in a bigger
/// program may need to know about that program now. The embedded scripted model, for example, checks its dialogue
/// rules' conditions against the game as it is when the player speaks; a game gives it that state here, with each
/// turn, rather than through a callback the model would call during generation. Backends that read nothing from it
/// (language models on a server) ignore it, and it is never sent to a server or saved in a transcript.
///
/// ```swift
/// enum Weather: GenerationContextKey { typealias Value = String }
///
/// var context = GenerationContext()
/// context[Weather.self] = "rain"
/// let reply = try await session.respond(to: "How is it out?", context: context)
/// // in a backend: request.context[Weather.self]  // "rain"
/// ```
///
/// A backend says that it reads a context with the `LanguageModelCapabilities.Capability.contextValues`
/// capability, so callers can skip making values nobody reads.
public struct GenerationContext: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// An empty context.
    public init() {}

    /// The value under a key, or `nil` when there is none.
    ///
    /// - Parameter key: The key type.
    public subscript<Key: GenerationContextKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether the context holds no value.
    public var isEmpty: Bool { values.isEmpty }
}

/// The key of one value in a `GenerationContext`: a type, so that only code that can name it reads or writes the
/// value, and the value's type is checked by the compiler.
public protocol GenerationContextKey {
    /// The type of the value stored under the key.
    associatedtype Value: Sendable
}
