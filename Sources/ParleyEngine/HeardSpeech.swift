import GameWorld
import ParleyJSON

/// A player's line that was spoken, not typed: what the speech recogniser heard, how sure it was, and how sure it
/// had to be for the NPC to act on the line. Kept in the turn's recording (`"heard"`, docs/recording-format.md)
/// beside the prompt, which holds the text the NPC answered.
///
/// A line heard less surely than ``minimumActingConfidence`` (the acting bar) is answered, but cannot make the NPC act:
/// in its turn the tools that change the game (`offerTrade`, `giveItem`, `acceptGift` and the game's own actions) are
/// refused with `RefusalReason.unclearSpeech`, the dialogue rules' effects do not run, and the NPC asks the player to
/// say it again (docs/speech.md, "A higher bar for acting").
public struct HeardSpeech: Sendable, Hashable {
    /// The text heard, as the NPC was told it.
    public var text: String
    /// How sure the recogniser was, 0 to 1, or `nil` when it gives no confidence.
    public var confidence: Double?
    /// What recognised it: `pocketsphinx`, or a transcription server's model.
    public var recognizer: String
    /// The acting bar: the lowest confidence at which the line may make the NPC act, 0 to 1; `nil` for none (the line
    /// acts at any confidence, as a typed one does). A line with no confidence acts only under a bar of 0.
    public var minimumActingConfidence: Double?

    /// Creates what was heard.
    ///
    /// - Parameters:
    ///   - text: The text heard.
    ///   - confidence: 0 to 1, or `nil`.
    ///   - recognizer: What recognised it.
    ///   - minimumActingConfidence: The acting bar, 0 to 1 (clamped), or `nil` for none.
    public init(text: String, confidence: Double?, recognizer: String, minimumActingConfidence: Double? = nil) {
        self.text = text
        self.confidence = confidence
        self.recognizer = recognizer
        self.minimumActingConfidence = minimumActingConfidence.map { min(max($0, 0), 1) }
    }

    /// Whether the line may make the NPC act: there is no acting bar, the bar is 0, or the recogniser was at least
    /// that sure. A line whose recogniser gave no confidence is not known to be sure, so it acts only under a bar of 0.
    public var mayAct: Bool {
        guard let bar = minimumActingConfidence, bar > 0 else { return true }
        guard let confidence else { return false }
        return confidence >= bar
    }

    /// `{"text", "confidence", "recognizer"}`, the confidence `null` when unknown; with an acting bar, also
    /// `"minimumActingConfidence"` and `"mayAct"` (whether the line could make the NPC act).
    public var jsonValue: JSONValue {
        var object = JSONObject([
            ("text", .string(text)), ("confidence", confidence.map(JSONValue.double) ?? .null),
            ("recognizer", .string(recognizer)),
        ])
        if let minimumActingConfidence {
            object["minimumActingConfidence"] = .double(minimumActingConfidence)
            object["mayAct"] = .bool(mayAct)
        }
        return .object(object)
    }

    /// Reads what `jsonValue` wrote; `nil` for anything else (a recording is never refused for it).
    ///
    /// - Parameter value: The JSON.
    public init?(jsonValue value: JSONValue) {
        guard let text = value["text"]?.stringValue else { return nil }
        func fraction(_ value: JSONValue?) -> Double? {
            value?.doubleValue.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil }
        }
        self.init(
            text: text, confidence: fraction(value["confidence"]), recognizer: value["recognizer"]?.stringValue ?? "",
            minimumActingConfidence: fraction(value["minimumActingConfidence"]))
    }
}

extension Game {
    /// Says a spoken line to an NPC directly, as ``say(_:to:output:)`` does, and notes in the turn's recording that
    /// it was heard, not typed, with the recogniser's confidence and the acting bar.
    ///
    /// A line below its acting bar (`heard.mayAct` is `false`) is answered, but changes nothing: the NPC's tools that
    /// act (`offerTrade`, `giveItem`, `acceptGift`, the game's actions) are refused in its turn with
    /// `RefusalReason.unclearSpeech` (the refusal is in the turn's entries, as every refusal is, and no feedback report
    /// is filed for it: the model did nothing wrong), and the rules' effects of the turn do not run. The tools that
    /// only read (`lookUpStock`, `inspectPlayer`) still answer.
    ///
    /// - Parameters:
    ///   - heard: What the recogniser heard; its text is the line.
    ///   - npc: The NPC spoken to.
    ///   - output: Receives what the game shows.
    public func say(_ heard: HeardSpeech, to npc: NPCID, output: @Sendable (GameOutput) -> Void) async {
        let before = (all: attachments.recordings.count, new: attachments.new.recordings.count)
        // The bar holds for this NPC's turn only; the tools read it from the shared state while the turn runs.
        let holdsBack = !heard.mayAct
        if holdsBack { shared.update { $0.unclearSpeech[npc] = heard } }
        await say(heard.text, to: npc, output: output)
        if holdsBack { shared.update { $0.unclearSpeech[npc] = nil } }
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
