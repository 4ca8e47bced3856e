import Foundation
import ParleyJSON

// One entry of Apple's transcript JSON on its own: the objects found in `{"transcript": {"entries": [...]}}`.
// Save files keep a conversation as one such object per row, so that a turn appends rows instead of rewriting the
// whole transcript.

extension Transcript.Entry {
    /// The entry as the JSON object Apple's format puts in a transcript's `entries` array.
    ///
    /// It is exactly the object that `Transcript.jsonString()` writes for this entry, keys in the same fixed order.
    public var jsonValue: JSONValue { TranscriptJSON.encode(self) }

    /// The entry as Apple-format JSON text: the same bytes every time for the same entry, and the same bytes
    /// `Transcript.jsonString()` writes for it inside a transcript.
    ///
    /// ```swift
    /// let json = entry.jsonString()          // {"id":"…","role":"user","contents":[…],"options":{}}
    /// let again = try Transcript.Entry(json: json)
    /// again.jsonString() == json             // true
    /// ```
    ///
    /// - Parameter prettyPrinted: Indent the JSON for people to read.
    /// - Returns: The JSON text of one entry object.
    public func jsonString(prettyPrinted: Bool = false) -> String {
        jsonValue.jsonString(prettyPrinted ? .prettyPrinted : [])
    }

    /// The entry's role in Apple's JSON: `instructions`, `user`, `response` (for responses and tool calls),
    /// `tool`, `reasoning`, or an unknown entry's own.
    public var appleRole: String {
        switch self {
        case .instructions: "instructions"
        case .prompt: "user"
        case .toolCalls, .response: "response"
        case .toolOutput: "tool"
        case .reasoning: "reasoning"
        case .unknown(let unknown): unknown.role
        }
    }

    /// The JSON object the entry was read from, if it was read from JSON (see `JSONSource`).
    var source: JSONSource {
        switch self {
        case .instructions(let value): value.source
        case .prompt(let value): value.source
        case .toolCalls(let value): value.source
        case .toolOutput(let value): value.source
        case .response(let value): value.source
        case .reasoning(let value): value.source
        case .unknown: .none
        }
    }

    /// The same entry without the JSON it was read from: written, it takes this version's form (Apple 27's option
    /// names, keys in Parley's fixed order) and leaves out the members this version does not read.
    ///
    /// An entry read from JSON is otherwise written back as it was read (docs/transcript-format.md); use this to
    /// compare what two files mean rather than how they were written. An unknown entry stays as it is.
    public var normalized: Transcript.Entry {
        switch self {
        case .instructions(var value):
            value.source = .none
            return .instructions(value)
        case .prompt(var value):
            value.source = .none
            return .prompt(value)
        case .toolCalls(var value):
            value.source = .none
            return .toolCalls(value)
        case .toolOutput(var value):
            value.source = .none
            return .toolOutput(value)
        case .response(var value):
            value.source = .none
            return .response(value)
        case .reasoning(var value):
            value.source = .none
            return .reasoning(value)
        case .unknown: return self
        }
    }

    /// Decodes one entry from its Apple-format JSON object text.
    ///
    /// - Parameter json: One entry object, as `jsonString()` or Apple's framework wrote it.
    /// - Throws: `DecodingError.dataCorrupted` for text that is not JSON, or is not an entry (naming the problem,
    ///   for example `"toolName" is missing.`).
    public init(json: String) throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [], debugDescription: "The transcript entry is not valid JSON: \(error)",
                    underlyingError: error))
        }
        try self.init(jsonValue: value)
    }

    /// Decodes one entry from its Apple-format JSON object.
    ///
    /// - Parameter value: One entry object.
    /// - Throws: `DecodingError.dataCorrupted` naming the member at fault and the problem.
    public init(jsonValue value: JSONValue) throws {
        do {
            self = try TranscriptJSON.decodeEntry(value)
        } catch let failure as TranscriptJSON.Failure {
            let role = value["role"]?.stringValue.map { " (role \"\($0)\")" } ?? ""
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: failure.path.map { TranscriptCodingKey($0) },
                    debugDescription: "Entry\(role): \(failure.message)"))
        }
    }
}
