#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ParleyBasics
import Synchronization

/// Speech in, offline: Debian's pocketsphinx (0.8+5prealpha) with its US English model (`pocketsphinx-en-us`),
/// biased to the pack.
///
/// Like `ESpeakSynthesizer`, the library is opened at run time with `dlopen` (`libpocketsphinx.so.3`, Debian's
/// `libpocketsphinx3`), so the package builds, and everything but speech input works, without it; its functions are
/// called through `@convention(c)` pointers of the types of `pocketsphinx.h` and sphinxbase's `cmd_ln.h` and
/// `logmath.h`. The library rather than the `pocketsphinx_continuous` command: a decoder is made once per
/// vocabulary and kept, where the command would load the acoustic model for every line; and the library gives each
/// word's posterior probability, the confidence.
///
/// **Biased to the pack.** pocketsphinx's general English language model hears "how are you put on the" in a
/// synthesised "how much is the lantern". Each vocabulary (`SpeechVocabulary(world:)`: the lexicon's phrases with
/// the pack's items, NPCs, numbers and commands) becomes a trigram model (`NGramLanguageModel`) and a dictionary of
/// its words' pronunciations from the model's `cmudict-en-us.dict`; sentences with a word the dictionary lacks are
/// left out (`unknownWords(in:)` lists those words). Every word of the vocabulary stays possible anywhere, so lines
/// nobody wrote down are heard too, if less surely.
///
/// **Confidence** is the geometric mean of the words' posterior probabilities (`ps_seg_prob`), 0 when nothing was
/// heard. It is a weak signal: measured on forty eval-corpus lines spoken by espeak-ng, every line heard right scored
/// 0.19 or more, and the thirteen lines under 0.15 were all misheard; but misheard lines scored up to 0.97 too. Hence
/// `minimumConfidence`, 0.15: it turns away the lines most surely wrong, not all of them. A line the NPC would act on
/// (an offer, a gift, an action) must reach `minimumActingConfidence`, 0.7: in `parley-bench listen`'s round trip of
/// the whole evaluation corpus (BENCHMARKS.md, section 14), the eight lines misheard into an action scored 0.20 to
/// 0.66, and 0.7 is the lowest bar of those tried that held back all eight (it also asks again 31 of the 36 spoken
/// lines whose action was right: on espeak-ng's voice, pocketsphinx is seldom sure).
///
/// pocketsphinx decoders are not thread-safe, and the library keeps some global state (its log): every call into it
/// holds one lock, and decoding runs on a thread of its own (`offThePool`), never on the cooperative pool. Decoding
/// takes a small fraction of the audio's duration; a new vocabulary's decoder takes a second or two to build. Each line
/// is decoded from the decoder as it was made (`ps_reinit`, about 50 ms): pocketsphinx adapts to what it hears, and
/// one player's line must not change how another's is heard.
public struct PocketSphinxRecognizer: SpeechRecognizer {
    /// The library's name for `dlopen`: pocketsphinx's shared library, major version 3.
    public static let defaultLibrary = "libpocketsphinx.so.3"
    /// Where Debian's `pocketsphinx-en-us` puts the US English model: the acoustic model in `en-us`, the dictionary
    /// `cmudict-en-us.dict`. `PARLEY_POCKETSPHINX_MODEL` names another folder laid out the same way.
    public static let defaultModelFolder = "/usr/share/pocketsphinx/model/en-us"
    /// How many vocabularies' decoders are kept (one per pack being played, usually one).
    public static let keptDecoders = 4

    /// Below this confidence a line is not acted on, and the NPC asks the player to say it again: 0.15 (see the
    /// type's documentation for the measurement).
    public var minimumConfidence: Double { 0.15 }

    /// Below this confidence a line the NPC answers may not make it act (an offer, a gift, an action): 0.7 (see the
    /// type's documentation for the measurement).
    public var minimumActingConfidence: Double { 0.7 }

    /// The library this recogniser loads.
    public let library: String
    /// The model folder: `en-us` (the acoustic model) and `cmudict-en-us.dict` inside.
    public let modelFolder: String

