import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyAPI
import ParleyEngine
import ParleyHTTP
import ParleyJSON
import ParleySpeech
import ScriptedModel
import Synchronization
import Testing

/// Whether espeak-ng's tests run: when its library loads, or when `PARLEY_SPEECH_TESTS=1` demands them (they then
/// fail without it instead of being skipped).
enum ESpeakAPITests {
    static let installed = dlopen(ESpeakSynthesizer.defaultLibrary, RTLD_LAZY) != nil
    static let required = ProcessInfo.processInfo.environment["PARLEY_SPEECH_TESTS"] == "1"
    static var enabled: Bool { installed || required }
    static let howToEnable = "needs espeak-ng: run scripts/install-deps --speech (or scripts/test, which installs it)"
}

/// A synthesiser without espeak-ng: a sine as long as the text (10 ms a character), one viseme over all of it.
struct SineSynthesizer: SpeechSynthesizer {
    func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        let samples = (0..<text.count * 160).map { Int16(4_000 * sin(Double($0) / 8)) }
        let duration = Duration.milliseconds(text.count * 10)
        return SynthesizedSpeech(
            samples: samples, sampleRate: 16_000, visemes: [Viseme(time: .zero, duration: duration, shape: .aa)])
    }
}

/// The sine synthesiser, recording what it is asked to say; it fails for the texts in `failing`.
final class RecordingSynthesizer: SpeechSynthesizer {
    let failing: Set<String>
    private let asked = Mutex<[String]>([])

    init(failing: Set<String> = []) {
        self.failing = failing
    }

    /// The texts it was asked to say, in order.
    var texts: [String] { asked.withLock { $0 } }

    func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        asked.withLock { $0.append(text) }
        if failing.contains(text) { throw SpeechError.synthesisFailed("refused \(text)") }
        return try await SineSynthesizer().synthesize(text, voice: voice)
    }
}

/// A synthesiser that always fails, as a speech server that is down does.
struct FailingSynthesizer: SpeechSynthesizer {
    func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        throw SpeechError.serverUnreachable(url: "http://127.0.0.1:9/v1/audio/speech", reason: "connection refused")
    }
}

