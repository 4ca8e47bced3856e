/// Something that turns text into speech.
public protocol SpeechSynthesizer: Sendable {
    /// Speaks `text` with `voice`.
    ///
    /// - Parameters:
    ///   - text: The line to speak, plain UTF-8 text.
    ///   - voice: The voice to speak it with.
    /// - Returns: The audio, with the visemes for lip sync when the synthesiser knows its phonemes.
    /// - Throws: `SpeechError` when the synthesiser is missing or fails.
    func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech
}

/// Spoken audio: 16-bit mono PCM samples at a sample rate, with its visemes and the synthesiser's events.
public struct SynthesizedSpeech: Hashable, Sendable {
    /// The samples, 16-bit signed, one channel.
    public var samples: [Int16]
    /// Samples per second (espeak-ng's: 22,050).
    public var sampleRate: Int
    /// The mouth shapes over time, for lip sync: ordered, without gaps, from 0 to `duration`.
    public var visemes: [Viseme]
    /// The phonemes, words and sentences the synthesiser reported, with their times.
    public var events: [SpeechEvent]

    /// Creates speech.
    ///
    /// - Parameters:
    ///   - samples: The samples, 16-bit signed mono.
    ///   - sampleRate: Samples per second.
    ///   - visemes: The mouth shapes over time.
    ///   - events: The synthesiser's events.
    public init(samples: [Int16], sampleRate: Int, visemes: [Viseme] = [], events: [SpeechEvent] = []) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.visemes = visemes
        self.events = events
    }

    /// How long the audio lasts.
    public var duration: Duration {
        guard sampleRate > 0 else { return .zero }
        return .microseconds(Int64(samples.count) * 1_000_000 / Int64(sampleRate))
    }

    /// The audio as a RIFF/WAVE file's bytes (PCM, 16-bit, mono).
    public var wav: [UInt8] {
        WAVFile.encode(samples: samples, sampleRate: sampleRate)
    }

    /// Spoken sentences one after another, as one line: their samples end to end, each one's visemes and events
    /// moved to where it starts. `nil` when there are none or their sample rates differ.
    ///
    /// - Parameter sentences: The sentences' speech, in order.
    /// - Returns: The line's speech.
    public static func joined(_ sentences: [SynthesizedSpeech]) -> SynthesizedSpeech? {
        guard let rate = sentences.first?.sampleRate, sentences.allSatisfy({ $0.sampleRate == rate }) else {
            return nil
        }
        var line = SynthesizedSpeech(samples: [], sampleRate: rate)
        for sentence in sentences {
            let offset = line.duration
            line.samples += sentence.samples
            line.visemes += sentence.visemes.map {
                Viseme(time: $0.time + offset, duration: $0.duration, shape: $0.shape)
            }
            line.events += sentence.events.map { event in
                var event = event
                event.time += offset
                return event
            }
        }
        return line
    }
}

/// A moment the synthesiser reported: a phoneme, a word or a sentence starting at a time of the audio.
public struct SpeechEvent: Hashable, Sendable, Codable {
    /// What starts.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A phoneme; `phoneme` is its espeak-ng mnemonic.
        case phoneme
        /// A word; `textPosition` and `length` locate it in the text.
        case word
        /// A sentence.
        case sentence
    }

    /// What starts.
    public var kind: Kind
    /// When it starts, from the audio's beginning.
    public var time: Duration
    /// Where it is in the text, in characters from 1 as espeak-ng counts them (0 when unknown).
    public var textPosition: Int
    /// Its length in the text, in characters (words only; 0 otherwise).
    public var length: Int
    /// The phoneme's espeak-ng mnemonic (`a`, `tS`, `_:`), for phonemes; `nil` for the others.
    public var phoneme: String?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: What starts.
    ///   - time: When it starts.
    ///   - textPosition: Where it is in the text.
    ///   - length: Its length in the text.
    ///   - phoneme: The phoneme's mnemonic, for phonemes.
    public init(kind: Kind, time: Duration, textPosition: Int = 0, length: Int = 0, phoneme: String? = nil) {
        self.kind = kind
        self.time = time
        self.textPosition = textPosition
        self.length = length
        self.phoneme = phoneme
    }
}

/// Why speech could not be made.
public enum SpeechError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The synthesiser's library could not be loaded: it is not installed.
    case libraryMissing(library: String, reason: String)
    /// The library is there but lacks a function Parley needs (an incompatible version).
    case functionMissing(library: String, function: String)
    /// The library would not start (its voice data is missing, for example).
    case initializationFailed(String)
    /// The voice is not one the synthesiser has.
    case unknownVoice(String)
    /// Synthesis failed.
    case synthesisFailed(String)
    /// A speech server could not be reached (nothing listens, the host is unknown, the connection broke).
    case serverUnreachable(url: String, reason: String)
    /// A speech server did not answer within its time limit.
    case serverTimedOut(url: String, reason: String)
    /// A speech server answered with an error status; `body` is the start of what it said, the API key removed.
    case serverFailed(url: String, status: Int, body: String)
    /// A speech server answered with something that is not a WAV file of 16-bit PCM.
    case notWAV(url: String, reason: String)

    /// A sentence for the player or the developer, saying what to install when something is missing.
    public var description: String {
        switch self {
        case .libraryMissing(let library, let reason):
            "speech needs espeak-ng, whose library \(library) could not be loaded (\(reason)); install it with "
                + "scripts/install-deps --speech (or apt-get install espeak-ng)"
        case .functionMissing(let library, let function):
            "\(library) has no \(function); install espeak-ng 1.51 or later with scripts/install-deps --speech"
        case .initializationFailed(let reason):
            "espeak-ng would not start (\(reason)); reinstall it with scripts/install-deps --speech "
                + "(apt-get install espeak-ng brings its voice data)"
        case .unknownVoice(let voice):
            "espeak-ng has no voice \"\(voice)\"; `espeak-ng --voices` lists them"
        case .synthesisFailed(let reason):
            "espeak-ng could not speak the line: \(reason)"
        case .serverUnreachable(let url, let reason):
            "the speech server at \(url) could not be reached: \(reason)"
        case .serverTimedOut(let url, let reason):
            "the speech server at \(url) took too long: \(reason)"
        case .serverFailed(let url, let status, let body):
            "the speech server at \(url) answered HTTP \(status)"
                + (body.isEmpty ? " with an empty body" : ": \(body)")
                + "; check its log, the model and the voice"
        case .notWAV(let url, let reason):
            "the speech server at \(url) did not answer with a WAV file of 16-bit PCM (\(reason)); ask it for "
                + "response_format \"wav\""
        }
    }
}
