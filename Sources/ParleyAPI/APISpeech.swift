import Foundation
import GameWorld
import ParleyBasics
import ParleyJSON
import ParleySpeech
import Synchronization

/// NPC lines spoken for the games of `parley serve` (`--speech espeak` or `--speech-model URL`), sentence by
/// sentence: each `speech` event that ends a sentence, synthesised as it comes, then carries `audio`, the path of the
/// sentence's WAV (`GET /v1/games/{id}/audio/{eventId}`), and `visemes`, the mouth shapes over its time (empty from a
/// speech server, which gives no phonemes); each `speechEnded` event the same for the whole line, its sentences end
/// to end. docs/api.md, "Speech".
///
/// ```swift
/// var configuration = APIGames.Configuration(pack: pack, models: models, store: nil)
/// configuration.speech = APISpeech(synthesizer: ESpeakSynthesizer())
/// ```
public struct APISpeech: Sendable {
    /// How many lines' audio each game keeps when nothing else is said: 32 (each with its sentences').
    public static let defaultKeptLines = 32

    /// What speaks the lines.
    public var synthesizer: any SpeechSynthesizer
    /// How many lines' audio each game keeps, the newest, each line's sentences with it; an older line's audio, and its
    /// sentences', is gone (404).
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

extension APISpeech {
    /// Whether a `speech` piece ends a sentence, so that the text since the last spoken sentence is spoken now: its
    /// last character, white space and closing quotes or brackets aside, is `.`, `!`, `?` or `…`.
    ///
    /// - Parameter text: The line's text since the last spoken sentence, this piece included.
    /// - Returns: Whether it ends with a sentence's mark.
    public static func endsSentence(_ text: String) -> Bool {
        let closers: Set<Character> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "]"]
        let last = text.reversed().first { !$0.isWhitespace && !closers.contains($0) }
        return last.map { ".!?…".contains($0) } ?? false
    }
}

/// The audio of one game's last lines, by the numbers of their events: each spoken sentence's (`speech`) and each
/// whole line's (`speechEnded`), kept by line.
final class GameAudio: Sendable {
    /// The speech the game was made with.
    let speech: APISpeech
    private let state = Mutex<(lines: [(line: Int, clips: [(id: Int, wav: [UInt8])])], nextLine: Int, failed: Bool)>(
        ([], 0, false))

    init(speech: APISpeech) {
        self.speech = speech
    }

    /// A number for the next line spoken, whose sentences and whole are kept together.
    func beginLine() -> Int {
        state.withLock { state in
            defer { state.nextLine += 1 }
            return state.nextLine
        }
    }

    /// Keeps a WAV of a line (a sentence of it, or all of it), dropping the oldest lines beyond `speech.keptLines`.
    func keep(_ wav: [UInt8], id: Int, line: Int) {
        state.withLock { state in
            if let index = state.lines.lastIndex(where: { $0.line == line }) {
                state.lines[index].clips.append((id, wav))
            } else {
                state.lines.append((line, [(id, wav)]))
            }
            if state.lines.count > speech.keptLines { state.lines.removeFirst(state.lines.count - speech.keptLines) }
        }
    }

    /// The WAV of the sentence or line whose event has this number, if it is still kept.
    func wav(id: Int) -> [UInt8]? {
        state.withLock { state in
            for line in state.lines.reversed() {
                if let clip = line.clips.last(where: { $0.id == id }) { return clip.wav }
            }
            return nil
        }
    }

    /// Whether this is the game's first failure to speak: it is reported once, as a `notice`.
    func firstFailure() -> Bool {
        state.withLock { state in
            defer { state.failed = true }
            return !state.failed
        }
    }
}

/// The events of one line in order, each spoken sentence's `speech` event and each `speechEnded` held back until its
/// audio is made: the events after it wait for it, so a client sees them in the order the game showed them.
///
/// A `speech` piece that ends a sentence (`APISpeech.endsSentence`) starts the synthesis of the text since the last
/// one at once, while the line goes on; `speechEnded` then speaks what is left after the last sentence mark, and its
/// audio is the sentences' end to end (`SynthesizedSpeech.joined`), the line being synthesised whole only when they
/// are not all there or are not the whole line.
final class SpokenEvents: Sendable {
    private typealias Synthesis = Task<Result<SynthesizedSpeech, any Error>, Never>

    private let audio: GameAudio
    private let gameID: String
    private let world: World
    private let eventLog: GameEventLog
    /// Records and passes on an event that is ready (published already, when it has audio).
    private let deliver: @Sendable (APIEvent) -> Void
    /// Publishes an event to the game's listeners and passes it on.
    private let publish: @Sendable (APIEvent) -> Void
    private let state = Mutex(State())

