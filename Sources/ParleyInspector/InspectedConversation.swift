import Foundation
import GameWorld
import LanguageModels
import NPCContract
import ParleyEngine
import ParleyJSON

/// One NPC's conversation in a save, turn by turn, with everything the inspector shows beside each turn: the game
/// context it was spoken in, the model that answered, the tool calls and outputs, the feedback reports filed about it,
/// the recording's token counts, timings and context trims.
struct InspectedConversation: Sendable {
    /// The slot the conversation is saved in.
    var slot: String
    /// The NPC.
    var npc: NPCID
    /// The NPC's name, as the save recorded it.
    var npcName: String
    /// The conversation as saved.
    var annotated: AnnotatedTranscript
    /// The NPC's instructions, the transcript's first entry.
    var instructions: String?
    /// The turns, in order.
    var turns: [Turn]
    /// The reports about this NPC that no turn could be found for (a report made before any turn was saved).
    var otherReports: [FeedbackAttachment]

    /// One turn: a prompt and the entries after it, up to the next prompt.
    struct Turn: Sendable {
        /// 1 for the first turn.
        var number: Int
        /// The prompt entry.
        var prompt: Transcript.Prompt
        /// The entries after the prompt: tool calls, tool outputs, reasoning, the response.
        var entries: [Transcript.Entry]
        /// The game context the turn was spoken in (player, gold, inventory, location, world, story), if saved.
        var annotations: [String: String]
        /// The turn's recording, if the save has one.
        var recording: TurnRecording?
        /// The feedback reports filed about this turn (the last turn of their transcript), oldest first.
        var reports: [FeedbackAttachment]

        /// Whether the prompt is a game event the NPC witnessed, not the player's words.
        var isWitnessedEvent: Bool { prompt.isWitnessedEvent }

        /// What the player said, or the event the NPC witnessed.
        var input: String {
            let text = prompt.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }
            return text.isEmpty
                ? prompt.segments.map(\.description).joined(separator: " ") : text.joined(separator: " ")
        }

        /// The response entry, if the turn has one.
        var response: Transcript.Response? {
            for case .response(let response) in entries.reversed() { return response }
            return nil
        }

        /// The NPC's reply.
        var reply: String? { response.map { $0.segments.map(\.description).joined(separator: " ") } }

        /// Whether the reply is an authored beat: a line from content, said word for word.
        var isBeat: Bool {
            recording?.modelID == TurnRecording.beatModelID || response?.assetIDs.first == TurnRecording.beatModelID
        }

        /// The model that answered: the recording's, else the response's first asset id (`id@version`).
        var model: (id: String, version: String)? {
            if let recording { return (recording.modelID, recording.modelVersion) }
            guard let asset = response?.assetIDs.first else { return nil }
            let parts = asset.split(separator: "@", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }

        /// The tool calls, each with the output the game gave it.
        var toolCalls: [(call: Transcript.ToolCall, output: Transcript.ToolOutput?)] {
            // Each output answers the earliest call of its tool that has none yet.
            var outputs = entries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
            var result: [(Transcript.ToolCall, Transcript.ToolOutput?)] = []
            for case .toolCalls(let calls) in entries {
                for call in calls {
                    let index = outputs.firstIndex { $0.toolName == call.toolName }
                    result.append((call, index.map { outputs.remove(at: $0) }))
                }
            }
            return result
        }

        /// How many requests the turn sent its model: one per round of tool calls, and one for the answer.
        var requests: Int {
            entries.filter { if case .toolCalls = $0 { true } else { false } }.count + (response == nil ? 0 : 1)
        }

        /// The prompt tokens of one of the turn's requests, on average: the recording's count covers all of them (each
        /// sends the whole conversation), so this is what compares with the context window.
        var promptTokensPerRequest: Int? {
            recording?.usage.map { $0.promptTokens / max(requests, 1) }
        }

        /// Whether a report about a refused offer was filed in this turn.
        var hasRefusedOffer: Bool {
            reports.contains { $0.context[FeedbackReport.Kind.key] == FeedbackReport.Kind.refusedOffer.rawValue }
                || toolCalls.contains { $0.output.map(Self.isRefusal) ?? false }
        }

        /// Whether a tool output says the game refused the action.
        static func isRefusal(_ output: Transcript.ToolOutput) -> Bool {
            guard case .structure(let segment)? = output.segments.first,
                let status = segment.content.jsonValue["status"]?.stringValue
            else { return false }
            return status == ActionStatus.refused.rawValue
        }
    }

