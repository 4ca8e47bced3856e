import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import ParleySpeech
import Testing

/// Whether pocketsphinx's tests run: when its library and model are there, or when `PARLEY_SPEECH_TESTS=1` (as
/// `scripts/test` sets) demands them, when they fail without it instead of being skipped.
enum PocketSphinxTests {
    static let installed =
        dlopen(PocketSphinxRecognizer.defaultLibrary, RTLD_LAZY) != nil
        && FileManager.default.fileExists(atPath: PocketSphinxRecognizer.defaultModelFolder + "/cmudict-en-us.dict")
    static var enabled: Bool { (installed && ESpeakTests.installed) || ESpeakTests.required }
    static let howToEnable =
        "needs pocketsphinx, pocketsphinx-en-us and espeak-ng: run scripts/install-deps --speech (or scripts/test)"
}

@Suite struct NGramLanguageModelTests {
    let model = NGramLanguageModel(sentences: [
        ["how", "much", "is", "the", "lantern"], ["how", "much", "is", "the", "rope"], ["i", "will", "take", "the", "rope"],
        ["hello", "mira"],
    ])

    @Test(arguments: [[], ["<s>"], ["how"], ["the"], ["<s>", "how"], ["is", "the"], ["take", "the"], ["mira", "rope"]])
    func everyHistorysProbabilitiesAddUpToOne(history: [String]) {
        let words = model.vocabulary.filter { $0 != "<s>" }
        let total = words.reduce(0.0) { $0 + model.probability(of: "\($1)", after: history) }
        #expect(abs(total - 1) < 1e-9, "\(history): \(total)")
    }

    @Test func seenContinuationsAreLikelierThanUnseenOnes() {
        #expect(model.probability(of: "lantern", after: ["is", "the"]) > model.probability(of: "mira", after: ["is", "the"]))
        #expect(model.probability(of: "mira", after: ["is", "the"]) > 0, "every word stays possible")
    }

    @Test func theARPAFileDeclaresWhatItHoldsAndIsTheSameEachTime() {
        let arpa = model.arpa
        let counts = model.counts
        #expect(arpa.hasPrefix("\\data\\\nngram 1=\(counts.unigrams)\nngram 2=\(counts.bigrams)\nngram 3=\(counts.trigrams)\n"))
        #expect(arpa.hasSuffix("\\end\\\n"))
        let unigramLines = arpa.components(separatedBy: "\\1-grams:\n")[1].components(separatedBy: "\n\n")[0]
        #expect(unigramLines.split(separator: "\n").count == counts.unigrams)
        #expect(arpa.contains("\n-99.0000 <s> "))
        #expect(NGramLanguageModel(sentences: [["hello", "mira"], ["how", "much", "is", "the", "rope"], ["i", "will", "take", "the", "rope"], ["how", "much", "is", "the", "lantern"]]).arpa == arpa)
    }
}

@Suite struct SpeechVocabularyTests {
    @Test func theShippedPacksVocabularyHasItsItemsNPCsNumbersAndPhrases() throws {
        let vocabulary = SpeechVocabulary(world: try TestWorld.shippedPack().world)
        let sentences = Set(vocabulary.sentences)
        #expect(sentences.count == vocabulary.sentences.count, "each sentence once")
        #expect(vocabulary.language == "en")
        for expected in [
            "how much is the lantern", "brass lantern", "lamp", "mira", "mira quickcoin", "twenty five gold",
            "i'll take the rope", "i will take the rope", "talk to mira",
        ] {
            #expect(sentences.contains(expected), "the vocabulary lacks \"\(expected)\"")
        }
        #expect(vocabulary.names.contains("Brass Lantern"))
        #expect(vocabulary.sentences.allSatisfy { $0 == $0.lowercased() && !$0.contains("  ") && !$0.contains("?") })
    }

    @Test func theVocabularyIsMadeFromContentNotFromTheEvaluationCorpus() throws {
        // A line of the eval corpus that the templates do not make: the round-trip figure measures such lines.
        let vocabulary = SpeechVocabulary(world: try TestWorld.shippedPack().world)
        #expect(!vocabulary.sentences.contains("what's the lantern going for"))
    }
}

@Suite struct SpeechAudioTests {
    @Test func aWAVFileIsReadAndMixedDownToOneChannel() throws {
        // Stereo: left 1000, right 3000 → 2000.
        var stereo = WAVFile.encode(samples: [1000, 3000, 1000, 3000], sampleRate: 8_000)
        stereo[22] = 2  // channels
        stereo[32] = 4  // bytes per frame
        let audio = try SpeechAudio(wav: stereo)
        #expect(audio.samples == [2000, 2000])
        #expect(audio.sampleRate == 8_000)
    }

    @Test func notAWAVFileIsAClearError() {
        #expect {
            try SpeechAudio(wav: Array("hello".utf8))
        } throws: { error in
            "\(error)".contains("not a WAV file") && "\(error)".contains("audio/wav")
        }
        #expect(throws: ListeningError.self) { try SpeechAudio(wav: WAVFile.encode(samples: [], sampleRate: 16_000)) }
    }

    @Test func resamplingKeepsTheDurationAndThePitch() {
        // One second of a 440 Hz tone at 22,050 Hz, to 16 kHz: one second, 440 cycles (880 sign changes).
        let tone = (0..<22_050).map { Int16(10_000 * sin(2 * Double.pi * 440 * Double($0) / 22_050)) }
        let resampled = SpeechAudio(samples: tone, sampleRate: 22_050).resampled(to: 16_000)
        #expect(resampled.sampleRate == 16_000)
        #expect(abs(resampled.samples.count - 16_000) <= 1)
        let crossings = zip(resampled.samples, resampled.samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 880) <= 2, "\(crossings)")
        #expect(resampled.samples.map { abs(Int($0)) }.max()! > 9_000)
    }
}

