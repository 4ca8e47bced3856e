import GameWorld
import ParleySpeech
import Testing

@Suite struct WAVFileTests {
    @Test func samplesRoundTrip() throws {
        let samples: [Int16] = [0, 1, -1, .max, .min, 12_345, -12_345] + (0..<1_000).map { Int16($0 * 37 % 30_000) }
        let bytes = WAVFile.encode(samples: samples, sampleRate: 16_000)
        #expect(bytes.count == 44 + samples.count * 2)
        let decoded = try WAVFile.decode(bytes)
        #expect(decoded.samples == samples)
        #expect(
            decoded.header
                == WAVFile.Header(
                    format: 1, channels: 1, sampleRate: 16_000, bitsPerSample: 16, dataSize: samples.count * 2,
                    dataOffset: 44))
    }

    @Test func theHeaderIsTheStandardOne() {
        let bytes = WAVFile.encode(samples: [1, 2], sampleRate: 22_050)
        // RIFF, size 36 + 4, WAVE, fmt  (16 bytes: PCM, mono, 22050 Hz, 44100 bytes/s, 2 bytes/frame, 16 bits), data, 4.
        let expected: [UInt8] =
            Array("RIFF".utf8) + [40, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0]
            + [0x22, 0x56, 0, 0] + [0x44, 0xAC, 0, 0] + [2, 0, 16, 0] + Array("data".utf8) + [4, 0, 0, 0]
            + [1, 0, 2, 0]
        #expect(bytes == expected)
    }

    @Test func otherChunksAreSkipped() throws {
        var bytes = WAVFile.encode(samples: [7, -7], sampleRate: 8_000)
        // A LIST chunk of 3 bytes (padded to 4) between fmt and data.
        bytes.insert(contentsOf: Array("LIST".utf8) + [3, 0, 0, 0, 1, 2, 3, 0], at: 36)
        bytes.replaceSubrange(4..<8, with: [48, 0, 0, 0])
        let decoded = try WAVFile.decode(bytes)
        #expect(decoded.samples == [7, -7])
        #expect(decoded.header.dataOffset == 56)
    }

    @Test func notAWAVFileIsAnError() {
        #expect(throws: WAVFile.DecodingError.notWAV) { try WAVFile.decode(Array("RIFX0000WAVE".utf8)) }
        var truncated = WAVFile.encode(samples: [1, 2, 3], sampleRate: 8_000)
        truncated.removeLast(2)
        #expect(throws: WAVFile.DecodingError.notWAV) { try WAVFile.decode(truncated) }
    }

    @Test func speechKnowsItsDuration() throws {
        let speech = SynthesizedSpeech(samples: Array(repeating: 0, count: 22_050 * 3 / 2), sampleRate: 22_050)
        #expect(speech.duration == .milliseconds(1_500))
        #expect(try WAVFile.header(of: speech.wav).dataSize == 22_050 * 3)
    }
}

@Suite struct VisemeMappingTests {
    @Test(arguments: [
        ("_", VisemeShape.sil), ("_:", .sil), ("", .sil), ("p", .pp), ("b", .pp), ("m", .pp), ("f", .ff), ("v", .ff),
        ("T", .th), ("D", .th), ("t", .dd), ("d", .dd), ("t#", .dd), ("k", .kk), ("g", .kk), ("N", .kk), ("h", .kk),
        ("tS", .ch), ("dZ", .ch), ("S", .ch), ("Z", .ch), ("s", .ss), ("z", .ss), ("n", .nn), ("l", .nn),
        ("r", .rr), ("r-", .rr), ("a", .aa), ("A:", .aa), ("aI", .aa), ("aU", .aa), ("V", .aa), ("e", .e), ("E", .e),
        ("@", .e), ("3:", .e), ("eI", .e), ("i:", .ih), ("I", .ih), ("j", .ih), ("0", .oh), ("O:", .oh), ("oU", .oh),
        ("OI", .oh), ("u:", .ou), ("U", .ou), ("w", .ou),
    ])
    func anESpeakPhonemeHasItsViseme(_ mnemonic: String, _ shape: VisemeShape) {
        #expect(VisemeShape(espeakPhoneme: mnemonic) == shape)
    }

    @Test func marksThatAreNotSoundsHaveNoViseme() {
        for mark in ["'", ",", "%", "=", "|", "#"] {
            #expect(VisemeShape(espeakPhoneme: mark) == nil, "\(mark)")
        }
    }

    @Test func theConventionHasFifteenVisemes() {
        #expect(
            VisemeShape.allCases.map(\.rawValue)
                == ["sil", "PP", "FF", "TH", "DD", "kk", "CH", "SS", "nn", "RR", "aa", "E", "ih", "oh", "ou"])
    }

    @Test func theTimelineCoversTheAudioWithoutGaps() {
        let events = [
            SpeechEvent(kind: .sentence, time: .zero),
            SpeechEvent(kind: .phoneme, time: .milliseconds(20), phoneme: "h"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(90), phoneme: "@"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(90), phoneme: "'"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(150), phoneme: "l"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(210), phoneme: "oU"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(260), phoneme: "O:"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(400), phoneme: "_"),
        ]
        let visemes = VisemeShape.timeline(of: events, duration: .milliseconds(500))
        #expect(visemes.map(\.shape) == [.sil, .kk, .e, .nn, .oh, .sil])
        #expect(visemes.map(\.time) == [0, 20, 90, 150, 210, 400].map { Duration.milliseconds($0) })
        #expect(visemes.last?.end == .milliseconds(500))
        #expect(VisemeShape.timeline(of: events, duration: .zero).isEmpty)
    }

    @Test func eventsBeyondTheAudioAreClamped() {
        let events = [
            SpeechEvent(kind: .phoneme, time: .zero, phoneme: "m"),
            SpeechEvent(kind: .phoneme, time: .milliseconds(300), phoneme: "a"),
        ]
        let visemes = VisemeShape.timeline(of: events, duration: .milliseconds(200))
        #expect(visemes == [Viseme(time: .zero, duration: .milliseconds(200), shape: .pp)])
    }
}

@Suite struct SpeechVoiceTests {
    @Test func anNPCSpeechBlockBecomesAVoice() {
        let voice = SpeechVoice(NPCSpeech(voice: "en-gb", pitch: 40, rate: 160, variant: "f3"))
        #expect(voice == SpeechVoice(voice: "en-gb", pitch: 40, rate: 160, variant: "f3"))
        #expect(voice.espeakName == "en-gb+f3")
        #expect(SpeechVoice(NPCSpeech(), fallbackVoice: "de") == SpeechVoice(voice: "de"))
        #expect(SpeechVoice(voice: "en", pitch: 200, rate: 10) == SpeechVoice(voice: "en", pitch: 99, rate: 80))
    }

    @Test func theDefaultVoiceFollowsTheNPCsId() {
        let ids: [NPCID] = ["mira", "bram", "guard", "old-tom", "sela", "innkeeper", "smith", "child"]
        let speeches = ids.map { NPCSpeech.default(for: $0) }
        #expect(ids.map { NPCSpeech.default(for: $0) } == speeches)
        for speech in speeches {
            #expect((30...69).contains(speech.pitch ?? -1))
            #expect(NPCSpeech.defaultVariants.contains(speech.variant ?? ""))
        }
        #expect(Set(speeches.map { "\($0.variant ?? "")/\($0.pitch ?? 0)" }).count >= 6, "\(speeches)")
        let npc = NPC(id: "mira", name: "Mira", persona: "A merchant.", location: "square")
        #expect(npc.speechOrDefault == NPCSpeech.default(for: "mira"))
    }
}
