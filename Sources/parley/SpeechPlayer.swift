import ChildProcess
import Foundation
import GameWorld
import ParleyAPI
import ParleyEngine
import ParleySpeech
import Synchronization

/// How `parley play --speak` reaches the audio device: a program that plays a WAV file from its standard input, for
/// the sound system this machine runs. No library is linked for it: the program is found on `PATH` when speaking
/// starts (docs/speech.md, "Through the audio device").
struct AudioOutput: Sendable, Equatable {
    /// The program's path.
    var program: String
    /// Its arguments, which make it read the WAV from standard input.
    var arguments: [String]

    /// Why there is no way to play sound here; the `description` is for the player.
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// No sound server runs and no ALSA playback device exists (a server, a container, a CI machine).
        case noDevice(alsaFolder: String)
        /// There is a device, but none of the programs that would play on it is installed.
        case noProgram(wanted: [String])

        var description: String {
            switch self {
            case .noDevice(let folder):
                "no audio device here (no PipeWire or PulseAudio server, no ALSA playback device in \(folder)); "
                    + "the game goes on without sound (--speak-to DIR writes each line's WAV instead)"
            case .noProgram(let wanted):
                "there is an audio device but no program to play on it (\(wanted.joined(separator: ", ")) on PATH); "
                    + "install alsa-utils, pulseaudio-utils or pipewire-bin; the game goes on without sound"
            }
        }
    }

    /// The way to play sound this environment offers, in order of preference: `pw-play` when a PipeWire server runs
    /// (`$XDG_RUNTIME_DIR/pipewire-0`, or `PIPEWIRE_REMOTE`), `paplay` when a PulseAudio one does
    /// (`$XDG_RUNTIME_DIR/pulse/native`, or `PULSE_SERVER`; PipeWire serves it too), `aplay` when ALSA has a playback
    /// device (`pcmC*D*p` in `/dev/snd`, or the folder `PARLEY_ALSA_DEVICES` names).
    ///
    /// - Parameter environment: The process's environment (`PATH`, the variables above).
    /// - Returns: The program to run, or why there is none.
    static func find(environment: [String: String]) -> Result<AudioOutput, Problem> {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let files = FileManager.default
        let runtime = set("XDG_RUNTIME_DIR")
        let alsaFolder = set("PARLEY_ALSA_DEVICES") ?? "/dev/snd"
        var candidates: [AudioOutput] = []
        if set("PIPEWIRE_REMOTE") != nil || runtime.map({ files.fileExists(atPath: $0 + "/pipewire-0") }) == true {
            candidates.append(AudioOutput(program: "pw-play", arguments: ["-"]))
        }
        if set("PULSE_SERVER") != nil || runtime.map({ files.fileExists(atPath: $0 + "/pulse/native") }) == true {
            candidates.append(AudioOutput(program: "paplay", arguments: []))
        }
        let devices = (try? files.contentsOfDirectory(atPath: alsaFolder)) ?? []
        if devices.contains(where: { $0.hasPrefix("pcmC") && $0.hasSuffix("p") }) {
            candidates.append(AudioOutput(program: "aplay", arguments: ["-q", "-"]))
        }
        guard !candidates.isEmpty else { return .failure(.noDevice(alsaFolder: alsaFolder)) }
        let path = (set("PATH") ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for candidate in candidates {
            for folder in path where files.isExecutableFile(atPath: folder + "/" + candidate.program) {
                return .success(AudioOutput(program: folder + "/" + candidate.program, arguments: candidate.arguments))
            }
        }
        return .failure(.noProgram(wanted: candidates.map(\.program)))
    }

    /// Plays a WAV file and waits until it has been played, on a thread of its own (never the cooperative pool).
    ///
    /// - Parameter wav: The file's bytes.
    /// - Returns: `nil` when it played, else what went wrong.
    func play(_ wav: [UInt8]) async -> String? {
        await withCheckedContinuation { continuation in
            Thread {
                do {
                    let run = try ChildProcess.run(program, arguments: arguments, input: Data(wav))
                    guard run.termination.status != 0 else { return continuation.resume(returning: nil) }
                    let said =
                        String(decoding: run.error, as: UTF8.self)
                        .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                    continuation.resume(
                        returning: "\(program) failed (\(run.termination))" + (said.isEmpty ? "" : ": \(said)"))
                } catch {
                    continuation.resume(returning: "cannot run \(program): \(error)")
                }
            }.start()
        }
    }
}