    /// Reads a conversation and what belongs to it.
    ///
    /// - Parameters:
    ///   - annotated: The saved conversation.
    ///   - slot: Its slot.
    ///   - npc: Its NPC.
    ///   - recordings: The save's recordings (any NPC's; this NPC's are used).
    ///   - reports: The save's feedback reports (any NPC's; this NPC's are used).
    init(
        _ annotated: AnnotatedTranscript, slot: String, npc: NPCID, recordings: [TurnRecording],
        reports: [FeedbackAttachment]
    ) {
        self.slot = slot
        self.npc = npc
        self.annotated = annotated
        npcName = annotated.annotations[.npcName] ?? npc.rawValue
        var recordingsByPrompt: [String: TurnRecording] = [:]
        for recording in recordings where recording.npc == npc { recordingsByPrompt[recording.input.id] = recording }
        var turns: [Turn] = []
        var instructions: String?
        for entry in annotated.transcript {
            switch entry {
            case .instructions(let entry) where turns.isEmpty && instructions == nil:
                instructions = entry.segments.map(\.description).joined(separator: "\n")
            case .prompt(let prompt):
                turns.append(
                    Turn(
                        number: turns.count + 1, prompt: prompt, entries: [],
                        annotations: annotated.turnAnnotations[prompt.id] ?? [:],
                        recording: recordingsByPrompt[prompt.id], reports: []))
            default:
                if !turns.isEmpty { turns[turns.count - 1].entries.append(entry) }
            }
        }
        let index = Dictionary(turns.enumerated().map { ($1.prompt.id, $0) }, uniquingKeysWith: { first, _ in first })
        var others: [FeedbackAttachment] = []
        for report in reports where report.context[.npc].map({ $0 == npc.rawValue }) ?? false {
            let lastPrompt = report.transcript.last { if case .prompt = $0 { true } else { false } }
            if let id = lastPrompt?.id, let position = index[id] {
                turns[position].reports.append(report)
            } else {
                others.append(report)
            }
        }
        self.instructions = instructions
        self.turns = turns
        otherReports = others
    }

    /// The model of the whole conversation, as saved.
    var model: (id: String, version: String) {
        (annotated.annotations[.modelID] ?? "", annotated.annotations[.modelVersion] ?? "")
    }

    /// The largest context window any turn was taken with, if recorded.
    var contextSize: Int? { turns.compactMap { $0.recording?.contextSize }.max() }

    /// The transcript up to and including a turn: what a report about that turn carries.
    ///
    /// - Parameter turn: The turn.
    /// - Returns: The entries before the next turn's prompt.
    func transcript(through turn: Turn) -> Transcript {
        var entries: [Transcript.Entry] = []
        var seenPrompt = false
        for entry in annotated.transcript {
            if case .prompt(let prompt) = entry {
                if seenPrompt { break }
                if prompt.id == turn.prompt.id { seenPrompt = true }
            }
            entries.append(entry)
        }
        return Transcript(entries: entries)
    }

    // MARK: - JSON

    /// The conversation as `GET /v1/saves/{slot}/conversations/{npc}` answers it.
    var jsonValue: JSONValue {
        var object = JSONObject()
        object["slot"] = .string(slot)
        object["npc"] = ["id": .string(npc.rawValue), "name": .string(npcName)]
        object["model"] = ["id": .string(model.id), "version": .string(model.version)]
        object["contextSize"] = contextSize.map { .integer($0) } ?? .null
        object["turns"] = .array(turns.map(\.jsonValue))
        object["transcript"] = annotated.jsonValue
        return .object(object)
    }
}

extension InspectedConversation.Turn {
    /// The turn as the conversation's JSON lists it.
    var jsonValue: JSONValue {
        var object = JSONObject()
        object["number"] = .integer(number)
        object["promptEntry"] = .string(prompt.id)
        object["input"] = .string(input)
        object["witnessedEvent"] = .bool(isWitnessedEvent)
        object["reply"] = reply.map(JSONValue.string) ?? .null
        object["beat"] = .bool(isBeat)
        object["model"] = model.map { ["id": .string($0.id), "version": .string($0.version)] } ?? .null
        object["annotations"] = .object(
            JSONObject(annotations.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        object["toolCalls"] = .array(
            toolCalls.map { pair in
                [
                    "tool": .string(pair.call.toolName),
                    "arguments": (try? JSONValue(parsing: pair.call.arguments.jsonString)) ?? .null,
                    "output": pair.output.map { output in
                        let text = output.segments.map(\.description).joined(separator: " ")
                        return (try? JSONValue(parsing: text)) ?? .string(text)
                    } ?? .null,
                ]
            })
        object["refusedOffer"] = .bool(hasRefusedOffer)
        object["reports"] = .array(reports.map { .string($0.id) })
        let recording = self.recording
        object["usage"] =
            recording?.usage.map { usage in
                [
                    "promptTokens": .integer(usage.promptTokens),
                    "cachedPromptTokens": usage.cachedPromptTokens.map { .integer($0) } ?? .null,
                    "completionTokens": .integer(usage.completionTokens),
                ]
            } ?? .null
        object["requests"] = .integer(requests)
        object["contextSize"] = recording?.contextSize.map { .integer($0) } ?? .null
        object["firstWordsMilliseconds"] = recording?.firstWordsMilliseconds.map(JSONValue.double) ?? .null
        object["trim"] =
            recording?.trim.map { trim in
                ["count": .integer(trim.count), "notes": trim.notes.map(JSONValue.string) ?? .null]
            } ?? .null
        return .object(object)
    }
}
