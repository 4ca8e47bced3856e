import Foundation
import GameWorld
import ParleySpeech
import Testing

/// Whether espeak-ng's tests run: when its library loads, or when `PARLEY_SPEECH_TESTS=1` (as `scripts/test` sets)
/// demands them, when they fail without it instead of being skipped.
enum ESpeakTests {
    static let installed = dlopen(ESpeakSynthesizer.defaultLibrary, RTLD_LAZY) != nil
    static let required = ProcessInfo.processInfo.environment["PARLEY_SPEECH_TESTS"] == "1"
    static var enabled: Bool { installed || required }
    static let howToEnable = "needs espeak-ng: run scripts/install-deps --speech (or scripts/test, which installs it)"
}

/// The root mean square of samples, 0 for silence.
func rms(_ samples: [Int16]) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
}

@Suite(.serialized, .enabled(if: ESpeakTests.enabled, Comment(rawValue: ESpeakTests.howToEnable)))
struct ESpeakSynthesisTests {
    let synthesizer = ESpeakSynthesizer()
    let mira = SpeechVoice(NPCSpeech(voice: "en-gb", pitch: 40, rate: 160, variant: "f3"))

    @Test func anNPCLineIsRealAudioInAWAVFile() async throws {
        let speech = try await synthesizer.synthesize("A lantern costs twelve gold, traveller.", voice: mira)
        let wav = speech.wav
        let decoded = try WAVFile.decode(wav)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8))
        #expect(Array(wav[8..<12]) == Array("WAVE".utf8))
        #expect(decoded.header.format == 1)
        #expect(decoded.header.channels == 1)
        #expect(decoded.header.bitsPerSample == 16)
        #expect(decoded.header.sampleRate == speech.sampleRate)
        #expect(speech.sampleRate == 22_050)
        #expect(decoded.samples == speech.samples)
        // Speech, not silence: a spoken line's RMS is in the thousands; a quiet room's below 100.
        #expect(rms(speech.samples) > 300, "RMS \(rms(speech.samples))")
        #expect(speech.duration > .milliseconds(800), "\(speech.duration)")
        #expect(speech.events.contains { $0.kind == .word })
        #expect(speech.events.contains { $0.kind == .phoneme })
    }

    @Test func aLongerLineLastsLonger() async throws {
        let short = try await synthesizer.synthesize("Welcome.", voice: mira)
        let long = try await synthesizer.synthesize(
            "Welcome to my stall, traveller. I sell lanterns, rope and bread, and I buy whatever you found on the road.",
            voice: mira)
        #expect(long.duration > short.duration * 3, "\(short.duration) and \(long.duration)")
        #expect(rms(short.samples) > 300)
    }

    @Test func aSlowerVoiceSpeaksLonger() async throws {
        let line = "I have three lanterns and a coil of rope."
        let slow = try await synthesizer.synthesize(line, voice: SpeechVoice(voice: "en", rate: 100))
        let fast = try await synthesizer.synthesize(line, voice: SpeechVoice(voice: "en", rate: 300))
        #expect(slow.duration > fast.duration * 2, "\(slow.duration) and \(fast.duration)")
    }

    @Test func theVisemesCoverTheAudio() async throws {
        let speech = try await synthesizer.synthesize(
            "Do you have a sword? Mira shook her head and pointed at the smithy.", voice: mira)
        let visemes = speech.visemes
        let first = try #require(visemes.first)
        let last = try #require(visemes.last)
        #expect(first.time == .zero)
        #expect(last.end == speech.duration)
        for (before, after) in zip(visemes, visemes.dropFirst()) {
            #expect(before.end == after.time, "a gap or an overlap between \(before) and \(after)")
            #expect(before.shape != after.shape, "the same shape twice in a row: \(before), \(after)")
            #expect(before.duration > .zero)
        }
        // A spoken sentence moves the mouth: closed lips (m, p), teeth (s), open vowels.
        let shapes = Set(visemes.map(\.shape))
        #expect(shapes.isSuperset(of: [.sil, .pp, .ss, .aa]), "\(shapes)")
        #expect(shapes.count >= 8, "\(shapes)")
        // The phonemes are where the sound is: no phoneme event beyond the audio.
        let lastPhoneme = try #require(speech.events.filter { $0.kind == .phoneme }.map(\.time).max())
        #expect(lastPhoneme <= speech.duration)
        #expect(lastPhoneme > speech.duration / 2)
    }

    @Test func aLanguageVoiceAndItsVariantsSoundDifferent() async throws {
        let line = "Good morning."
        let female = try await synthesizer.synthesize(line, voice: SpeechVoice(voice: "en-gb", variant: "f3"))
        let male = try await synthesizer.synthesize(line, voice: SpeechVoice(voice: "en-gb", variant: "m1"))
        let plain = try await synthesizer.synthesize(line, voice: SpeechVoice(voice: "en-gb"))
        #expect(female.samples != male.samples)
        #expect(male.samples != plain.samples)
        #expect(rms(female.samples) > 300 && rms(male.samples) > 300 && rms(plain.samples) > 300)
        let german = try await synthesizer.synthesize("Guten Morgen.", voice: SpeechVoice(voice: "de", variant: "m2"))
        #expect(rms(german.samples) > 300)
    }

    @Test func anUnknownVoiceIsAClearError() async throws {
        await #expect(throws: SpeechError.unknownVoice("xx-nowhere")) {
            try await synthesizer.synthesize("Hello.", voice: SpeechVoice(voice: "xx-nowhere"))
        }
        #expect(await synthesizer.unavailability() == nil)
    }
}

@Suite struct ESpeakMissingTests {
    @Test func aMissingLibrarySaysWhatToInstall() async throws {
        let synthesizer = ESpeakSynthesizer(library: "libespeak-ng-that-does-not-exist.so.9")
        do {
            _ = try await synthesizer.synthesize("Hello.", voice: .default)
            Issue.record("a missing library spoke")
        } catch let error as SpeechError {
            guard case .libraryMissing(let library, _) = error else {
                Issue.record("expected libraryMissing, got \(error)")
                return
            }
            #expect(library == "libespeak-ng-that-does-not-exist.so.9")
            #expect(error.description.contains("scripts/install-deps --speech"), "\(error)")
        }
        let unavailability = await synthesizer.unavailability()
        #expect(unavailability?.description.contains("apt-get install espeak-ng") == true)
    }
}