    /// Creates a recogniser; nothing is loaded until the first line.
    ///
    /// - Parameters:
    ///   - library: The library's name or path for `dlopen`.
    ///   - modelFolder: The model folder; `PARLEY_POCKETSPHINX_MODEL`, else `defaultModelFolder`, when `nil`.
    public init(library: String = Self.defaultLibrary, modelFolder: String? = nil) {
        self.library = library
        self.modelFolder =
            modelFolder ?? getenv("PARLEY_POCKETSPHINX_MODEL").map { String(cString: $0) }.flatMap {
                $0.isEmpty ? nil : $0
            } ?? Self.defaultModelFolder
    }

    /// The languages this recogniser's model hears: English.
    public var languages: Set<String> { ["en"] }

    /// Whether the library loads and the model is there: `nil` when both are, else the error that says what to
    /// install.
    ///
    /// - Returns: `nil`, or the `ListeningError` recognising would throw.
    public func unavailability() async -> ListeningError? {
        let library = library, folder = modelFolder
        return await offThePool { () -> ListeningError? in
            do {
                try PocketSphinxEngine.shared.withLock { state in
                    _ = try state.functions(library)
                    _ = try state.dictionary(folder)
                }
                return nil
            } catch let error as ListeningError {
                return error
            } catch {
                return .initializationFailed("\(error)")
            }
        }
    }

    /// The vocabulary's words the model's dictionary has no pronunciation for: the sentences holding them are left
    /// out of the recogniser's language model, so these words are not heard (names such as "Brannoc").
    ///
    /// - Parameter vocabulary: The vocabulary.
    /// - Returns: The words, sorted.
    /// - Throws: `ListeningError.noModel` when the dictionary is missing.
    public func unknownWords(in vocabulary: SpeechVocabulary) async throws -> [String] {
        let folder = modelFolder
        return try await offThePool {
            let dictionary = try PocketSphinxEngine.shared.withLock { state in try state.dictionary(folder) }
            return vocabulary.words.filter { dictionary[$0] == nil }
        }
    }

    /// Makes (and keeps) the decoder of a vocabulary, so that the first line is not slower than the rest.
    ///
    /// - Parameter vocabulary: The vocabulary.
    /// - Throws: `ListeningError`.
    public func prepare(_ vocabulary: SpeechVocabulary) async throws {
        let library = library, folder = modelFolder
        try await offThePool {
            try PocketSphinxEngine.shared.withLock { state in
                _ = try state.decoder(for: vocabulary, library: library, folder: folder)
            }
        }
    }

    /// Recognises a line (see the type's documentation).
    ///
    /// - Parameters:
    ///   - audio: The recording; resampled to 16 kHz when it is at another rate.
    ///   - vocabulary: The pack's vocabulary; English only.
    /// - Returns: What was heard, lower case, with each word's confidence.
    /// - Throws: `ListeningError`.
    public func recognize(_ audio: SpeechAudio, vocabulary: SpeechVocabulary) async throws -> RecognizedSpeech {
        guard languages.contains(vocabulary.language) else {
            throw ListeningError.noModel(language: vocabulary.language, path: modelFolder)
        }
        guard !audio.samples.isEmpty else { throw ListeningError.badAudio("it holds no samples") }
        let samples = audio.resampled(to: SpeechAudio.recognitionRate).samples
        let library = library, folder = modelFolder
        return try await offThePool {
            try PocketSphinxEngine.shared.withLock { state in
                let decoder = try state.decoder(for: vocabulary, library: library, folder: folder)
                return try decoder.decode(samples)
            }
        }
    }
}

/// pocketsphinx's state in this process, behind the one lock every call into it holds: the libraries loaded, the
/// dictionaries read, the decoders made (the newest `keptDecoders`).
struct PocketSphinxEngine {
    /// The lock, with the state.
    static let shared = Mutex(PocketSphinxEngine())

    private var libraries: [String: PocketSphinxFunctions] = [:]
    private var dictionaries: [String: [String: [String]]] = [:]
    private var decoders: [(key: DecoderKey, decoder: PocketSphinxDecoder)] = []

    private struct DecoderKey: Hashable {
        var vocabulary: SpeechVocabulary
        var library: String
        var folder: String
    }

    /// The functions of a library, loaded the first time.
    mutating func functions(_ library: String) throws(ListeningError) -> PocketSphinxFunctions {
        if let functions = libraries[library] { return functions }
        let functions = try PocketSphinxFunctions(loading: library)
        libraries[library] = functions
        return functions
    }