/// `parley serve` with speech: each `speech` event that ends a sentence names the sentence's WAV (`GET
/// /v1/games/{id}/audio/{eventId}`) and carries its visemes, and each `speechEnded` the whole line's, the sentences
/// end to end; without speech, nothing of it.
@Suite(.timeLimit(.minutes(10))) struct SpokenLinesAPITests {
    /// The `speechEnded` events of a line's answer.
    static func spokenLines(_ events: [JSONValue]) -> [JSONValue] {
        events.filter { $0["type"]?.stringValue == "speechEnded" }
    }

    /// GETs a path: its status, `Content-Type` and body.
    static func get(_ fixture: ActionAPITests.Fixture, _ path: String) async throws -> (Int, String?, [UInt8]) {
        let response = try await fixture.client.execute(.get(fixture.server.baseURL + path))
        return (response.status, response.headers["Content-Type"], Array(response.body))
    }

    /// The visemes of an event, `(viseme, start, duration)` in seconds.
    static func visemes(of event: JSONValue) throws -> [(String, Double, Double)] {
        guard case .array(let visemes)? = event["visemes"] else { throw SpeechError.synthesisFailed("no visemes") }
        return try visemes.map { viseme in
            (
                try #require(viseme["viseme"]?.stringValue), try #require(viseme["start"]?.doubleValue),
                try #require(viseme["duration"]?.doubleValue)
            )
        }
    }

    @Test(.enabled(if: ESpeakAPITests.enabled, Comment(rawValue: ESpeakAPITests.howToEnable)))
    func withEspeakEachLineHasARealWAVAndVisemesOverIt() async throws {
        try await ActionAPITests.withFixture(speech: APISpeech(synthesizer: ESpeakSynthesizer())) { fixture in
            let game = try await fixture.newGame()
            let events = try await fixture.say(game, "talk to mira")
            let line = try #require(Self.spokenLines(events).last)
            #expect(line["npc"]?["id"] == "mira")
            #expect(line["text"]?.stringValue?.isEmpty == false)
            let audio = try #require(line["audio"]?.stringValue)
            #expect(audio.hasPrefix("/v1/games/\(game)/audio/"))
            let (status, type, body) = try await Self.get(fixture, audio)
            #expect(status == 200)
            #expect(type == "audio/wav")
            #expect(Array(body.prefix(4)) == Array("RIFF".utf8))
            #expect(Array(body[8..<12]) == Array("WAVE".utf8))
            let wav = try WAVFile.decode(body)
            let seconds = Double(wav.samples.count) / Double(wav.header.sampleRate)
            #expect(seconds > 0.3, "\(seconds) s")
            // Not silence.
            #expect(wav.samples.contains { abs(Int($0)) > 1_000 })
            // The visemes cover the audio: from 0, each where the one before ends, to its end (to the millisecond).
            let visemes = try Self.visemes(of: line)
            #expect(visemes.count > 3)
            #expect(visemes.first?.1 == 0)
            for (before, after) in zip(visemes, visemes.dropFirst()) {
                #expect(abs(before.1 + before.2 - after.1) < 0.000_5, "\(before) \(after)")
            }
            let end = try #require(visemes.last.map { $0.1 + $0.2 })
            #expect(abs(end - seconds) < 0.002, "visemes end at \(end) s, the audio at \(seconds) s")
            let shapes = Set(VisemeShape.allCases.map(\.rawValue))
            #expect(visemes.allSatisfy { shapes.contains($0.0) })
            // docs/openapi.json describes the event with its audio and visemes.
            let document = try OpenAPITests.document()
            let schema = try OpenAPITests.schema(["$ref": "#/components/schemas/Event"], in: document)
            let violations = schema.validate(try GeneratedContent(json: line.jsonString()))
            #expect(violations.isEmpty, "\(violations)")
            // Its sentences came first, each with its own WAV; the line's is theirs end to end.
            let sentences = events.filter { $0["type"]?.stringValue == "speech" && $0["audio"] != nil }
            #expect(!sentences.isEmpty)
            var samples: [Int16] = []
            for sentence in sentences {
                #expect(schema.validate(try GeneratedContent(json: sentence.jsonString())).isEmpty)
                let (status, type, body) = try await Self.get(fixture, try #require(sentence["audio"]?.stringValue))
                #expect(status == 200)
                #expect(type == "audio/wav")
                let decoded = try WAVFile.decode(body)
                #expect(decoded.header.sampleRate == wav.header.sampleRate)
                #expect(decoded.header.channels == 1)
                samples += decoded.samples
            }
            #expect(samples == wav.samples)
        }
    }

    /// How many pieces the gated model has released.
    final class Released: Sendable {
        let count = Mutex(0)
    }

    /// A line of three sentences from a server model that waits, after its first, until the test lets it go on.
    static func gatedModels(_ gate: SentenceSpeechAPITests.Gate, released: Released) -> Game.ModelProvider {
        let voice = MockLanguageModel { request in
            let asked = request.transcript.last { if case .prompt = $0 { true } else { false } }
            guard asked?.description.contains("lantern") == true else { return .text("Hello there, friend!") }
            return .deltas(["Well now, friend. T", "he Brass Lantern? ", "25 gold, friend, and cheap at that."]) {
                index in
                if index >= 1 { await gate.wait() }
                released.count.withLock { $0 = index + 1 }
            }
        }
        return { npc, world in
            VoicedModel(
                voice: voice, planner: ScriptedModel(npc: npc, world: world, seed: 1), mode: .free,
                firstWordsDeadline: .seconds(600))
        }
    }

    /// Streams "how much is the lantern?" to the gated model: the first sentence's `speech` event comes with its
    /// audio, which can be fetched, while the model still holds the rest of the line back; then every sentence has
    /// its audio, in order, and the line's is theirs end to end. Returns the events.
    static func speaksEachSentenceAsItComes(
        _ synthesizer: any SpeechSynthesizer, check: ([UInt8]) throws -> Void
    ) async throws -> [JSONValue] {
        let gate = SentenceSpeechAPITests.Gate()
        let released = Released()
        var events: [JSONValue] = []
        try await ActionAPITests.withFixture(
            models: gatedModels(gate, released: released), speech: APISpeech(synthesizer: synthesizer)
        ) { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let listener = try await fixture.client.stream(
                .get(fixture.server.baseURL + "/v1/games/\(game)/events", headers: ["Accept": "text/event-stream"]))
            let response = try await fixture.stream(game, "how much is the lantern?")
            var samples: [Int16] = []
            for try await event in response.serverSentEvents {
                let json = try JSONValue(parsing: event.data)
                if event.event == "speech", let path = json["audio"]?.stringValue {
                    if samples.isEmpty {
                        // The model has released one sentence and waits: the line has not ended, its audio is here.
                        #expect(released.count.withLock { $0 } == 1)
                        #expect(!events.contains { $0["type"]?.stringValue == "speechEnded" })
                    }
                    let (status, type, body) = try await Self.get(fixture, path)
                    #expect(status == 200)
                    #expect(type == "audio/wav")
                    try check(body)
                    samples += try WAVFile.decode(body).samples
                    gate.open()
                }
                if event.event == "speechEnded", let path = json["audio"]?.stringValue {
                    let (status, _, body) = try await Self.get(fixture, path)
                    #expect(status == 200)
                    try check(body)
                    #expect(try WAVFile.decode(body).samples == samples)
                }
                if event.event == "done" { break }
                events.append(json)
            }
            // A listener heard the same events in the same order, numbered as their audio says.
            var heard: [(id: String?, type: String?)] = []
            var listened = listener.serverSentEvents.makeAsyncIterator()
            while heard.count < events.count, let event = try await listened.next() {
                if event.event == "heartbeat" { continue }
                heard.append((event.id, event.event))
            }
            #expect(heard.map(\.type) == events.map { $0["type"]?.stringValue })
            for (event, (id, _)) in zip(events, heard) {
                if let path = event["audio"]?.stringValue { #expect(path.hasSuffix("/audio/\(id ?? "")")) }
            }
        }
        return events.filter { ["speech", "speechEnded"].contains($0["type"]?.stringValue) }
    }

    @Test func eachSentenceIsSpokenAsItComesAndTheLineIsTheSentencesEndToEnd() async throws {
        let synthesizer = RecordingSynthesizer()
        let events = try await Self.speaksEachSentenceAsItComes(synthesizer) { wav in
            let header = try WAVFile.header(of: wav)
            #expect(Array(wav.prefix(4)) == Array("RIFF".utf8))
            #expect(Array(wav[8..<12]) == Array("WAVE".utf8))
            #expect(header.format == 1 && header.channels == 1 && header.bitsPerSample == 16)
            #expect(header.sampleRate == 16_000)
        }
        // In order: each sentence, spoken as itself, then the line, not synthesised again.
        #expect(
            events.map { $0["text"]?.stringValue ?? "" } == [
                "Well now, friend.", " The Brass Lantern?", " 25 gold, friend, and cheap at that.",
                "Well now, friend. The Brass Lantern? 25 gold, friend, and cheap at that.",
            ])
        #expect(events.allSatisfy { $0["audio"] != nil })
        let spoken = synthesizer.texts.suffix(3)
        #expect(Array(spoken) == ["Well now, friend.", "The Brass Lantern?", "25 gold, friend, and cheap at that."])
        #expect(!synthesizer.texts.contains { $0.hasPrefix("Well now, friend. The") })
        // The line's visemes are the sentences', each moved to where its sentence starts.
        let line = try Self.visemes(of: try #require(events.last))
        #expect(line.map(\.0) == ["aa", "aa", "aa"])
        #expect(line.map(\.1) == [0, 0.17, 0.35])
        #expect(line.map(\.2) == [0.17, 0.18, 0.35])
    }

    @Test(.enabled(if: ESpeakAPITests.enabled, Comment(rawValue: ESpeakAPITests.howToEnable)))
    func withEspeakEachSentenceIsARealWAVAsItComes() async throws {
        let events = try await Self.speaksEachSentenceAsItComes(ESpeakSynthesizer()) { wav in
            let decoded = try WAVFile.decode(wav)
            #expect(decoded.header.sampleRate == 22_050)
            #expect(decoded.samples.contains { abs(Int($0)) > 1_000 })
        }
        #expect(events.count == 4)
        for event in events {
            let visemes = try Self.visemes(of: event)
            #expect(visemes.first?.1 == 0)
            for (before, after) in zip(visemes, visemes.dropFirst()) {
                #expect(abs(before.1 + before.2 - after.1) < 0.000_5, "\(before) \(after)")
            }
        }
    }

    @Test func aLineWhoseSentencesAreNotAllSpokenIsSynthesisedWhole() async throws {
        let synthesizer = RecordingSynthesizer(failing: ["The Brass Lantern?"])
        let gate = SentenceSpeechAPITests.Gate()
        gate.open()
        try await ActionAPITests.withFixture(
            models: Self.gatedModels(gate, released: Released()), speech: APISpeech(synthesizer: synthesizer)
        ) { fixture in
            let game = try await fixture.newGame()
            _ = try await fixture.say(game, "talk to mira")
            let events = try await fixture.say(game, "how much is the lantern?")
            let speech = events.filter { $0["type"]?.stringValue == "speech" }
            #expect(speech.map { $0["audio"] != nil } == [true, false, true])
            let line = try #require(Self.spokenLines(events).last)
            let text = try #require(line["text"]?.stringValue)
            let (status, _, body) = try await Self.get(fixture, try #require(line["audio"]?.stringValue))
            #expect(status == 200)
            #expect(try WAVFile.decode(body).samples.count == text.count * 160)
            #expect(synthesizer.texts.last == text)
            #expect(events.filter { $0["type"]?.stringValue == "notice" }.count == 1)
        }
    }

    @Test func withoutSpeechEventsHaveNoAudioAndTheAudioRouteSaysSo() async throws {
        try await ActionAPITests.withFixture { fixture in
            let game = try await fixture.newGame()
            let lines = Self.spokenLines(try await fixture.say(game, "talk to mira"))
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(line["audio"] == nil)
                #expect(line["visemes"] == nil)
            }
            let (status, type, body) = try await Self.get(fixture, "/v1/games/\(game)/audio/1")
            #expect(status == 404)
            #expect(type == "application/problem+json")
            #expect(String(decoding: body, as: UTF8.self).contains("--speech"))
        }
    }

    @Test func onlyTheLastLinesAudioIsKept() async throws {
        let speech = APISpeech(synthesizer: SineSynthesizer(), keptLines: 2)
        try await ActionAPITests.withFixture(speech: speech) { fixture in
            let game = try await fixture.newGame()
            var audio: [String] = []
            var sentences: [[String]] = []
            for line in ["talk to mira", "hello", "how much is the rope?"] {
                let events = try await fixture.say(game, line)
                for event in Self.spokenLines(events) {
                    audio.append(try #require(event["audio"]?.stringValue))
                    // The event's visemes are the synthesiser's: one a sentence, over the whole line.
                    let visemes = try Self.visemes(of: event)
                    let text = try #require(event["text"]?.stringValue)
                    #expect(!visemes.isEmpty && visemes.allSatisfy { $0.0 == "aa" })
                    let end = try #require(visemes.last.map { $0.1 + $0.2 })
                    #expect(abs(end - Double(text.count) / 100) < 0.05, "\(end) s for \(text.count) characters")
                }
                // A line's sentences are kept with it: they go when it goes.
                sentences.append(events.compactMap { $0["type"] == "speech" ? $0["audio"]?.stringValue : nil })
                #expect(sentences.last?.isEmpty == false)
            }
            #expect(audio.count == 3, "\(audio)")
            #expect(Set(audio).count == audio.count)
            for (index, path) in audio.enumerated() {
                for sentence in sentences[index] {
                    #expect(try await Self.get(fixture, sentence).0 == (index == 0 ? 404 : 200), "\(sentence)")
                }
                let (status, type, body) = try await Self.get(fixture, path)
                if index < audio.count - 2 {
                    #expect(status == 404, "\(path)")
                    #expect(type == "application/problem+json")
                } else {
                    #expect(status == 200, "\(path)")
                    #expect(try WAVFile.decode(body).header.sampleRate == 16_000)
                }
            }
            let (status, _, _) = try await Self.get(fixture, "/v1/games/\(game)/audio/abc")
            #expect(status == 404)
        }
    }

    @Test func theAudioURLIsTheEventsNumberAmongTheGamesEvents() async throws {
        try await ActionAPITests.withFixture(speech: APISpeech(synthesizer: SineSynthesizer())) { fixture in
            let game = try await fixture.newGame()
            let response = try await fixture.client.stream(
                .get(fixture.server.baseURL + "/v1/games/\(game)/events", headers: ["Accept": "text/event-stream"]))
            var listened = response.serverSentEvents.makeAsyncIterator()
            let events = try await fixture.say(game, "talk to mira")
            let line = try #require(Self.spokenLines(events).first)
            let path = try #require(line["audio"]?.stringValue)
            // The same events, in the same order, reach a listener, the spoken line numbered as its audio says.
            var heard: [(id: String?, type: String?)] = []
            while heard.count < events.count, let event = try await listened.next() {
                heard.append((event.id, event.event))
            }
            #expect(heard.map(\.type) == events.map { $0["type"]?.stringValue })
            let spoken = try #require(heard.first { $0.type == "speechEnded" })
            #expect(path == "/v1/games/\(game)/audio/\(spoken.id ?? "")")
        }
    }

    @Test func aSynthesiserThatFailsLeavesTheLinesTextAndSaysSoOnce() async throws {
        try await ActionAPITests.withFixture(speech: APISpeech(synthesizer: FailingSynthesizer())) { fixture in
            let game = try await fixture.newGame()
            var notices: [String] = []
            for line in ["talk to mira", "hello"] {
                let events = try await fixture.say(game, line)
                let lines = Self.spokenLines(events)
                #expect(!lines.isEmpty)
                #expect(lines.allSatisfy { $0["audio"] == nil && $0["text"]?.stringValue?.isEmpty == false })
                notices += events.filter { $0["type"]?.stringValue == "notice" }.compactMap { $0["text"]?.stringValue }
            }
            #expect(notices.count == 1, "\(notices)")
            #expect(notices.first?.contains("could not be reached") == true)
        }
    }
}