    private struct State {
        /// The last event's delivery, which the next one waits for.
        var last: Task<Void, Never>?
        /// The events not delivered yet.
        var waiting = 0
        /// The line being said: its number for `GameAudio`, its text since the last sentence spoken, and its
        /// sentences' synthesis with their text as the `speech` pieces had it.
        var line: Int?
        var pending = ""
        var sentences: [(text: String, synthesis: Synthesis)] = []
    }

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

    /// Sends an event: at once when no spoken sentence or line is being waited for, else after the ones before it.
    func send(_ event: APIEvent) {
        switch event.type {
        case .speechBegan:
            state.withLock { state in
                state.line = nil
                state.pending = ""
                state.sentences = []
            }
        case .speech:
            if let text = event.fields["text"]?.stringValue, speakSentence(event, text: text) { return }
        case .speechEnded:
            if let text = event.fields["text"]?.stringValue,
                !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            {
                speakLine(event, text: text)
                return
            }
            state.withLock { state in
                state.line = nil
                state.pending = ""
                state.sentences = []
            }
        default:
            break
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

    /// The voice of an event's NPC.
    private func voice(of event: APIEvent) -> SpeechVoice {
        event.npc.flatMap { world.npcs[$0.id] }.map { SpeechVoice(of: $0, in: world) } ?? .default
    }

    /// Starts speaking the text a `speech` piece completes, if it ends a sentence, and queues the event behind its
    /// audio; `false` when it ends none (the caller sends it on as it is).
    private func speakSentence(_ event: APIEvent, text: String) -> Bool {
        let synthesizer = audio.speech.synthesizer
        let voice = voice(of: event)
        let audio = self.audio
        return state.withLock { state -> Bool in
            state.pending += text
            guard APISpeech.endsSentence(state.pending) else { return false }
            let sentence = state.pending
            state.pending = ""
            let line = state.line ?? audio.beginLine()
            state.line = line
            let synthesis = Synthesis { await Self.synthesize(sentence, voice: voice, with: synthesizer) }
            state.sentences.append((sentence, synthesis))
            state.waiting += 1
            let previous = state.last
            state.last = Task { [self] in
                let result = await synthesis.value
                await previous?.value
                deliverSpoken(event, result, line: line)
                self.state.withLock { $0.waiting -= 1 }
            }
            return true
        }
    }

    /// Speaks what is left of the line after its last sentence, then queues `speechEnded` behind the line's audio:
    /// its sentences end to end, or the line synthesised whole when they do not make it up.
    private func speakLine(_ event: APIEvent, text: String) {
        let synthesizer = audio.speech.synthesizer
        let voice = voice(of: event)
        let audio = self.audio
        state.withLock { state in
            var sentences = state.sentences
            if !state.pending.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                let rest = state.pending
                sentences.append((rest, Synthesis { await Self.synthesize(rest, voice: voice, with: synthesizer) }))
            }
            let line = state.line ?? audio.beginLine()
            state.line = nil
            state.pending = ""
            state.sentences = []
            state.waiting += 1
            let previous = state.last
            state.last = Task { [self] in
                var parts: [SynthesizedSpeech] = []
                for sentence in sentences {
                    if case .success(let speech) = await sentence.synthesis.value { parts.append(speech) }
                }
                let result: Result<SynthesizedSpeech, any Error>
                if parts.count == sentences.count, sentences.map(\.text).joined() == text,
                    let joined = SynthesizedSpeech.joined(parts)
                {
                    result = .success(joined)
                } else {
                    result = await Self.synthesize(text, voice: voice, with: synthesizer)
                }
                await previous?.value
                deliverSpoken(event, result, line: line)
                self.state.withLock { $0.waiting -= 1 }
            }
        }
    }

    /// Speaks text (without the white space around it), catching the synthesiser's error.
    private static func synthesize(
        _ text: String, voice: SpeechVoice, with synthesizer: any SpeechSynthesizer
    ) async -> Result<SynthesizedSpeech, any Error> {
        do {
            return .success(
                try await synthesizer.synthesize(text.trimmingCharacters(in: .whitespacesAndNewlines), voice: voice))
        } catch {
            return .failure(error)
        }
    }

    private func deliverSpoken(_ event: APIEvent, _ result: Result<SynthesizedSpeech, any Error>, line: Int) {
        switch result {
        case .success(let speech):
            let wav = speech.wav
            let audio = self.audio
            let gameID = self.gameID
            let spoken = eventLog.publish { id in
                audio.keep(wav, id: id, line: line)
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
