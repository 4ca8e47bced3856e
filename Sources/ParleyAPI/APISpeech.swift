import Foundation
import GameWorld
import ParleyBasics
import ParleyJSON
import ParleySpeech
import Synchronization

/// NPC lines spoken for the games of `parley serve` (`--speech espeak` or `--speech-model URL`): each `speechEnded`
/// event then carries `audio`, the path of the line's WAV (`GET /v1/games/{id}/audio/{eventId}`), and `visemes`, the
/// mouth shapes over its time (empty from a speech server, which gives no phonemes). docs/api.md, "Speech".
///
/// ```swift
/// var configuration = APIGames.Configuration(pack: pack, models: models, store: nil)
/// configuration.speech = APISpeech(synthesizer: ESpeakSynthesizer())
/// ```
public struct APISpeech: Sendable {
    /// How many lines' audio each game keeps when nothing else is said: 32.
    public static let defaultKeptLines = 32

    /// What speaks the lines.
    public var synthesizer: any SpeechSynthesizer
    /// How many lines' audio each game keeps, the newest; an older line's audio is gone (404).
    public var keptLines: Int

    /// Creates speech for the games.
    ///
    /// - Parameters:
    ///   - synthesizer: What speaks the lines: `ESpeakSynthesizer`, or a speech server's.
    ///   - keptLines: How many lines' audio each game keeps (at least 1; `defaultKeptLines` by default).
    public init(synthesizer: any SpeechSynthesizer, keptLines: Int = Self.defaultKeptLines) {
        self.synthesizer = synthesizer
        self.keptLines = max(1, keptLines)
    }

    /// The `visemes` of an event: `{"viseme", "start", "duration"}`, in seconds to the millisecond, each starting
    /// where the one before ends.
    ///
    /// - Parameter visemes: The speech's visemes.
    /// - Returns: The JSON array.
    public static func json(_ visemes: [Viseme]) -> JSONValue {
        .array(
            visemes.map { viseme in
                let start = viseme.time.milliseconds(rounded: .toNearestOrEven)
                let end = viseme.end.milliseconds(rounded: .toNearestOrEven)
                return .object(
                    JSONObject([
                        ("viseme", .string(viseme.shape.rawValue)), ("start", .double(Double(start) / 1_000)),
                        ("duration", .double(Double(end - start) / 1_000)),
                    ]))
            })
    }
}

/// The audio of one game's last lines, by the number of their `speechEnded` event.
final class GameAudio: Sendable {
    /// The speech the game was made with.
    let speech: APISpeech
    private let state = Mutex<(clips: [(id: Int, wav: [UInt8])], failed: Bool)>(([], false))

    init(speech: APISpeech) {
        self.speech = speech
    }

    /// Keeps a line's WAV, dropping the oldest beyond `speech.keptLines`.
    func keep(_ wav: [UInt8], id: Int) {
        state.withLock { state in
            state.clips.append((id, wav))
            if state.clips.count > speech.keptLines { state.clips.removeFirst(state.clips.count - speech.keptLines) }
        }
    }

    /// The WAV of the line whose `speechEnded` event has this number, if it is still kept.
    func wav(id: Int) -> [UInt8]? {
        state.withLock { state in state.clips.last { $0.id == id }?.wav }
    }

    /// Whether this is the game's first failure to speak: it is reported once, as a `notice`.
    func firstFailure() -> Bool {
        state.withLock { state in
            defer { state.failed = true }
            return !state.failed
        }
    }
}

/// The events of one line in order, with each `speechEnded` held back until its line is spoken: the events after it
/// wait for it, so a client sees them in the order the game showed them.
final class SpokenEvents: Sendable {
    private let audio: GameAudio
    private let gameID: String
    private let world: World
    private let eventLog: GameEventLog
    /// Records and passes on an event that is ready (published already, when it has audio).
    private let deliver: @Sendable (APIEvent) -> Void
    /// Publishes an event to the game's listeners and passes it on.
    private let publish: @Sendable (APIEvent) -> Void
    private let state = Mutex<(last: Task<Void, Never>?, waiting: Int)>((nil, 0))

    init(
        audio: GameAudio, gameID: String, world: World, eventLog: GameEventLog,
        deliver: @escaping @Sendable (APIEvent) -> Void, publish: @escaping @Sendable (APIEvent) -> Void
    ) {
        self.audio = audio
        self.gameID = gameID
        self.world = world
        self.eventLog = eventLog
        self.deliver = deliver
        self.publish = publish
    }

    /// Sends an event: at once when no spoken line is being waited for, else after the ones before it.
    func send(_ event: APIEvent) {
        if event.type == .speechEnded, let text = event.fields["text"]?.stringValue,
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            speak(event, text: text)
            return
        }
        let now = state.withLock { state -> Bool in
            guard state.waiting > 0 else { return true }
            state.waiting += 1
            let previous = state.last
            state.last = Task { [self] in
                await previous?.value
                publish(event)
                self.state.withLock { $0.waiting -= 1 }
            }
            return false
        }
        if now { publish(event) }
    }

    /// Waits until every event sent so far is delivered.
    func finish() async {
        while let last = state.withLock({ $0.waiting > 0 ? $0.last : nil }) { await last.value }
    }

    private func speak(_ event: APIEvent, text: String) {
        let voice = event.npc.flatMap { world.npcs[$0.id] }.map { SpeechVoice(of: $0, in: world) } ?? .default
        let synthesizer = audio.speech.synthesizer
        let synthesis = Task { () -> Result<SynthesizedSpeech, any Error> in
            do {
                return .success(try await synthesizer.synthesize(text, voice: voice))
            } catch {
                return .failure(error)
            }
        }
        state.withLock { state in
            state.waiting += 1
            let previous = state.last
            state.last = Task { [self] in
                let result = await synthesis.value
                await previous?.value
                deliverSpoken(event, result)
                self.state.withLock { $0.waiting -= 1 }
            }
        }
    }

    private func deliverSpoken(_ event: APIEvent, _ result: Result<SynthesizedSpeech, any Error>) {
        switch result {
        case .success(let speech):
            let wav = speech.wav
            let audio = self.audio
            let gameID = self.gameID
            let spoken = eventLog.publish { id in
                audio.keep(wav, id: id)
                var spoken = event
                spoken.fields["audio"] = .string("/v1/games/\(gameID)/audio/\(id)")
                spoken.fields["visemes"] = APISpeech.json(speech.visemes)
                return spoken
            }
            deliver(spoken)
        case .failure(let error):
            publish(event)
            if audio.firstFailure() {
                publish(
                    APIEvent(
                        .notice,
                        JSONObject([("text", .string("The NPCs speak without audio in this game: \(error)"))])))
            }
        }
    }
}
