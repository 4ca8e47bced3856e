import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleySpeech
import ParleySpeechServer
import Testing

/// A short sine as a WAV file, as a speech server would send it: 0.25 s of 440 Hz at 24,000 Hz.
private let sine: [Int16] = (0..<6_000).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 24_000)) }
private let sineWAV = Data(WAVFile.encode(samples: sine, sampleRate: 24_000))

private func synthesizer(
    _ server: LoopbackHTTPServer, key: String? = nil, timeout: Duration = .seconds(30)
)
    throws -> SpeechServerSynthesizer
{
    try SpeechServerSynthesizer(
        configuration: .init(
            baseURL: server.url("/v1/"), model: "kokoro", voice: nil, apiKey: key, timeout: timeout))
}

struct SpeechServerSynthesizerTests {
    @Test func aServersWAVIsDecodedAndTheRequestIsOpenAIs() async throws {
        let server = try LoopbackHTTPServer(
            .respond(status: 200, headers: [("Content-Type", "audio/wav")], body: sineWAV))
        defer { server.stop() }
        let speech = try await synthesizer(server, key: "sk-secret")
            .synthesize("A lantern costs twelve gold.", voice: SpeechVoice(voice: "af_bella"))
        #expect(speech.samples == sine)
        #expect(speech.sampleRate == 24_000)
        #expect(speech.duration == .milliseconds(250))
        #expect(speech.visemes.isEmpty)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/audio/speech")
        #expect(request.header("Authorization") == "Bearer sk-secret")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
        #expect(
            body == [
                "model": "kokoro", "input": "A lantern costs twelve gold.", "voice": "af_bella",
                "response_format": "wav",
            ])
    }

    @Test func theConfiguredVoiceReplacesTheNPCs() async throws {
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: sineWAV))
        defer { server.stop() }
        let speaker = try SpeechServerSynthesizer(
            configuration: .init(baseURL: server.url("/v1"), model: "tts-1", voice: "alloy"))
        _ = try await speaker.synthesize("Hello.", voice: SpeechVoice(voice: "en-gb"))
        let request = try #require(server.requests.first)
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
        #expect(body["voice"] == "alloy")
    }

    @Test func stereoIsMixedDownToMono() async throws {
        let stereo = WAVFile.encode(samples: [100, 300, -200, -400], sampleRate: 16_000)
        // Rewrite the header's channels (2) and block alignment (4): two frames of two samples.
        var bytes = stereo
        bytes[22] = 2
        bytes[32] = 4
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: Data(bytes)))
        defer { server.stop() }
        let speech = try await synthesizer(server).synthesize("Hi.", voice: .default)
        #expect(speech.samples == [200, -300])
    }

    @Test(arguments: [0xFF, 0x00])
    func aStreamedWAVWhoseSizesAreUnknownIsReadToItsEnd(unknown: UInt8) async throws {
        // As a server that streams its WAV writes it: the RIFF and data sizes 0xFFFFFFFF (or 0), not the lengths.
        var bytes = Array(sineWAV)
        for offset in [4, 5, 6, 7, 40, 41, 42, 43] { bytes[offset] = unknown }
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: Data(bytes)))
        defer { server.stop() }
        let speech = try await synthesizer(server).synthesize("Hi.", voice: .default)
        #expect(speech.samples == sine)
    }

    @Test func anErrorStatusQuotesTheBodyWithoutTheKey() async throws {
        let server = try LoopbackHTTPServer(
            .json(#"{"error": {"message": "voice 'en' not found; key sk-secret"}}"#, status: 500))
        defer { server.stop() }
        do {
            _ = try await synthesizer(server, key: "sk-secret").synthesize("Hi.", voice: .default)
            Issue.record("no error")
        } catch let error as SpeechError {
            guard case .serverFailed(let url, let status, let body) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(status == 500)
            #expect(url.hasSuffix("/v1/audio/speech"))
            #expect(body.contains("voice 'en' not found"))
            #expect(!"\(error)".contains("sk-secret"), "\(error)")
            #expect("\(error)".contains("HTTP 500"))
        }
    }

    @Test func anAnswerThatIsNotAWAVSaysSo() async throws {
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: Data("ID3\u{3}MP3 frames".utf8)))
        defer { server.stop() }
        await #expect {
            _ = try await synthesizer(server).synthesize("Hi.", voice: .default)
        } throws: { error in
            guard case .notWAV(_, let reason) = error as? SpeechError else { return false }
            return reason.contains("ID3") && "\(error)".contains("response_format")
        }
    }

    @Test func aServerThatIsDownIsUnreachable() async throws {
        let server = try LoopbackHTTPServer(.close)
        let url = server.url("/v1")
        server.stop()  // Nothing listens on its port any more.
        let speaker = try SpeechServerSynthesizer(configuration: .init(baseURL: url, model: "kokoro"))
        await #expect {
            _ = try await speaker.synthesize("Hi.", voice: .default)
        } throws: { error in
            guard case .serverUnreachable(let failing, _) = error as? SpeechError else { return false }
            return failing.hasSuffix("/v1/audio/speech") && "\(error)".contains("could not be reached")
        }
    }

    @Test func aServerThatHangsTimesOut() async throws {
        let server = try LoopbackHTTPServer(.hang)
        defer { server.stop() }
        await #expect {
            _ = try await synthesizer(server, timeout: .milliseconds(300)).synthesize("Hi.", voice: .default)
        } throws: { error in
            guard case .serverTimedOut = error as? SpeechError else { return false }
            return "\(error)".contains("took too long")
        }
    }
}
