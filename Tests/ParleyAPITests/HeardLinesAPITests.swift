import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import LanguageModels
import ParleyAPI
import ParleyEngine
import ParleyHTTP
import ParleyJSON
import ParleyServer
import ParleySpeech
import SaveGames
import ScriptedModel
import Synchronization
import Testing

/// A recogniser that hears what it is told to, whatever the audio, and counts the lines it was given.
final class FixedRecognizer: SpeechRecognizer {
    let heard: Result<RecognizedSpeech, ListeningError>
    let lines = Mutex(0)

    init(_ heard: Result<RecognizedSpeech, ListeningError>) {
        self.heard = heard
    }

    func recognize(_ audio: SpeechAudio, vocabulary: SpeechVocabulary) async throws -> RecognizedSpeech {
        lines.withLock { $0 += 1 }
        return try heard.get()
    }
}

/// Whether pocketsphinx's tests run here: when its library and model load, or when `PARLEY_SPEECH_TESTS=1` demands
/// them (they then fail without it instead of being skipped).
enum PocketSphinxAPITests {
    static var enabled: Bool {
        (dlopen(PocketSphinxRecognizer.defaultLibrary, RTLD_LAZY) != nil && ESpeakAPITests.installed)
            || ESpeakAPITests.required
    }
    static let howToEnable =
        "needs pocketsphinx, pocketsphinx-en-us and espeak-ng: run scripts/install-deps --speech (or scripts/test)"
}