    /// The pronunciations of a model folder's dictionary, by word, read the first time.
    mutating func dictionary(_ folder: String) throws(ListeningError) -> [String: [String]] {
        if let dictionary = dictionaries[folder] { return dictionary }
        let path = folder + "/cmudict-en-us.dict"
        guard let text = readFile(path), access(folder + "/en-us/mdef", R_OK) == 0 else {
            throw .noModel(language: "en", path: folder)
        }
        var dictionary: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            var word = line[..<space]
            if word.hasSuffix(")"), let open = word.lastIndex(of: "(") { word = word[..<open] }
            let phones = line[space...].split(separator: " ").joined(separator: " ")
            guard !phones.isEmpty else { continue }
            dictionary[String(word), default: []].append(phones)
        }
        dictionaries[folder] = dictionary
        return dictionary
    }

    /// The decoder of a vocabulary, made the first time and kept while it is among the `keptDecoders` newest.
    mutating func decoder(
        for vocabulary: SpeechVocabulary, library: String, folder: String
    ) throws(ListeningError) -> PocketSphinxDecoder {
        let key = DecoderKey(vocabulary: vocabulary, library: library, folder: folder)
        if let index = decoders.firstIndex(where: { $0.key == key }) {
            let kept = decoders.remove(at: index)
            decoders.append(kept)
            return kept.decoder
        }
        let functions = try functions(library)
        let dictionary = try dictionary(folder)
        let sentences = vocabulary.sentences.map { $0.split(separator: " ").map(String.init) }
            .filter { words in words.allSatisfy { dictionary[$0] != nil } }
        guard !sentences.isEmpty else {
            throw .initializationFailed("none of the vocabulary's words is in the model's dictionary")
        }
        let model = NGramLanguageModel(sentences: sentences)
        var pronunciations: [String] = []
        for word in model.vocabulary where word != NGramLanguageModel.start && word != NGramLanguageModel.end {
            for (index, phones) in (dictionary[word] ?? []).enumerated() {
                pronunciations.append((index == 0 ? word : "\(word)(\(index + 1))") + " " + phones)
            }
        }
        let decoder = try PocketSphinxDecoder(
            functions: functions, acousticModel: folder + "/en-us", languageModel: model.arpa,
            dictionary: pronunciations.joined(separator: "\n") + "\n")
        decoders.append((key, decoder))
        if decoders.count > PocketSphinxRecognizer.keptDecoders { decoders.removeFirst() }
        return decoder
    }
}

/// One pocketsphinx decoder, with its language model and dictionary. Used only with `PocketSphinxEngine.shared` held;
/// freed when the last reference goes.
final class PocketSphinxDecoder: @unchecked Sendable {
    private let functions: PocketSphinxFunctions
    private let decoder: OpaquePointer
    /// The folder of its language model and dictionary.
    private let folder: String

