import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyJSON

/// One recorded turn of an NPC conversation: what went in, the game as it was, what came out, which model made it.
///
/// The game records every turn, keeps the recordings in the save, and `parley recordings export` writes them as a
/// JSON array. `parley replay` runs the recorded inputs again, from the same game state and the same earlier
/// conversation at each turn, against another model or model version, and reports what changed. The format is
/// documented in `docs/recording-format.md`.
public struct TurnRecording: Sendable, Equatable, Identifiable {
    /// The format's `type` field.
    public static let type = "Parley.TurnRecording"
    /// The format's version.
    public static let formatVersion = 1
    /// The `model.id` of a recorded authored beat: a line from content, said verbatim, not generated.
    public static let beatModelID = "beat"
    /// The `model.id` of a recorded event an NPC witnessed without answering (a game's event told without `react`):
    /// its prompt joined the conversation, and no model was asked.
    public static let witnessedModelID = "witnessed"

    /// The recording's identifier.
    public var id: String
    /// When the turn was taken.
    public var createdAt: Date
    /// The NPC spoken to.
    public var npc: NPCID
    /// The NPC's instructions entry when the turn was taken (the working transcript's first entry).
    public var instructions: Transcript.Entry?
    /// What the player said or did: the turn's prompt entry.
    public var input: Transcript.Entry
    /// The game context: player, gold, inventory, location.
    public var context: [String: String]
    /// The game state before the turn.
    public var stateBefore: DynamicState
    /// The entries the turn added (its prompt first); empty when it failed.
    public var entries: [Transcript.Entry]
    /// Why the turn failed, or `nil` when it succeeded.
    public var failure: String?
    /// The model's id.
    public var modelID: String
    /// The model's version.
    public var modelVersion: String
    /// Parley's version.
    public var parleyVersion: String
    /// Token counts, if the backend reported them.
    public var usage: GenerationUsage?
    /// Milliseconds from the prompt to the first words of the answer, and to its end.
    public var firstWordsMilliseconds: Double?
    /// Milliseconds the whole turn took.
    public var totalMilliseconds: Double
    /// The false statements the claim check found in the NPC's answer (`FalseClaim.description`); empty for none.
    public var falseClaims: [String] = []
    /// How the line came to be when a server played the NPC (`VoicedModel`): voiced, regenerated or fallen back to
    /// the planner; `nil` for other models.
    public var voicing: TurnVoicing?
    /// The model's context window in tokens when the turn was taken, or `nil` when it was not known (a beat, an
    /// older recording): what ``usage``'s prompt tokens are measured against.
    public var contextSize: Int?
    /// The trims of the working transcript during this turn, or `nil` when the turn trimmed nothing.
    public var trim: ContextTrim?
    /// What a speech recogniser heard when the line was spoken (`POST .../say` with `audio/wav`), with its
    /// confidence; `nil` for a typed line.
    public var heard: HeardSpeech?

    /// The trims of an NPC's working transcript during one turn: how many, and what the instructions kept of what was
    /// trimmed (the running summary and the facts that still hold), so that a reader sees where the context was cut
    /// and what the NPC remembered of it.
    public struct ContextTrim: Sendable, Equatable {
        /// How many times the turn trimmed (more than once when it still did not fit).
        public var count: Int
        /// The summary and facts the last trim added to the instructions, or `nil` under the `firstAndLast` policy.
        public var notes: String?
        /// How many entries of the earlier conversation the last trim kept after the instructions: the working
        /// transcript the turn was answered from is the instructions and the conversation's last `kept` entries.
        /// A replay re-creates the trim from it; `nil` in recordings made before it was kept.
        public var kept: Int?

        /// Creates a trim record.
        ///
        /// - Parameters:
        ///   - count: How many times the turn trimmed.
        ///   - notes: The summary and facts kept.
        ///   - kept: How many entries of the earlier conversation the last trim kept.
        public init(count: Int, notes: String?, kept: Int? = nil) {
            self.count = count
            self.notes = notes
            self.kept = kept
        }
    }

    /// The answer's text: the last response entry's segments.
    public var responseText: String? {
        entries.last { if case .response = $0 { true } else { false } }.map { $0.segments.map(\.description).joined() }
    }