/// Speech in over HTTP: `POST /v1/games/{id}/npcs/{npc}/say` with `audio/wav`. A `heard` event first; a clear line
/// answered as a typed one, with the speech in its recording; an unclear one asked again, nothing else done.
@Suite(.timeLimit(.minutes(10))) struct HeardLinesAPITests {
    typealias Fixture = ActionAPITests.Fixture

    static func withFixture(_ listening: APIListening?, _ body: (Fixture) async throws -> Void) async throws {
        try await ActionAPITests.withFixture(listening: listening, body)
    }

    /// Half a second of a quiet tone: the fixed recognisers ignore what it says.
    static let anyLine = WAVFile.encode(
        samples: (0..<8_000).map { Int16(2_000 * sin(Double($0) / 6)) }, sampleRate: 16_000)

    static func events(_ json: JSONValue) -> [JSONValue] { json["events"]?.arrayValue ?? [] }

    @Test func aClearLineIsAnsweredAsATypedOneAfterAHeardEvent() async throws {
        let recognizer = FixedRecognizer(.success(RecognizedSpeech(text: "how much is the lantern", confidence: 0.8)))
        try await Self.withFixture(APIListening(recognizer: recognizer, name: "fixed")) { fixture in
            let game = try await fixture.newGame()
            let (status, json) = try await fixture.say(game, wav: Self.anyLine)
            #expect(status == 200, "\(json)")
            let events = Self.events(json)
            let heard = try #require(events.first)
            #expect(heard["type"] == "heard")
            #expect(heard["npc"]?["id"] == "mira")
            #expect(heard["text"] == "how much is the lantern")
            #expect(heard["confidence"]?.doubleValue == 0.8)
            #expect(heard["understood"] == true)
            // Heard at 0.8, the acting bar of a recogniser that gives none of its own: it could act.
            #expect(heard["mayAct"] == true)
            let line = try #require(events.last { $0["type"] == "speechEnded" })
            #expect(line["text"]?.stringValue?.contains("25") == true, "\(line)")
            #expect(recognizer.lines.withLock { $0 } == 1)
            // docs/openapi.json describes the event.
            let document = try OpenAPITests.document()
            let schema = try OpenAPITests.schema(["$ref": "#/components/schemas/Event"], in: document)
            #expect(schema.validate(try GeneratedContent(json: heard.jsonString())).isEmpty)
        }
    }

    @Test func anUnclearLineIsAskedAgainAndNothingElseHappens() async throws {
        let recognizer = FixedRecognizer(.success(RecognizedSpeech(text: "buy thirteen", confidence: 0.03)))
        try await Self.withFixture(APIListening(recognizer: recognizer, name: "fixed")) { fixture in
            let game = try await fixture.newGame()
            let before = try await fixture.transcriptCount(game)
            let (status, json) = try await fixture.say(game, wav: Self.anyLine)
            #expect(status == 200)
            let types = Self.events(json).compactMap { $0["type"]?.stringValue }
            #expect(types == ["heard", "speechBegan", "speech", "speechEnded"], "\(json)")
            #expect(Self.events(json).first?["understood"] == false)
            #expect(Self.events(json).first?["mayAct"] == false)
            #expect(
                Self.events(json).last?["text"]?.stringValue
                    == Lexicon.english.text(.askAgain))
            #expect(try await fixture.transcriptCount(game) == before, "an unclear line is not said to the NPC")
        }
    }

    @Test func theThresholdIsTheConfigurations() async throws {
        let recognizer = FixedRecognizer(.success(RecognizedSpeech(text: "how much is the lantern", confidence: 0.3)))
        try await Self.withFixture(APIListening(recognizer: recognizer, name: "fixed", minimumConfidence: 0.9)) {
            fixture in
            let (_, json) = try await fixture.say(try await fixture.newGame(), wav: Self.anyLine)
            #expect(Self.events(json).first?["understood"] == false)
        }
        try await Self.withFixture(APIListening(recognizer: recognizer, name: "fixed", minimumConfidence: 0.2)) {
            fixture in
            let (_, json) = try await fixture.say(try await fixture.newGame(), wav: Self.anyLine)
            #expect(Self.events(json).first?["understood"] == true)
        }
    }

    /// Speech in with a recogniser that hears `text` at `confidence`, answered from 0.2 and acted on from 0.5.
    static func barred(_ text: String, at confidence: Double) -> APIListening {
        APIListening(
            recognizer: FixedRecognizer(.success(RecognizedSpeech(text: text, confidence: confidence))), name: "fixed",
            minimumConfidence: 0.2, minimumActingConfidence: 0.5)
    }

    @Test func aLineBelowTheActingBarIsAnsweredButOffersNothing() async throws {
        try await Self.withFixture(Self.barred("sell me some rope", at: 0.3)) { fixture in
            let game = try await fixture.newGame()
            let (_, before) = try await fixture.call(.get, "/v1/games/\(game)")
            let (status, json) = try await fixture.say(game, wav: Self.anyLine)
            #expect(status == 200, "\(json)")
            let events = Self.events(json)
            let heard = try #require(events.first)
            #expect(heard["understood"] == true)
            #expect(heard["mayAct"] == false)
            // No offer: the one the NPC would have made is refused, saying why, and the NPC asks again.
            #expect(!events.contains { $0["type"] == "offer" }, "\(json)")
            let refused = try #require(events.first { $0["type"] == "offerRefused" }, "\(json)")
            #expect(refused["reasons"]?[0]?.stringValue?.contains("say it again") == true, "\(refused)")
            let line = try #require(events.last { $0["type"] == "speechEnded" })
            #expect(
                line["text"]?.stringValue
                    == Lexicon.english.text(.askAgainToAct, ["heard": "sell me some rope"]), "\(line)")
            // The game is as it was: no offer waits, the player has what they had.
            let (_, after) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(after?["offers"] == [])
            #expect(after?["player"] == before?["player"])
            // docs/openapi.json describes the event with its new field.
            let document = try OpenAPITests.document()
            let schema = try OpenAPITests.schema(["$ref": "#/components/schemas/Event"], in: document)
            #expect(schema.validate(try GeneratedContent(json: heard.jsonString())).isEmpty)
        }
    }

    @Test func theSameLineAboveTheActingBarMakesTheOffer() async throws {
        try await Self.withFixture(Self.barred("sell me some rope", at: 0.7)) { fixture in
            let game = try await fixture.newGame()
            let (status, json) = try await fixture.say(game, wav: Self.anyLine)
            #expect(status == 200, "\(json)")
            let events = Self.events(json)
            #expect(events.first?["mayAct"] == true)
            #expect(events.contains { $0["type"] == "offer" }, "\(json)")
            #expect(!events.contains { $0["type"] == "offerRefused" })
            let (_, state) = try await fixture.call(.get, "/v1/games/\(game)")
            #expect(state?["offers"]?.arrayValue?.count == 1, "\(String(describing: state))")
        }
    }

    @Test func theActingBarIsTheRecognisersOwnUnlessGiven() {
        let recognizer = FixedRecognizer(.success(RecognizedSpeech(text: "hello", confidence: 1)))
        #expect(APIListening(recognizer: recognizer, name: "fixed").minimumActingConfidence == 0.8)
        #expect(
            APIListening(recognizer: recognizer, name: "fixed", minimumActingConfidence: 0.3).minimumActingConfidence
                == 0.3)
        let pocketsphinx = APIListening(recognizer: PocketSphinxRecognizer(), name: "pocketsphinx")
        #expect(pocketsphinx.minimumActingConfidence == PocketSphinxRecognizer().minimumActingConfidence)
    }

    @Test func withoutListeningBadAudioAndAFailedRecogniserAreClearProblems() async throws {
        try await Self.withFixture(nil) { fixture in
            let (status, json) = try await fixture.say(try await fixture.newGame(), wav: Self.anyLine)
            #expect(status == 415)
            #expect(json["detail"]?.stringValue?.contains("--listen pocketsphinx") == true, "\(json)")
        }
        let recognizer = FixedRecognizer(.success(RecognizedSpeech(text: "hello", confidence: 1)))
        try await Self.withFixture(APIListening(recognizer: recognizer, name: "fixed")) { fixture in
            let game = try await fixture.newGame()
            let (status, json) = try await fixture.say(game, wav: Array("not a wav".utf8))
            #expect(status == 400)
            #expect(json["detail"]?.stringValue?.contains("not a WAV file") == true, "\(json)")
            #expect(recognizer.lines.withLock { $0 } == 0)
            // A typed line still works beside it.
            let (typed, _) = try await fixture.say(
                game, wav: Array(#"{"text": "hello"}"#.utf8), type: "application/json")
            #expect(typed == 200)
        }
        let failing = FixedRecognizer(.failure(.serverUnreachable(url: "http://127.0.0.1:9/v1", reason: "refused")))
        try await Self.withFixture(APIListening(recognizer: failing, name: "fixed")) { fixture in
            let game = try await fixture.newGame()
            let before = try await fixture.transcriptCount(game)
            let (status, json) = try await fixture.say(game, wav: Self.anyLine)
            #expect(status == 503)
            #expect(json["detail"]?.stringValue?.contains("could not be reached") == true, "\(json)")
            #expect(try await fixture.transcriptCount(game) == before)
        }
    }

    @Test(.enabled(if: PocketSphinxAPITests.enabled, Comment(rawValue: PocketSphinxAPITests.howToEnable)))
    func aSpokenPriceQuestionIsRecognisedAndAnsweredWithThePrice() async throws {
        let recognizer = PocketSphinxRecognizer()
        try await Self.withFixture(APIListening(recognizer: recognizer, name: "pocketsphinx")) { fixture in
            let game = try await fixture.newGame()
            let (status, json) = try await fixture.say(game, wav: try ESpeakCommand.wav("how much is the lantern"))
            #expect(status == 200, "\(json)")
            let heard = try #require(Self.events(json).first)
            #expect(heard["text"] == "how much is the lantern", "\(heard)")
            #expect(heard["understood"] == true, "\(heard)")
            let line = try #require(Self.events(json).last { $0["type"] == "speechEnded" })
            #expect(line["text"]?.stringValue?.contains("25") == true, "\(line)")
        }
    }
}

/// A spoken line's recording notes what was heard, and the note survives the recording's JSON.
@Suite struct HeardRecordingTests {
    @Test func theTurnsRecordingHoldsWhatWasHeard() async throws {
        let pack = try ContentPack.load(
            from: APIGamesTests.root.appendingPathComponent("Content"), displayPath: "Content"
        ).get()
        let game = Game(state: pack.initialState, models: { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) })
        let heard = HeardSpeech(text: "how much is the lantern", confidence: 0.42, recognizer: "pocketsphinx")
        await game.say(heard, to: NPCID("mira")) { _ in }
        let recording = try #require(await game.recordings.last)
        #expect(recording.heard == heard)
        let decoded = try TurnRecording(jsonValue: recording.jsonValue)
        #expect(decoded.heard == heard)
        #expect(recording.jsonValue["heard"]?["confidence"]?.doubleValue == 0.42)
        // A typed line has none.
        await game.say("thanks", to: NPCID("mira")) { _ in }
        #expect(await game.recordings.last?.heard == nil)
        #expect(await game.recordings.last?.jsonValue["heard"] == nil)
    }
}

extension ActionAPITests.Fixture {
    /// POSTs a body to an NPC's `say` (a WAV by default): the status and the answer's JSON.
    func say(_ game: String, to npc: String = "mira", wav: [UInt8], type: String = "audio/wav") async throws -> (
        Int, JSONValue
    ) {
        let response = try await client.execute(
            HTTPRequest(
                method: .post, url: server.baseURL + "/v1/games/\(game)/npcs/\(npc)/say",
                headers: ["Content-Type": type], body: Data(wav)))
        return (response.status, try JSONValue(parsing: Array(response.body)))
    }

    /// How many entries an NPC's transcript has.
    func transcriptCount(_ game: String, _ npc: String = "mira") async throws -> Int {
        let response = try await client.execute(.get(server.baseURL + "/v1/games/\(game)/transcript/\(npc)"))
        let json = try JSONValue(parsing: Array(response.body))
        return json["transcript"]?["entries"]?.arrayValue?.count ?? json["entries"]?.arrayValue?.count ?? 0
    }
}
