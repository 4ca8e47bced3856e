/// The key of an annotation in an `AnnotatedTranscript`: of the whole conversation (`annotations`) or of one turn
/// (`turnAnnotations`).
///
/// Annotations are string to string, as saves keep them; the keys that writers and readers share are constants of
/// this type, each spelt once, so that the writer of an annotation and its readers cannot disagree on its name. Read
/// and write them with the dictionaries' subscript that takes a key:
///
/// ```swift
/// var annotated = AnnotatedTranscript(
///     transcript: session.transcript, annotations: [String: String](annotations: [.npc: "mira"]))
/// annotated.annotations[.modelID] = session.model.id  // saved as "model.id"
/// let model = annotated.annotations[.modelID]         // the model's id
/// ```
///
/// The constants here name what an annotated transcript is of (the NPC, the model, Parley's version); a layer above
/// adds the keys it writes as constants of its own in an extension (Parley's engine: the game context of each turn).
/// The raw value is the key as saves and JSON keep it: a key's raw value never changes once it has been saved.
public struct AnnotationKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The key as saves and JSON keep it, for example `model.id`.
    public let rawValue: String

    /// A key.
    ///
    /// - Parameter rawValue: The key as saves keep it.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The key as saves keep it.
    public var description: String { rawValue }

    // MARK: - What the conversation is of

    /// The NPC's id, for example `mira`: `npc` (in the conversation's annotations, and in each turn's).
    public static let npc = AnnotationKey(rawValue: "npc")
    /// The NPC's name as the player sees it, for example `Mira Quickcoin`: `npc.name`.
    public static let npcName = AnnotationKey(rawValue: "npc.name")
    /// The `id` of the model that played the NPC: `model.id`.
    public static let modelID = AnnotationKey(rawValue: "model.id")
    /// The `version` of the model that played the NPC: `model.version`.
    public static let modelVersion = AnnotationKey(rawValue: "model.version")
    /// The version of Parley that wrote the conversation: `parley.version`.
    public static let parleyVersion = AnnotationKey(rawValue: "parley.version")
}

extension Dictionary where Key == String, Value == String {
    /// Annotations with the values given under typed keys, as saves keep them (by the keys' raw values).
    ///
    /// - Parameter annotations: The values by key.
    public init(annotations: [AnnotationKey: String]) {
        self.init(uniqueKeysWithValues: annotations.map { ($0.key.rawValue, $0.value) })
    }

    /// The annotation under `key`, or `nil` when there is none; setting `nil` removes it.
    ///
    /// - Parameter key: The annotation's key.
    public subscript(key: AnnotationKey) -> String? {
        get { self[key.rawValue] }
        set { self[key.rawValue] = newValue }
    }
}
