import GameWorld
import ParleyJSON

/// A player's line that was spoken, not typed: what the speech recogniser heard and how sure it was. Kept in the
/// turn's recording (`"heard"`, docs/recording-format.md) beside the prompt, which holds the text the NPC answered.
public struct HeardSpeech: Sendable, Hashable {
    /// The text heard, as the NPC was told it.
    public var text: String
    /// How sure the recogniser was, 0 to 1, or `nil` when it gives no confidence.
    public var confidence: Double?
    /// What recognised it: `pocketsphinx`, or a transcription server's model.
    public var recognizer: String

    /// Creates what was heard.
    ///
    /// - Parameters:
    ///   - text: The text heard.
    ///   - confidence: 0 to 1, or `nil`.
    ///   - recognizer: What recognised it.
    public init(text: String, confidence: Double?, recognizer: String) {
        self.text = text
        self.confidence = confidence
        self.recognizer = recognizer
    }

    /// `{"text", "confidence", "recognizer"}`, the confidence `null` when unknown.
    public var jsonValue: JSONValue {
        .object(
            JSONObject([
                ("text", .string(text)), ("confidence", confidence.map(JSONValue.double) ?? .null),
                ("recognizer", .string(recognizer)),
            ]))
    }

    /// Reads what `jsonValue` wrote; `nil` for anything else (a recording is never refused for it).
    ///
    /// - Parameter value: The JSON.
    public init?(jsonValue value: JSONValue) {
        guard let text = value["text"]?.stringValue else { return nil }
        self.init(
            text: text,
            confidence: value["confidence"]?.doubleValue.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil },
            recognizer: value["recognizer"]?.stringValue ?? "")
    }
}

extension Game {
    /// Says a spoken line to an NPC directly, as ``say(_:to:output:)`` does, and notes in the turn's recording that
    /// it was heard, not typed, with the recogniser's confidence.
    ///
    /// - Parameters:
    ///   - heard: What the recogniser heard; its text is the line.
    ///   - npc: The NPC spoken to.
    ///   - output: Receives what the game shows.
    public func say(_ heard: HeardSpeech, to npc: NPCID, output: @Sendable (GameOutput) -> Void) async {
        let before = (all: attachments.recordings.count, new: attachments.new.recordings.count)
        await say(heard.text, to: npc, output: output)
        // The turn's recordings: those made since, in both lists (a host may have taken the new ones meanwhile).
        for index in attachments.recordings.indices.dropFirst(before.all) where attachments.recordings[index].npc == npc {
            attachments.recordings[index].heard = heard
        }
        let newStart = min(before.new, attachments.new.recordings.count)
        for index in attachments.new.recordings.indices.dropFirst(newStart)
        where attachments.new.recordings[index].npc == npc {
            attachments.new.recordings[index].heard = heard
        }
    }
}
