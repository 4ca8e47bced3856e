import Foundation
import LanguageModels
import ParleyAPI
import ParleyHTTP
import ParleyJSON
import ParleySpeech
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

/// A synthesiser that always fails, as a speech server that is down does.
struct FailingSynthesizer: SpeechSynthesizer {
    func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        throw SpeechError.serverUnreachable(url: "http://127.0.0.1:9/v1/audio/speech", reason: "connection refused")
    }
}

/// `parley serve` with speech: each `speechEnded` event names its line's WAV (`GET /v1/games/{id}/audio/{eventId}`)
/// and carries its visemes; without speech, nothing of it.
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
            for line in ["talk to mira", "hello", "how much is the rope?"] {
                for event in Self.spokenLines(try await fixture.say(game, line)) {
                    audio.append(try #require(event["audio"]?.stringValue))
                    // The event's visemes are the synthesiser's: one, over the whole line.
                    let visemes = try Self.visemes(of: event)
                    let text = try #require(event["text"]?.stringValue)
                    #expect(visemes.count == 1)
                    #expect(visemes.first?.0 == "aa")
                    #expect(visemes.first?.2 == Double(text.count) / 100)
                }
            }
            #expect(audio.count >= 3, "\(audio)")
            #expect(Set(audio).count == audio.count)
            for (index, path) in audio.enumerated() {
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