/// `parley play --speak`: each NPC line played through the audio device as it is said, sentence by sentence. A
/// `speech` piece that ends a sentence (`APISpeech.endsSentence`, as in `parley serve`) has the text since the last
/// one synthesised at once, beside the game, and played after the sentences before it; what a line says after its
/// last sentence mark is played when it ends. Without a device, a program to play on it or espeak-ng, it says so once
/// and the game goes on silent.
final class SpeechPlayer: Sendable {
    private let world: World
    private let synthesizer: any SpeechSynthesizer
    private let environment: [String: String]
    private let report: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var output: AudioOutput?
        var speaker: String?
        var pending = ""
        var last: Task<Void, Never>?
        var disabled = false
    }

    /// - Parameters:
    ///   - world: The world, for the NPCs' voices and languages.
    ///   - synthesizer: What speaks.
    ///   - environment: The process's environment, where the audio device and its program are looked for.
    ///   - report: Shows a problem to the player (standard error).
    init(
        world: World, synthesizer: any SpeechSynthesizer, environment: [String: String],
        report: @escaping @Sendable (String) -> Void
    ) {
        self.world = world
        self.synthesizer = synthesizer
        self.environment = environment
        self.report = report
    }

    /// Finds the audio device and checks that espeak-ng is there (when it speaks); when not, says why once.
    func start() async {
        switch AudioOutput.find(environment: environment) {
        case .failure(let problem):
            disable("parley: --speak: \(problem)")
        case .success(let output):
            if let synthesizer = synthesizer.espeakBehind, let problem = await synthesizer.unavailability() {
                disable("parley: --speak: \(problem); the game goes on without sound")
                return
            }
            state.withLock { $0.output = output }
        }
    }

    /// Collects NPC speech from the game's output; each finished sentence is spoken and queued to play.
    func observe(_ output: GameOutput) {
        state.withLock { state in
            guard !state.disabled, state.output != nil else { return }
            switch output {
            case .speechBegan(let npc):
                state.speaker = npc
                state.pending = ""
            case .speech(let words):
                state.pending += words
                if APISpeech.endsSentence(state.pending) { queue(&state) }
            case .speechEnded:
                if !state.pending.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { queue(&state) }
                state.speaker = nil
            default:
                break
            }
        }
    }

    /// Waits until every sentence said so far has been played.
    func finish() async {
        let last = state.withLock { $0.last }
        await last?.value
    }

    /// Starts speaking the pending text and plays it after what is queued before it.
    private func queue(_ state: inout State) {
        let text = state.pending.trimmingCharacters(in: .whitespacesAndNewlines)
        state.pending = ""
        guard let output = state.output, !text.isEmpty else { return }
        let speaker = state.speaker
        let npc = world.npcs.values.first { $0.name == speaker }
        let voice = npc.map { SpeechVoice(of: $0, in: world) } ?? .default
        let synthesizer = self.synthesizer
        let synthesis = Task { () -> Result<SynthesizedSpeech, any Error> in
            do {
                return .success(try await synthesizer.synthesize(text, voice: voice))
            } catch {
                return .failure(error)
            }
        }
        let previous = state.last
        state.last = Task { [self] in
            let result = await synthesis.value
            await previous?.value
            guard !self.state.withLock({ $0.disabled }) else { return }
            switch result {
            case .success(let speech):
                if let problem = await output.play(speech.wav) { disable("parley: --speak: \(problem)") }
            case .failure(let error):
                disable("parley: --speak: \(error); the game goes on without sound")
            }
        }
    }

    private func disable(_ message: String) {
        let first = state.withLock { state in
            defer { state.disabled = true }
            return !state.disabled
        }
        if first { report(message) }
    }
}
