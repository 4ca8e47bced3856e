import ParleySpeech
import Synchronization

/// One synthesiser for several listeners of the same lines (`parley play --speak --speak-to DIR`): a sentence asked
/// for by each of them is synthesised once, the first asker starting it and the others waiting for the same result.
/// A result is kept until all `listeners` have taken it, and at most the last `kept` results are kept, so a listener
/// that stopped asking (no audio device, a folder that cannot be written) holds no memory.
final class SharedSynthesis: SpeechSynthesizer {
    /// What really speaks.
    let base: any SpeechSynthesizer
    private let listeners: Int
    private let kept: Int
    private let state = Mutex(State())

    private struct Key: Hashable {
        var text: String
        var voice: SpeechVoice
    }

    private struct Entry {
        var synthesis: Task<SynthesizedSpeech, any Error>
        var taken: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
    }

    /// - Parameters:
    ///   - base: What really speaks.
    ///   - listeners: How many ask for each sentence.
    ///   - kept: The most results kept for listeners that have not asked yet.
    init(_ base: any SpeechSynthesizer, listeners: Int, kept: Int = 16) {
        self.base = base
        self.listeners = max(listeners, 1)
        self.kept = max(kept, 1)
    }

    /// espeak-ng behind it, whose availability is checked before speaking, or `nil`.
    var espeak: ESpeakSynthesizer? { base as? ESpeakSynthesizer }

    /// Speaks `text` with `voice`, or waits for the same sentence another listener asked for first.
    ///
    /// - Parameters:
    ///   - text: The sentence.
    ///   - voice: The voice.
    /// - Returns: The audio.
    /// - Throws: What the synthesiser threw.
    func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        let key = Key(text: text, voice: voice)
        let base = self.base
        let synthesis = state.withLock { state in
            if var entry = state.entries[key] {
                entry.taken += 1
                if entry.taken >= listeners {
                    state.entries[key] = nil
                    state.order.removeAll { $0 == key }
                } else {
                    state.entries[key] = entry
                }
                return entry.synthesis
            }
            let synthesis = Task { try await base.synthesize(text, voice: voice) }
            guard listeners > 1 else { return synthesis }
            state.entries[key] = Entry(synthesis: synthesis, taken: 1)
            state.order.append(key)
            while state.order.count > kept { state.entries[state.order.removeFirst()] = nil }
            return synthesis
        }
        return try await synthesis.value
    }
}

extension SpeechSynthesizer {
    /// espeak-ng when it is what speaks, alone or behind a `SharedSynthesis`: its availability is checked first.
    var espeakBehind: ESpeakSynthesizer? {
        (self as? ESpeakSynthesizer) ?? (self as? SharedSynthesis)?.espeak
    }
}
