import Foundation
import ParleyJSON

/// A feedback report: the document `logFeedbackAttachment` returns, readable back from its JSON.
///
/// It is self-contained, so it can be attached to a bug report: the sentiment and issues, the output that was
/// wanted, the whole transcript in Apple's format, the entries of turns that were rolled back, the model's id and
/// version, Parley's version, the time, and the app's context. `docs/feedback-format.md` documents the format and
/// its JSON Schema.
public struct FeedbackAttachment: Sendable, Equatable, Identifiable {
    /// The format's `type` field.
    public static let type = "Parley.FeedbackAttachment"
    /// The format's version.
    public static let formatVersion = 1

    /// The report's identifier.
    public var id: String
    /// When the report was made.
    public var createdAt: Date
    /// How the output felt overall, if said.
    public var sentiment: LanguageModelFeedback.Sentiment?
    /// The problems.
    public var issues: [LanguageModelFeedback.Issue]
    /// The output that was wanted instead, as a transcript entry, if given.
    public var desiredOutput: Transcript.Entry?
    /// The session's whole transcript when the report was made.
    public var transcript: Transcript
    /// Entries of turns that failed or were cancelled and were rolled back from the transcript.
    public var rolledBackEntries: [Transcript.Entry]
    /// The model's identifier.
    public var modelID: String
    /// The model's version.
    public var modelVersion: String
    /// The version of Parley that made the report.
    public var parleyVersion: String
    /// The app's context: for a game, the player, their inventory, the place, the NPC.
    public var context: [String: String]

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - id: The identifier; a new UUID by default.
    ///   - createdAt: When; now by default.
    ///   - sentiment: The overall sentiment.
    ///   - issues: The problems.
    ///   - desiredOutput: The wanted output.
    ///   - transcript: The transcript.
    ///   - rolledBackEntries: Rolled-back entries.
    ///   - modelID: The model's identifier.
    ///   - modelVersion: The model's version.
    ///   - parleyVersion: Parley's version.
    ///   - context: The app's context.
    public init(
        id: String = RandomID.uuidString(), createdAt: Date = Date(), sentiment: LanguageModelFeedback.Sentiment?,
        issues: [LanguageModelFeedback.Issue], desiredOutput: Transcript.Entry?, transcript: Transcript,
        rolledBackEntries: [Transcript.Entry] = [], modelID: String, modelVersion: String,
        parleyVersion: String = ParleyVersion.current, context: [String: String] = [:]
    ) {
        self.id = id
        self.createdAt = createdAt
        self.sentiment = sentiment
        self.issues = issues
        self.desiredOutput = desiredOutput
        self.transcript = transcript
        self.rolledBackEntries = rolledBackEntries
        self.modelID = modelID
        self.modelVersion = modelVersion
        self.parleyVersion = parleyVersion
        self.context = context
    }

    // MARK: - JSON

    /// The report as pretty-printed JSON, keys in a fixed order.
    public func jsonData() -> Data {
        Data(jsonValue.jsonString(.prettyPrinted).utf8)
    }

    var jsonValue: JSONValue {
        [
            "type": .string(FeedbackAttachment.type),
            "formatVersion": .integer(FeedbackAttachment.formatVersion),
            "id": .string(id),
            "createdAt": .string(createdAt.formatted(.iso8601)),
            "sentiment": sentiment.map { .string($0.rawValue) } ?? .null,
            "issues": .array(
                issues.map { issue in
                    [
                        "category": .string(issue.category.rawValue),
                        "explanation": issue.explanation.map(JSONValue.string) ?? .null,
                    ]
                }),
            "desiredOutput": desiredOutput.map(TranscriptJSON.encode) ?? .null,
            "model": ["id": .string(modelID), "version": .string(modelVersion)],
            "parley": ["version": .string(parleyVersion)],
            "context": .object(JSONObject(context.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            "transcript": TranscriptJSON.encode(transcript),
            "rolledBackEntries": .array(rolledBackEntries.map(TranscriptJSON.encode)),
        ]
    }

    /// Reads a report from its JSON.
    ///
    /// - Parameter data: The JSON, as `logFeedbackAttachment` or `jsonData()` produced it.
    /// - Throws: `DecodingError.dataCorrupted` saying what is missing or wrong.
    public init(data: Data) throws {
        func fail(_ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: [], debugDescription: "Not a Parley feedback attachment: \(message)"))
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(data))
        } catch {
            throw fail("the file is not JSON (\(error)).")
        }
        guard value["type"]?.stringValue == FeedbackAttachment.type else {
            throw fail("\"type\" is not \"\(FeedbackAttachment.type)\".")
        }
        guard let version = value["formatVersion"]?.intValue, version <= FeedbackAttachment.formatVersion else {
            throw fail(
                "its \"formatVersion\" is missing or newer than \(FeedbackAttachment.formatVersion); update Parley.")
        }
        guard let id = value["id"]?.stringValue else { throw fail("\"id\" is missing.") }
        guard let created = value["createdAt"]?.stringValue, let createdAt = try? Date(created, strategy: .iso8601)
        else { throw fail("\"createdAt\" is not an ISO 8601 time.") }
        guard let transcript = value["transcript"] else { throw fail("\"transcript\" is missing.") }
        var issues: [LanguageModelFeedback.Issue] = []
        for issue in value["issues"]?.arrayValue ?? [] {
            guard let name = issue["category"]?.stringValue,
                let category = LanguageModelFeedback.Issue.Category(rawValue: name)
            else { throw fail("an issue has an unknown category \(issue["category"]?.jsonString() ?? "(missing)").") }
            issues.append(.init(category: category, explanation: issue["explanation"]?.stringValue))
        }
        var context: [String: String] = [:]
        for (key, member) in value["context"]?.objectValue ?? JSONObject() { context[key] = member.stringValue }
        self.init(
            id: id, createdAt: createdAt,
            sentiment: value["sentiment"]?.stringValue.flatMap(LanguageModelFeedback.Sentiment.init(rawValue:)),
            issues: issues,
            desiredOutput: try value["desiredOutput"].flatMap { $0.isNull ? nil : try TranscriptJSON.decodeEntry($0) },
            transcript: try TranscriptJSON.decode(transcript, codingPath: []),
            rolledBackEntries: try (value["rolledBackEntries"]?.arrayValue ?? []).map(TranscriptJSON.decodeEntry),
            modelID: value["model"]?["id"]?.stringValue ?? "",
            modelVersion: value["model"]?["version"]?.stringValue ?? "",
            parleyVersion: value["parley"]?["version"]?.stringValue ?? "", context: context)
    }

    /// Reports compare by content; times to the second, as the JSON stores them.
    public static func == (lhs: FeedbackAttachment, rhs: FeedbackAttachment) -> Bool {
        lhs.id == rhs.id && Int(lhs.createdAt.timeIntervalSince1970) == Int(rhs.createdAt.timeIntervalSince1970)
            && lhs.sentiment == rhs.sentiment && lhs.issues == rhs.issues && lhs.desiredOutput == rhs.desiredOutput
            && lhs.transcript == rhs.transcript && lhs.rolledBackEntries == rhs.rolledBackEntries
            && lhs.modelID == rhs.modelID && lhs.modelVersion == rhs.modelVersion
            && lhs.parleyVersion == rhs.parleyVersion && lhs.context == rhs.context
    }
}