    /// Writes the language model and the dictionary to a folder of their own, kept while the decoder lives (each
    /// line starts the decoder afresh from them), and starts a decoder on them.
    init(
        functions: PocketSphinxFunctions, acousticModel: String, languageModel: String, dictionary: String
    ) throws(ListeningError) {
        self.functions = functions
        let temporary = Self.temporaryFolder
        Self.removeFoldersOfEndedProcesses(in: temporary)
        var template = Array((temporary + "/\(Self.folderPrefix)\(getpid())-XXXXXX").utf8CString)
        let folder: String? = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let folder else { throw .initializationFailed("no temporary folder for its language model") }
        let lmPath = folder + "/pack.lm", dictPath = folder + "/pack.dict"
        func removeFolder() { Self.removeFolder(folder) }
        guard writeFile(lmPath, languageModel), writeFile(dictPath, dictionary) else {
            removeFolder()
            throw .initializationFailed("its language model could not be written to \(folder)")
        }
        let arguments = ["-hmm", acousticModel, "-lm", lmPath, "-dict", dictPath, "-logfn", "/dev/null"]
        var pointers = arguments.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let config = pointers.withUnsafeMutableBufferPointer { buffer in
            functions.parseArguments(nil, functions.arguments(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        guard let config else {
            removeFolder()
            throw .initializationFailed("cmd_ln_parse_r refused its arguments")
        }
        defer { _ = functions.freeArguments(config) }
        guard let decoder = functions.initialize(config) else {
            removeFolder()
            throw .initializationFailed(
                "ps_init failed with the acoustic model \(acousticModel) and the pack's language model")
        }
        self.decoder = decoder
        self.folder = folder
    }

    deinit {
        _ = functions.free(decoder)
        Self.removeFolder(folder)
    }

    /// Where decoders' folders are made: `$TMPDIR`, else `/tmp`.
    static var temporaryFolder: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// The start of a decoder's folder's name, followed by the process's id, `-` and mkdtemp's six characters.
    static let folderPrefix = "parley-listen-"

    /// Removes a decoder's folder: its two files, then the folder (never anything else it may hold).
    private static func removeFolder(_ folder: String) {
        unlink(folder + "/pack.lm")
        unlink(folder + "/pack.dict")
        rmdir(folder)
    }

    /// Removes the folders that decoders of processes that have ended left behind: a killed process runs no `deinit`.
    /// A folder is left alone unless its name carries the id of a process that no longer exists (this process's and
    /// every running one's are kept; so are names without an id).
    ///
    /// - Parameter temporary: The folder where decoders make theirs.
    static func removeFoldersOfEndedProcesses(in temporary: String) {
        guard let directory = opendir(temporary) else { return }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(folderPrefix) { names.append(name) }
        }
        closedir(directory)
        for name in names {
            guard let id = name.dropFirst(folderPrefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                id > 0, id != getpid(), kill(id, 0) == -1, errno == ESRCH
            else { continue }
            removeFolder(temporary + "/" + name)
        }
    }

    /// Decodes one line of 16 kHz samples, fed in blocks as a live stream would be (pocketsphinx's voice-activity
    /// and cepstral-mean handling are tuned for that), and reads the words with their posterior probabilities.
    func decode(_ samples: [Int16]) throws(ListeningError) -> RecognizedSpeech {
        // Every line from a decoder as it was made: pocketsphinx adapts to the speech it hears (its cepstral mean,
        // its noise estimate), line after line, so a decoder shared by every game would hear a line differently after
        // another player's (measured: the same recording of "how much is the lantern" heard at confidence 0.20, then
        // 0.74 after itself). `ps_reinit` reads the model files again, about 50 ms.
        guard functions.reinitialize(decoder, nil) >= 0 else { throw .recognitionFailed("ps_reinit failed") }
        guard functions.startUtterance(decoder) >= 0 else { throw .recognitionFailed("ps_start_utt failed") }
        let block = 2_048
        var failed = false
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count, !failed {
                let count = min(block, buffer.count - start)
                failed = functions.processRaw(decoder, buffer.baseAddress! + start, count, 0, 0) < 0
                start += count
            }
        }
        guard functions.endUtterance(decoder) >= 0, !failed else { throw .recognitionFailed("ps_process_raw failed") }
        var score: Int32 = 0
        guard let hypothesis = functions.hypothesis(decoder, &score).map({ String(cString: $0) }),
            !hypothesis.allSatisfy(\.isWhitespace)
        else { return RecognizedSpeech(text: "", confidence: 0) }
        let logmath = functions.logmath(decoder)
        var words: [RecognizedSpeech.Word] = []
        var segment = functions.segments(decoder)
        while let current = segment {
            var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            let posterior = functions.segmentProbability(current, &acoustic, &language, &backoff)
            if let word = functions.segmentWord(current).map({ String(cString: $0) }), Self.isWord(word) {
                let text = word.hasSuffix(")") ? String(word[..<(word.lastIndex(of: "(") ?? word.endIndex)]) : word
                words.append(.init(text: text, confidence: min(1, max(0, functions.exp(logmath, posterior)))))
            }
            segment = functions.nextSegment(current)
        }
        // The geometric mean: one word the decoder all but guessed makes the whole line doubtful.
        let confidence =
            words.isEmpty ? 0 : exp(words.reduce(0) { $0 + log(max($1.confidence, 1e-6)) } / Double(words.count))
        return RecognizedSpeech(
            text: hypothesis.split(separator: " ").joined(separator: " "), confidence: confidence, words: words)
    }

    /// Whether a segment is a word, not silence (`<sil>`), a sentence marker or a filler (`[NOISE]`, `++um++`).
    private static func isWord(_ word: String) -> Bool {
        !(word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("+"))
    }
}

/// The functions of pocketsphinx and sphinxbase, found in the library.
final class PocketSphinxFunctions: @unchecked Sendable {
    // const arg_t *ps_args(void)
    typealias Arguments = @convention(c) () -> UnsafeRawPointer?
    // cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout_cmdln, const arg_t *defn, int32 argc, char *argv[], int32 strict)
    typealias ParseArguments =
        @convention(c) (
            OpaquePointer?, UnsafeRawPointer?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32
        ) -> OpaquePointer?
    // int cmd_ln_free_r(cmd_ln_t *cmdln); int ps_free(ps_decoder_t *ps); int ps_start_utt / ps_end_utt(ps)
    typealias WithPointer = @convention(c) (OpaquePointer?) -> Int32
    // ps_decoder_t *ps_init(cmd_ln_t *config); ps_seg_t *ps_seg_iter / ps_seg_next; logmath_t *ps_get_logmath
    typealias PointerToPointer = @convention(c) (OpaquePointer?) -> OpaquePointer?
    // int ps_process_raw(ps_decoder_t *ps, const int16 *data, size_t n_samples, int no_search, int full_utt)
    typealias ProcessRaw = @convention(c) (OpaquePointer?, UnsafePointer<Int16>?, Int, Int32, Int32) -> Int32
    // const char *ps_get_hyp(ps_decoder_t *ps, int32 *out_best_score)
    typealias Hypothesis = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> UnsafePointer<CChar>?
    // const char *ps_seg_word(ps_seg_t *seg)
    typealias SegmentWord = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    // int32 ps_seg_prob(ps_seg_t *seg, int32 *out_ascr, int32 *out_lscr, int32 *out_lback)
    typealias SegmentProbability =
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
        ) -> Int32
    // float64 logmath_exp(logmath_t *lmath, int logb_p)
    typealias Exp = @convention(c) (OpaquePointer?, Int32) -> Double
    // int ps_reinit(ps_decoder_t *ps, cmd_ln_t *config): with NULL, the decoder's own configuration
    typealias Reinitialize = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32

    let arguments: Arguments
    let parseArguments: ParseArguments
    let freeArguments: WithPointer
    let initialize: PointerToPointer
    let free: WithPointer
    let startUtterance: WithPointer
    let processRaw: ProcessRaw
    let endUtterance: WithPointer
    let hypothesis: Hypothesis
    let logmath: PointerToPointer
    let segments: PointerToPointer
    let nextSegment: PointerToPointer
    let segmentWord: SegmentWord
    let segmentProbability: SegmentProbability
    let exp: Exp
    let reinitialize: Reinitialize

    /// Opens the library (sphinxbase comes with it) and finds its functions.
    init(loading name: String) throws(ListeningError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw .libraryMissing(library: name, reason: reason)
        }
        func function<F>(_ symbol: String, as type: F.Type) throws(ListeningError) -> F {
            guard let pointer = dlsym(handle, symbol) else { throw .functionMissing(library: name, function: symbol) }
            return unsafeBitCast(pointer, to: type)
        }
        arguments = try function("ps_args", as: Arguments.self)
        parseArguments = try function("cmd_ln_parse_r", as: ParseArguments.self)
        freeArguments = try function("cmd_ln_free_r", as: WithPointer.self)
        initialize = try function("ps_init", as: PointerToPointer.self)
        free = try function("ps_free", as: WithPointer.self)
        startUtterance = try function("ps_start_utt", as: WithPointer.self)
        processRaw = try function("ps_process_raw", as: ProcessRaw.self)
        endUtterance = try function("ps_end_utt", as: WithPointer.self)
        hypothesis = try function("ps_get_hyp", as: Hypothesis.self)
        logmath = try function("ps_get_logmath", as: PointerToPointer.self)
        segments = try function("ps_seg_iter", as: PointerToPointer.self)
        nextSegment = try function("ps_seg_next", as: PointerToPointer.self)
        segmentWord = try function("ps_seg_word", as: SegmentWord.self)
        segmentProbability = try function("ps_seg_prob", as: SegmentProbability.self)
        exp = try function("logmath_exp", as: Exp.self)
        reinitialize = try function("ps_reinit", as: Reinitialize.self)
    }
}

/// A whole file as text, or `nil` when it cannot be read.
private func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count > 0 { bytes += buffer[0..<count] }
        if count < buffer.count { break }
    }
    return ferror(file) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
}

/// Writes text to a new file; whether it worked.
private func writeFile(_ path: String, _ text: String) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, file)
    return fclose(file) == 0 && written == bytes.count
}
