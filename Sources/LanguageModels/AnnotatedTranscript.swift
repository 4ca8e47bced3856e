import Foundation
import ParleyJSON

/// A transcript with the app's context: who, where and with which model the conversation happened.
///
/// Parley saves each NPC's conversation as an annotated transcript: Apple's transcript JSON plus string
/// annotations for the whole conversation (the NPC, the model's id and version, Parley's version) and for each
/// turn (the player's name, gold, inventory and location when they spoke), keyed by the turn's prompt entry id.
/// Writers and readers name the keys with `AnnotationKey`'s constants (`annotations[.modelID]`), each spelt once.
///
/// ```json
/// {"transcript": {"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [...]}},
///  "annotations": {"npc": "mira", "model.id": "scripted", "model.version": "3f9c2a"},
///  "turns": {"6F1A…": {"player": "Ada", "gold": "14", "location": "market_square"}}}
/// ```
public struct AnnotatedTranscript: Sendable, Equatable {
    /// The conversation.
    public var transcript: Transcript
    /// Context of the whole conversation.
    public var annotations: [String: String]
    /// Context of each turn, keyed by the id of the turn's prompt entry.
    public var turnAnnotations: [String: [String: String]]

    /// Creates an annotated transcript.
    ///
    /// - Parameters:
    ///   - transcript: The conversation.
    ///   - annotations: Context of the whole conversation.
    ///   - turnAnnotations: Context of each turn, by prompt entry id.
    public init(
        transcript: Transcript, annotations: [String: String] = [:], turnAnnotations: [String: [String: String]] = [:]
    ) {
        self.transcript = transcript
        self.annotations = annotations
        self.turnAnnotations = turnAnnotations
    }

    /// The annotated transcript as JSON text, keys sorted within annotations, the same bytes for the same value.
    ///
    /// - Parameter prettyPrinted: Indent for people to read.
    /// - Returns: The JSON text.
    public func jsonString(prettyPrinted: Bool = false) -> String {
        jsonValue.jsonString(prettyPrinted ? .prettyPrinted : [])
    }

    /// The annotated transcript as a JSON tree.
    public var jsonValue: JSONValue {
        func object(_ strings: [String: String]) -> JSONValue {
            .object(JSONObject(strings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        return .object(
            JSONObject([
                ("transcript", TranscriptJSON.encode(transcript)),
                ("annotations", object(annotations)),
                (
                    "turns",
                    .object(JSONObject(turnAnnotations.sorted { $0.key < $1.key }.map { ($0.key, object($0.value)) }))
                ),
            ]))
    }

    /// Reads an annotated transcript from its JSON text.
    ///
    /// - Parameter json: The JSON, as `jsonString()` wrote it.
    /// - Throws: `DecodingError.dataCorrupted` saying what is wrong.
    public init(json: String) throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The annotated transcript is not JSON: \(error)"))
        }
        try self.init(jsonValue: value)
    }

    /// Reads an annotated transcript from a JSON tree.
    ///
    /// - Parameter value: The JSON tree.
    /// - Throws: `DecodingError.dataCorrupted` saying what is wrong.
    public init(jsonValue value: JSONValue) throws {
        guard let transcript = value["transcript"] else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "An annotated transcript needs a \"transcript\" member."))
        }
        func strings(_ value: JSONValue?) -> [String: String] {
            var result: [String: String] = [:]
            for (key, member) in value?.objectValue ?? JSONObject() { result[key] = member.stringValue }
            return result
        }
        var turns: [String: [String: String]] = [:]
        for (key, member) in value["turns"]?.objectValue ?? JSONObject() { turns[key] = strings(member) }
        self.init(
            transcript: try TranscriptJSON.decode(transcript, codingPath: []),
            annotations: strings(value["annotations"]),
            turnAnnotations: turns)
    }
}