    /// The tool calls the turn made, as `name {arguments}`, in order.
    public var toolCalls: [String] {
        entries.flatMap { entry -> [String] in
            guard case .toolCalls(let calls) = entry else { return [] }
            return calls.map { "\($0.toolName) \($0.arguments.jsonString)" }
        }
    }

    /// The tool calls the turn made that the game refused because the player's spoken line was heard too unsurely to
    /// act on (`RefusalReason.unclearSpeech`: the line was below its acting bar, `heard.mayAct` is `false`), as
    /// `name {arguments}`, in order; empty for every other turn. Read from the turn's tool outputs, where the refusal
    /// is, as every refusal is.
    public var unclearSpeechRefusals: [String] {
        var calls: [String: Transcript.ToolCall] = [:]
        var refused: [String] = []
        for entry in entries {
            switch entry {
            case .toolCalls(let made):
                for call in made { calls[call.id] = call }
            case .toolOutput(let output):
                let reasons: [RefusalReason]
                if let result = GameActionResult(output) {
                    reasons = result.refusals
                } else if case .action(let result)? = NPCToolOutput(output) {
                    reasons = result.reasons
                } else {
                    continue
                }
                guard reasons.contains(where: { if case .unclearSpeech = $0 { true } else { false } }) else { continue }
                let call = calls[output.id]
                refused.append("\(output.toolName) \(call?.arguments.jsonString ?? "{}")")
            default: break
            }
        }
        return refused
    }

    // MARK: - JSON