@Suite(.serialized, .enabled(if: PocketSphinxTests.enabled, Comment(rawValue: PocketSphinxTests.howToEnable)))
struct PocketSphinxRecognitionTests {
    let recognizer = PocketSphinxRecognizer()

    static func spoken(_ line: String) async throws -> SpeechAudio {
        try SpeechAudio(wav: try ESpeakCommand.wav(line))
    }

    @Test func aSpokenPriceQuestionIsHeardWithThePacksVocabulary() async throws {
        let vocabulary = SpeechVocabulary(world: try TestWorld.shippedPack().world)
        let heard = try await recognizer.recognize(try await Self.spoken("how much is the lantern"), vocabulary: vocabulary)
        #expect(heard.text == "how much is the lantern")
        #expect(heard.words.map(\.text) == ["how", "much", "is", "the", "lantern"])
        #expect(heard.isClear(minimum: recognizer.minimumConfidence), "confidence \(heard.confidence ?? -1)")
    }

    @Test func unrelatedSpeechIsHeardLessSurely() async throws {
        let vocabulary = SpeechVocabulary(world: try TestWorld.shippedPack().world)
        let inDomain = try await recognizer.recognize(try await Self.spoken("how much is the lantern"), vocabulary: vocabulary)
        let unrelated = try await recognizer.recognize(
            try await Self.spoken("the quick brown fox jumps over the lazy dog"), vocabulary: vocabulary)
        #expect((unrelated.confidence ?? 1) < (inDomain.confidence ?? 0), "\(unrelated) against \(inDomain)")
        #expect(!unrelated.isClear(minimum: recognizer.minimumConfidence), "\(unrelated)")
    }

    @Test func silenceIsHeardAsNothing() async throws {
        let vocabulary = SpeechVocabulary(language: "en", sentences: ["how much is the lantern", "hello"])
        let heard = try await recognizer.recognize(
            SpeechAudio(samples: [Int16](repeating: 0, count: 16_000), sampleRate: 16_000), vocabulary: vocabulary)
        #expect(!heard.isClear(minimum: recognizer.minimumConfidence), "\(heard)")
    }

    @Test func aDecoderRemovesTheFoldersOfProcessesThatEnded() async throws {
        // A killed process leaves its decoders' folders (language model, dictionary) in the temporary folder.
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let manager = FileManager.default
        let stale = "\(temporary)/parley-listen-\(ended.processIdentifier)-left00"
        let running = "\(temporary)/parley-listen-\(getpid())-kept00"
        for folder in [stale, running] {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(manager.createFile(atPath: folder + "/pack.lm", contents: Data("\\data\\\n".utf8)))
        }
        defer {
            try? manager.removeItem(atPath: running)
            try? manager.removeItem(atPath: stale)
        }
        // A vocabulary no other test uses, so that a decoder is made now.
        let vocabulary = SpeechVocabulary(
            language: "en", sentences: ["how much is the lantern", "good morning sergeant"])
        _ = try await recognizer.recognize(
            SpeechAudio(samples: [Int16](repeating: 0, count: 8_000), sampleRate: 16_000), vocabulary: vocabulary)
        #expect(!manager.fileExists(atPath: stale), "the ended process's folder is still there")
        #expect(manager.fileExists(atPath: running + "/pack.lm"), "a running process's folder was touched")
    }

    @Test func anotherLanguageIsRefusedWithWhatToDo() async throws {
        let vocabulary = SpeechVocabulary(language: "de", sentences: ["wie viel kostet die laterne"])
        await #expect {
            _ = try await recognizer.recognize(SpeechAudio(samples: [1, 2, 3], sampleRate: 16_000), vocabulary: vocabulary)
        } throws: { error in
            error as? ListeningError == .noModel(language: "de", path: recognizer.modelFolder)
                && "\(error)".contains("--listen-model")
        }
    }

    @Test func wordsTheDictionaryLacksAreListed() async throws {
        let vocabulary = SpeechVocabulary(world: try TestWorld.shippedPack().world)
        let unknown = try await recognizer.unknownWords(in: vocabulary)
        #expect(unknown.contains("brannoc"))
        #expect(!unknown.contains("lantern"))
    }
}

@Suite struct PocketSphinxMissingTests {
    @Test func aMissingLibrarySaysWhatToInstall() async {
        let recognizer = PocketSphinxRecognizer(library: "libpocketsphinx-missing.so.9")
        let problem = await recognizer.unavailability()
        #expect("\(problem.map(String.init(describing:)) ?? "")".contains("scripts/install-deps --speech"))
        await #expect(throws: ListeningError.self) {
            _ = try await recognizer.recognize(
                SpeechAudio(samples: [1, 2, 3], sampleRate: 16_000),
                vocabulary: SpeechVocabulary(language: "en", sentences: ["hello"]))
        }
    }

    @Test func aMissingModelSaysWhatToInstall() async {
        let recognizer = PocketSphinxRecognizer(modelFolder: "/nonexistent/pocketsphinx/model")
        if case .noModel? = await recognizer.unavailability() {
        } else if PocketSphinxTests.installed {
            Issue.record("a missing model should be reported as one")
        }
    }
}
