import GameWorld
import ParleyBasics
import ParleyEngine
import ParleyJSON
import ParleySpeech
import Synchronization

/// Speech in for the games of `parley serve` (`--listen pocketsphinx` or `--listen-model URL`):
/// `POST /v1/games/{id}/npcs/{npc}/say` then also takes the line as `audio/wav`. The line is recognised with the
/// game's vocabulary (`SpeechVocabulary(world:)`), a `heard` event says what was heard and how surely, and the NPC
/// answers it as a typed line; below `minimumConfidence` the NPC asks the player to say it again instead, and nothing
/// else happens. Between `minimumConfidence` and `minimumActingConfidence` (the acting bar) the NPC answers the line
/// but may not act on it: an offer, a gift or one of the game's actions in answer is refused, and the NPC asks the
/// player to say it again (`HeardSpeech.mayAct`). docs/api.md, "Speech in".
///
/// ```swift
/// var configuration = APIGames.Configuration(pack: pack, models: models, store: nil)
/// configuration.listening = APIListening(recognizer: PocketSphinxRecognizer(), name: "pocketsphinx")
/// ```
public struct APIListening: Sendable {
    /// What recognises the lines.
    public var recognizer: any SpeechRecognizer
    /// Its name in events and recordings: `pocketsphinx`, or a transcription server's model.
    public var name: String
    /// Below this confidence, the NPC asks again: the recogniser's own (`SpeechRecognizer.minimumConfidence`) unless
    /// given.
    public var minimumConfidence: Double
    /// The acting bar: below this confidence, a line the NPC answers may not make it act (its offers, gifts and the
    /// game's actions in answer are refused, and it asks the player to say the line again); a line whose recogniser
    /// gives no confidence acts only under a bar of 0. The recogniser's own
    /// (`SpeechRecognizer.minimumActingConfidence`) unless given. A setting of the server, not of the games: it is
    /// not saved, and a game loaded by a server with another bar hears its next lines under that one (what a line did
    /// under the old bar is in the transcript and the save).
    public var minimumActingConfidence: Double

    /// Creates speech in for the games.
    ///
    /// - Parameters:
    ///   - recognizer: What recognises the lines.
    ///   - name: Its name in events and recordings.
    ///   - minimumConfidence: The lowest confidence answered, 0 to 1; the recogniser's own when `nil`.
    ///   - minimumActingConfidence: The lowest confidence acted on, 0 to 1; the recogniser's own when `nil`.
    public init(
        recognizer: any SpeechRecognizer, name: String, minimumConfidence: Double? = nil,
        minimumActingConfidence: Double? = nil
    ) {
        self.recognizer = recognizer
        self.name = name
        self.minimumConfidence = min(max(minimumConfidence ?? recognizer.minimumConfidence, 0), 1)
        self.minimumActingConfidence = min(max(minimumActingConfidence ?? recognizer.minimumActingConfidence, 0), 1)
    }
}

/// The recogniser of a server's games, with the vocabularies of the worlds they play, made once each.
final class GameListening: Sendable {
    /// The configuration.
    let listening: APIListening
    private let vocabularies = Mutex<[ContentHash: SpeechVocabulary]>([:])

    init(listening: APIListening) {
        self.listening = listening
    }

    /// The vocabulary of a world, made the first time it is asked for.
    func vocabulary(of world: World) -> SpeechVocabulary {
        if let known = vocabularies.withLock({ $0[world.contentHash] }) { return known }
        let vocabulary = SpeechVocabulary(world: world)
        vocabularies.withLock { $0[world.contentHash] = vocabulary }
        return vocabulary
    }

    /// Recognises a line in a world.
    ///
    /// - Throws: `ListeningError`.
    func recognize(_ audio: SpeechAudio, in world: World) async throws -> HeardSpeech {
        let vocabulary = vocabulary(of: world)
        let recognized = try await listening.recognizer.recognize(audio, vocabulary: vocabulary)
        return HeardSpeech(
            text: recognized.text, confidence: recognized.confidence, recognizer: listening.name,
            minimumActingConfidence: listening.minimumActingConfidence)
    }

    /// Whether a line heard so is acted on.
    func isClear(_ heard: HeardSpeech) -> Bool {
        RecognizedSpeech(text: heard.text, confidence: heard.confidence).isClear(
            minimum: listening.minimumConfidence)
    }
}

extension APIGame {
    /// Says a spoken line to an NPC directly: a `heard` event with what was recognised; then, when it is clear
    /// enough, the NPC's answer as to a typed line (its recording notes the speech), else the NPC's `askAgain` line
    /// and nothing more (no turn, nothing saved). A line answered below its acting bar (`heard.mayAct` is `false`)
    /// cannot make the NPC act (`Game.say(_:to:output:)` with a `HeardSpeech`). The `heard` event's `mayAct` says
    /// whether the line could. Runs after every line that came before it.
    ///
    /// - Parameters:
    ///   - heard: What the recogniser heard.
    ///   - npc: The NPC, one of the world's.
    ///   - emit: Receives each event as it happens, for streaming.
    /// - Returns: Every event of the line, in order, the `heard` event first.
    public func say(
        _ heard: HeardSpeech, understood: Bool, to npc: NPCID,
        emit: @escaping @Sendable (APIEvent) -> Void = { _ in }
    ) async -> [APIEvent] {
        let host = self.host
        let eventLog = self.eventLog
        return await serialized {
            let world = await host.game.state.world
            let name = world.npcs[npc]?.name ?? npc.rawValue
            let heardEvent = APIEvent(
                .heard, npc: APIEvent.NPCReference(id: npc, name: name),
                JSONObject([
                    ("text", .string(heard.text)), ("confidence", heard.confidence.map(JSONValue.double) ?? .null),
                    ("understood", .bool(understood)), ("mayAct", .bool(understood && heard.mayAct)),
                ]))
            eventLog.publish(heardEvent)
            emit(heardEvent)
            let events = await recording(emit: emit) { output in
                if understood {
                    await host.say(heard, to: npc, output: output)
                } else {
                    let line = world.lexicon(for: npc).text(.askAgain, [:])
                    output(.speechBegan(npc: name))
                    output(.speech(line))
                    output(.speechEnded)
                }
                return true
            }.events
            return [heardEvent] + events
        }
    }
}
