import Foundation
import GameWorld
import ParleyAPI
import ParleyEngine
import ParleySpeech
import Synchronization

/// `parley play --speak-to DIR`: each NPC line, once said, spoken with espeak-ng in the NPC's voice and written to
/// `DIR/<turn>-<npc>.wav` (the turn is the number of the player's line, from 1; `0` for what is said as the game
/// begins; a second line of one NPC in one turn gets `-2`). Each sentence is synthesised as soon as it is said (as
/// `SpeechPlayer` and `parley serve` do, so with `--speak` a `SharedSynthesis` speaks it once for both), and a line's
/// file is its sentences end to end. Synthesis runs beside the game, so the game never waits for it; files are
/// written one line after another, and `finish()` waits for the last. When espeak-ng is missing, it says so once and
/// the game goes on without speech.
final class SpeechWriter: Sendable {
    private let folder: URL
    private let world: World
    private let synthesizer: any SpeechSynthesizer
    private let report: @Sendable (String) -> Void
    private let state = Mutex(State())

    private typealias Synthesis = Task<Result<SynthesizedSpeech, any Error>, Never>

    private struct State {
        var turn = 0
        var speaker: String?
        var text = ""
        /// The line's text since its last sentence mark, and its sentences' synthesis so far.
        var pending = ""
        var sentences: [Synthesis] = []
        var namesThisTurn: Set<String> = []
        var last: Task<Void, Never>?
        var reported: Set<String> = []
        var disabled = false
    }

    /// - Parameters:
    ///   - folder: Where the WAV files go; created if missing.
    ///   - world: The world, for the NPCs' ids, voices and languages.
    ///   - synthesizer: What speaks.
    ///   - report: Shows a problem to the player (standard error).
    init(
        folder: URL, world: World, synthesizer: any SpeechSynthesizer = ESpeakSynthesizer(),
        report: @escaping @Sendable (String) -> Void
    ) {
        self.folder = folder
        self.world = world
        self.synthesizer = synthesizer
        self.report = report
    }

    /// Checks that espeak-ng is there and the folder can be made; when not, says why once and writes nothing.
    func start() async {
        if let synthesizer = synthesizer.espeakBehind, let problem = await synthesizer.unavailability() {
            disable("parley: --speak-to: \(problem); the game goes on without speech")
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            disable("parley: --speak-to: cannot create \(folder.path): \(error); the game goes on without speech")
        }
    }

    /// The player's next line begins: its NPC lines are numbered with it.
    func nextTurn() {
        state.withLock {
            $0.turn += 1
            $0.namesThisTurn = []
        }
    }

    /// Collects NPC speech from the game's output; a finished line is spoken and written.
    func observe(_ output: GameOutput) {
        state.withLock { state in
            guard !state.disabled else { return }
            switch output {
            case .speechBegan(let npc):
                state.speaker = npc
                state.text = ""
                state.pending = ""
                state.sentences = []
            case .speech(let words):
                state.text += words
                state.pending += words
                if APISpeech.endsSentence(state.pending) { startSentence(&state) }
            case .speechEnded:
                guard let speaker = state.speaker else { return }
                startSentence(&state)
                state.speaker = nil
                let sentences = state.sentences
                state.sentences = []
                guard !sentences.isEmpty else { return }
                let npc = world.npcs.values.first { $0.name == speaker }
                let stem = "\(state.turn)-\(npc?.id.rawValue ?? Self.fileName(speaker))"
                var name = stem
                var count = 1
                while state.namesThisTurn.contains(name) {
                    count += 1
                    name = "\(stem)-\(count)"
                }
                state.namesThisTurn.insert(name)
                let file = folder.appendingPathComponent(name + ".wav")
                let previous = state.last
                state.last = Task { [self] in
                    await previous?.value
                    await write(sentences, to: file)
                }
            default:
                break
            }
        }
    }

    /// Waits until every line said so far is written.
    func finish() async {
        let last = state.withLock { $0.last }
        await last?.value
    }

    /// Starts synthesising the line's text since its last sentence mark, if any, in its speaker's voice.
    private func startSentence(_ state: inout State) {
        let text = state.pending.trimmingCharacters(in: .whitespacesAndNewlines)
        state.pending = ""
        guard !text.isEmpty else { return }
        let speaker = state.speaker
        let voice = world.npcs.values.first { $0.name == speaker }.map { SpeechVoice(of: $0, in: world) } ?? .default
        let synthesizer = self.synthesizer
        state.sentences.append(
            Task {
                do {
                    return .success(try await synthesizer.synthesize(text, voice: voice))
                } catch {
                    return .failure(error)
                }
            })
    }

    /// Writes a line's sentences, end to end, to its file.
    private func write(_ sentences: [Synthesis], to file: URL) async {
        guard !state.withLock({ $0.disabled }) else { return }
        do {
            var speech: [SynthesizedSpeech] = []
            for sentence in sentences { speech.append(try await sentence.value.get()) }
            guard let line = SynthesizedSpeech.joined(speech) else {
                reportOnce("parley: --speak-to: the sentences of \(file.lastPathComponent) differ in sample rate")
                return
            }
            try Data(line.wav).write(to: file)
        } catch let error as SpeechError {
            switch error {
            case .libraryMissing, .functionMissing, .initializationFailed:
                disable("parley: --speak-to: \(error); the game goes on without speech")
            case .unknownVoice, .synthesisFailed, .serverUnreachable, .serverTimedOut, .serverFailed, .notWAV:
                reportOnce("parley: --speak-to: \(error)")
            }
        } catch {
            reportOnce("parley: --speak-to: cannot write \(file.lastPathComponent): \(error)")
        }
    }

    private func disable(_ message: String) {
        let first = state.withLock { state in
            defer { state.disabled = true }
            return !state.disabled
        }
        if first { report(message) }
    }

    private func reportOnce(_ message: String) {
        if state.withLock({ $0.reported.insert(message).inserted }) { report(message) }
    }

    /// A name made safe for a file: letters and digits, the rest `-`.
    private static func fileName(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }
}