    /// The recording as JSON.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["type"] = .string(Self.type)
        object["formatVersion"] = .integer(Self.formatVersion)
        object["id"] = .string(id)
        object["createdAt"] = .string(createdAt.formatted(.iso8601))
        object["npc"] = .string(npc.rawValue)
        object["model"] = ["id": .string(modelID), "version": .string(modelVersion)]
        object["parley"] = ["version": .string(parleyVersion)]
        object["instructions"] = instructions?.jsonValue ?? .null
        object["input"] = input.jsonValue
        object["context"] = .object(JSONObject(context.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        object["stateBefore"] = stateBefore.jsonValue
        object["entries"] = .array(entries.map(\.jsonValue))
        object["failure"] = failure.map(JSONValue.string) ?? .null
        object["usage"] =
            usage.map { usage in
                var counts = JSONObject()
                counts["promptTokens"] = .integer(usage.promptTokens)
                counts["cachedPromptTokens"] = usage.cachedPromptTokens.map { .integer($0) } ?? .null
                counts["completionTokens"] = .integer(usage.completionTokens)
                return .object(counts)
            } ?? .null
        object["timings"] = [
            "firstWordsMilliseconds": firstWordsMilliseconds.map(JSONValue.double) ?? .null,
            "totalMilliseconds": .double(totalMilliseconds),
        ]
        if !falseClaims.isEmpty { object["falseClaims"] = .array(falseClaims.map(JSONValue.string)) }
        if let voicing { object["voicing"] = voicing.jsonValue }
        if let contextSize { object["contextSize"] = .integer(contextSize) }
        if let heard { object["heard"] = heard.jsonValue }
        if let trim {
            var trimObject = JSONObject()
            trimObject["count"] = .integer(trim.count)
            trimObject["notes"] = trim.notes.map(JSONValue.string) ?? .null
            if let kept = trim.kept { trimObject["kept"] = .integer(kept) }
            object["trim"] = .object(trimObject)
        }
        return .object(object)
    }

    /// Reads a recording from its JSON.
    ///
    /// - Parameter value: The JSON, as `jsonValue` wrote it.
    /// - Throws: `DecodingError.dataCorrupted` saying what is missing or wrong.
    public init(jsonValue value: JSONValue) throws {
        func fail(_ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: [], debugDescription: "Not a Parley turn recording: \(message)"))
        }
        guard value["type"]?.stringValue == Self.type else { throw fail("\"type\" is not \"\(Self.type)\".") }
        guard let version = value["formatVersion"]?.intValue, version <= Self.formatVersion else {
            throw fail("its \"formatVersion\" is missing or newer than \(Self.formatVersion); update Parley.")
        }
        guard let id = value["id"]?.stringValue, let npc = value["npc"]?.stringValue else {
            throw fail("\"id\" or \"npc\" is missing.")
        }
        guard let input = value["input"] else { throw fail("\"input\" is missing.") }
        var context: [String: String] = [:]
        for (key, member) in value["context"]?.objectValue ?? JSONObject() { context[key] = member.stringValue }
        // Counts and times come from a file anyone may have edited (and first from a model server): a count
        // saturates (never below 0), a time that is not a finite, non-negative number is not a time.
        func count(_ value: JSONValue?) -> Int? { value?.saturatingIntValue.map { max($0, 0) } }
        func milliseconds(_ value: JSONValue?) -> Double? {
            value?.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
        let usage = value["usage"].flatMap { usage -> GenerationUsage? in
            guard let prompt = count(usage["promptTokens"]) else { return nil }
            return GenerationUsage(
                promptTokens: prompt, cachedPromptTokens: count(usage["cachedPromptTokens"]),
                completionTokens: count(usage["completionTokens"]) ?? 0)
        }
        self.init(
            id: id,
            createdAt: value["createdAt"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) }
                ?? Date(timeIntervalSince1970: 0),
            npc: NPCID(npc),
            instructions: try value["instructions"].flatMap { $0.isNull ? nil : try Transcript.Entry(jsonValue: $0) },
            input: try Transcript.Entry(jsonValue: input), context: context,
            stateBefore: try DynamicState(jsonValue: value["stateBefore"] ?? [:]),
            entries: try (value["entries"]?.arrayValue ?? []).map { try Transcript.Entry(jsonValue: $0) },
            failure: value["failure"]?.stringValue, modelID: value["model"]?["id"]?.stringValue ?? "",
            modelVersion: value["model"]?["version"]?.stringValue ?? "",
            parleyVersion: value["parley"]?["version"]?.stringValue ?? "", usage: usage,
            firstWordsMilliseconds: milliseconds(value["timings"]?["firstWordsMilliseconds"]),
            totalMilliseconds: milliseconds(value["timings"]?["totalMilliseconds"]) ?? 0)
        falseClaims = value["falseClaims"]?.arrayValue?.compactMap(\.stringValue) ?? []
        voicing = value["voicing"].flatMap(TurnVoicing.init(jsonValue:))
        contextSize = count(value["contextSize"]).flatMap { $0 > 0 ? $0 : nil }
        heard = value["heard"].flatMap(HeardSpeech.init(jsonValue:))
        trim = value["trim"].flatMap { trim in
            count(trim["count"]).flatMap {
                $0 > 0 ? ContextTrim(count: $0, notes: trim["notes"]?.stringValue, kept: count(trim["kept"])) : nil
            }
        }
    }

    /// Creates a recording.
    public init(
        id: String = RandomID.uuidString(), createdAt: Date = Date(), npc: NPCID, instructions: Transcript.Entry?,
        input: Transcript.Entry, context: [String: String], stateBefore: DynamicState, entries: [Transcript.Entry],
        failure: String? = nil, modelID: String, modelVersion: String, parleyVersion: String = ParleyVersion.current,
        usage: GenerationUsage? = nil, firstWordsMilliseconds: Double? = nil, totalMilliseconds: Double
    ) {
        self.id = id
        self.createdAt = createdAt
        self.npc = npc
        self.instructions = instructions
        self.input = input
        self.context = context
        self.stateBefore = stateBefore
        self.entries = entries
        self.failure = failure
        self.modelID = modelID
        self.modelVersion = modelVersion
        self.parleyVersion = parleyVersion
        self.usage = usage
        self.firstWordsMilliseconds = firstWordsMilliseconds
        self.totalMilliseconds = totalMilliseconds
    }

    /// Equal when everything but the times (which the JSON keeps to the millisecond and second) is equal.
    public static func == (lhs: TurnRecording, rhs: TurnRecording) -> Bool {
        lhs.id == rhs.id && lhs.npc == rhs.npc && lhs.instructions == rhs.instructions && lhs.input == rhs.input
            && lhs.context == rhs.context && lhs.stateBefore == rhs.stateBefore && lhs.entries == rhs.entries
            && lhs.failure == rhs.failure && lhs.modelID == rhs.modelID && lhs.modelVersion == rhs.modelVersion
            && lhs.usage == rhs.usage && lhs.contextSize == rhs.contextSize && lhs.trim == rhs.trim
    }
}
