/// Something that turns a player's spoken line into text: speech in.
public protocol SpeechRecognizer: Sendable {
    /// Recognises what is said in `audio`, biased towards the words of `vocabulary` (the pack's items, NPCs and
    /// phrases) as far as the recogniser can be.
    ///
    /// - Parameters:
    ///   - audio: The recording, 16-bit mono PCM at any rate (`SpeechAudio.init(wav:)` reads one from a WAV file).
    ///   - vocabulary: What the player is likely to say.
    /// - Returns: The text heard and how sure the recogniser is of it.
    /// - Throws: `ListeningError` when the recogniser is missing, the language is not one it knows, or it fails.
    func recognize(_ audio: SpeechAudio, vocabulary: SpeechVocabulary) async throws -> RecognizedSpeech

    /// The confidence below which a line should not be acted on (the NPC asks again): each recogniser's confidences
    /// have their own scale. 0.5 unless a recogniser says otherwise.
    var minimumConfidence: Double { get }

    /// The confidence below which a line the NPC answers may not make it act (the acting bar): an offer, a gift or
    /// one of the game's actions in answer to it is refused, and the NPC asks the player to say it again. Higher
    /// than `minimumConfidence`, on the same scale: a wrong word costs more when the NPC acts on it. 0.8 unless a
    /// recogniser says otherwise.
    var minimumActingConfidence: Double { get }
}

extension SpeechRecognizer {
    /// 0.5: half sure.
    public var minimumConfidence: Double { 0.5 }

    /// 0.8: a line the NPC acts on should be heard surely.
    public var minimumActingConfidence: Double { 0.8 }
}

/// What a recogniser heard: the words, each with its confidence, and the line's.
public struct RecognizedSpeech: Hashable, Sendable, Codable {
    /// One word heard.
    public struct Word: Hashable, Sendable, Codable {
        /// The word as the recogniser spells it, lower case for pocketsphinx.
        public var text: String
        /// How sure the recogniser is of it, 0 to 1 (pocketsphinx's posterior probability).
        public var confidence: Double

        /// Creates a word.
        ///
        /// - Parameters:
        ///   - text: The word.
        ///   - confidence: 0 to 1.
        public init(text: String, confidence: Double) {
            self.text = text
            self.confidence = confidence
        }
    }

    /// The line heard, words separated by spaces; empty when nothing was recognised.
    public var text: String
    /// How sure the recogniser is of the line, 0 to 1: with pocketsphinx the mean of the words' posterior
    /// probabilities (0 when no word was heard); from a transcription server what it reports (the segments' mean
    /// token probability), or `nil` when it reports nothing.
    public var confidence: Double?
    /// The words with their confidences, when the recogniser gives them.
    public var words: [Word]

    /// Creates what was heard.
    ///
    /// - Parameters:
    ///   - text: The line.
    ///   - confidence: 0 to 1, or `nil` when unknown.
    ///   - words: The words, when known.
    public init(text: String, confidence: Double?, words: [Word] = []) {
        self.text = text
        self.confidence = confidence
        self.words = words
    }

    /// Whether the line is clear enough to act on: some text, and a confidence of at least `minimum` (a line
    /// whose recogniser gives no confidence is taken as heard).
    ///
    /// - Parameter minimum: The lowest confidence acted on, 0 to 1.
    public func isClear(minimum: Double) -> Bool {
        !text.allSatisfy(\.isWhitespace) && (confidence ?? 1) >= minimum
    }
}

/// Why a spoken line could not be recognised.
public enum ListeningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// pocketsphinx's library could not be loaded: it is not installed.
    case libraryMissing(library: String, reason: String)
    /// The library is there but lacks a function Parley needs (an incompatible version).
    case functionMissing(library: String, function: String)
    /// There is no acoustic model or dictionary for the language (pocketsphinx-en-us brings English only).
    case noModel(language: String, path: String)
    /// The recogniser would not start with the pack's vocabulary.
    case initializationFailed(String)
    /// The audio is not something the recogniser can take (not a WAV file of 16-bit PCM, no samples, too long).
    case badAudio(String)
    /// Recognition failed.
    case recognitionFailed(String)
    /// A transcription server could not be reached.
    case serverUnreachable(url: String, reason: String)
    /// A transcription server did not answer within its time limit.
    case serverTimedOut(url: String, reason: String)
    /// A transcription server answered with an error status; `body` is the start of what it said, the key removed.
    case serverFailed(url: String, status: Int, body: String)
    /// A transcription server answered with something that is not a transcription.
    case notATranscription(url: String, reason: String)

    /// A sentence for the player or the developer, saying what to install when something is missing.
    public var description: String {
        switch self {
        case .libraryMissing(let library, let reason):
            "speech input needs pocketsphinx, whose library \(library) could not be loaded (\(reason)); install it "
                + "with scripts/install-deps --speech (or apt-get install pocketsphinx pocketsphinx-en-us)"
        case .functionMissing(let library, let function):
            "\(library) has no \(function); install Debian's pocketsphinx (0.8+5prealpha) with "
                + "scripts/install-deps --speech"
        case .noModel(let language, let path):
            "pocketsphinx has no model for \"\(language)\" (looked in \(path)); Debian's pocketsphinx-en-us brings "
                + "English only: install it with scripts/install-deps --speech, or recognise other languages with a "
                + "transcription server (--listen-model URL)"
        case .initializationFailed(let reason):
            "pocketsphinx would not start: \(reason)"
        case .badAudio(let reason):
            "the audio cannot be recognised: \(reason)"
        case .recognitionFailed(let reason):
            "the audio could not be recognised: \(reason)"
        case .serverUnreachable(let url, let reason):
            "the transcription server at \(url) could not be reached: \(reason)"
        case .serverTimedOut(let url, let reason):
            "the transcription server at \(url) took too long: \(reason)"
        case .serverFailed(let url, let status, let body):
            "the transcription server at \(url) answered HTTP \(status)"
                + (body.isEmpty ? " with an empty body" : ": \(body)") + "; check its log and the model"
        case .notATranscription(let url, let reason):
            "the transcription server at \(url) did not answer with a transcription (\(reason))"
        }
    }
}
