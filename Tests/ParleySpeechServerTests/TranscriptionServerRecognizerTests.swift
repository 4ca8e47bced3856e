import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleySpeech
import ParleySpeechServer
import Testing

/// A second of a tone at 22,050 Hz, as espeak-ng's lines come: the recogniser sends it at 16 kHz.
private let line = SpeechAudio(
    samples: (0..<22_050).map { Int16(6_000 * sin(2 * Double.pi * 300 * Double($0) / 22_050)) }, sampleRate: 22_050)
private let vocabulary = SpeechVocabulary(
    language: "en", sentences: ["how much is the lantern"], names: ["Brass Lantern", "Mira Quickcoin"])

private func recognizer(_ server: LoopbackHTTPServer, key: String? = nil, timeout: Duration = .seconds(30)) throws
    -> TranscriptionServerRecognizer
{
    try TranscriptionServerRecognizer(
        configuration: .init(baseURL: server.url("/v1/"), model: "whisper-1", apiKey: key, timeout: timeout))
}

/// The parts of a `multipart/form-data` body, by name: their headers' text and their bytes.
private func parts(of body: Data, boundary: String) -> [String: (headers: String, bytes: [UInt8])] {
    let bytes = Array(body)
    let delimiter = Array("--\(boundary)".utf8)
    var starts: [Int] = []
    var index = 0
    while index + delimiter.count <= bytes.count {
        if Array(bytes[index..<index + delimiter.count]) == delimiter {
            starts.append(index)
            index += delimiter.count
        } else {
            index += 1
        }
    }
    var parts: [String: (String, [UInt8])] = [:]
    for (start, end) in zip(starts, starts.dropFirst()) {
        let part = Array(bytes[(start + delimiter.count + 2)..<(end - 2)])  // After CRLF; before CRLF--.
        guard let split = (0..<part.count - 3).first(where: { Array(part[$0..<$0 + 4]) == Array("\r\n\r\n".utf8) })
        else { continue }
        let headers = String(decoding: part[..<split], as: UTF8.self)
        guard let name = headers.firstRange(of: "name=\"").map({ headers[$0.upperBound...].prefix { $0 != "\"" } })
        else { continue }
        parts[String(name)] = (headers, Array(part[(split + 4)...]))
    }
    return parts
}

struct TranscriptionServerRecognizerTests {
    @Test func theLineGoesAsMultipartWithTheNamesAndTheAnswerIsRead() async throws {
        let server = try LoopbackHTTPServer(
            .json(
                #"{"text": " How much is the lantern? ", "segments": [{"avg_logprob": -0.2, "no_speech_prob": 0.1},"#
                    + #" {"avg_logprob": -0.4, "no_speech_prob": 0.0}]}"#))
        defer { server.stop() }
        let heard = try await recognizer(server, key: "sk-secret").recognize(line, vocabulary: vocabulary)
        #expect(heard.text == "How much is the lantern?")
        let expected = (exp(-0.2) * 0.9 + exp(-0.4)) / 2
        #expect(abs((heard.confidence ?? 0) - expected) < 1e-9, "\(heard)")

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/audio/transcriptions")
        #expect(request.header("Authorization") == "Bearer sk-secret")
        let type = try #require(request.header("Content-Type"))
        #expect(type.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(type.dropFirst("multipart/form-data; boundary=".count))
        let fields = parts(of: request.body, boundary: boundary)
        func text(_ name: String) -> String? { fields[name].map { String(decoding: $0.bytes, as: UTF8.self) } }
        #expect(text("model") == "whisper-1")
        #expect(text("response_format") == "verbose_json")
        #expect(text("language") == "en")
        #expect(text("prompt") == "Brass Lantern, Mira Quickcoin")
        let file = try #require(fields["file"])
        #expect(file.headers.contains("filename=\"line.wav\""))
        #expect(file.headers.contains("Content-Type: audio/wav"))
        let wav = try WAVFile.decode(file.bytes)
        #expect(wav.header.sampleRate == 16_000)
        #expect(wav.header.channels == 1)
        #expect(abs(wav.samples.count - 16_000) <= 1)
    }

    @Test func aPlainAnswerHasNoConfidenceAndIsTakenAsHeard() async throws {
        let server = try LoopbackHTTPServer(.json(#"{"text": "hello mira"}"#))
        defer { server.stop() }
        let heard = try await recognizer(server).recognize(line, vocabulary: vocabulary)
        #expect(heard.text == "hello mira")
        #expect(heard.confidence == nil)
        #expect(heard.isClear(minimum: 0.4))
    }

    @Test func anErrorStatusQuotesTheBodyWithoutTheKey() async throws {
        let server = try LoopbackHTTPServer(.json(#"{"error": {"message": "no model; key sk-secret"}}"#, status: 404))
        defer { server.stop() }
        await #expect {
            _ = try await recognizer(server, key: "sk-secret").recognize(line, vocabulary: vocabulary)
        } throws: { error in
            guard case .serverFailed(let url, 404, let body) = error as? ListeningError else { return false }
            return url.hasSuffix("/v1/audio/transcriptions") && body.contains("no model")
                && !"\(error)".contains("sk-secret")
        }
    }

    @Test func anAnswerThatIsNotATranscriptionSaysSo() async throws {
        for body in [#"<html>nope</html>"#, #"{"result": "hello"}"#] {
            let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: Data(body.utf8)))
            defer { server.stop() }
            await #expect {
                _ = try await recognizer(server).recognize(line, vocabulary: vocabulary)
            } throws: { error in
                guard case .notATranscription = error as? ListeningError else { return false }
                return "\(error)".contains("did not answer with a transcription")
            }
        }
    }

    @Test func aServerThatIsDownOrHangsIsAClearError() async throws {
        let closed = try LoopbackHTTPServer(.close)
        let url = closed.url("/v1")
        closed.stop()
        let down = try TranscriptionServerRecognizer(configuration: .init(baseURL: url, model: "whisper-1"))
        await #expect {
            _ = try await down.recognize(line, vocabulary: vocabulary)
        } throws: { error in
            guard case .serverUnreachable = error as? ListeningError else { return false }
            return "\(error)".contains("could not be reached")
        }
        let hanging = try LoopbackHTTPServer(.hang)
        defer { hanging.stop() }
        await #expect {
            _ = try await recognizer(hanging, timeout: .milliseconds(300)).recognize(line, vocabulary: vocabulary)
        } throws: { error in
            guard case .serverTimedOut = error as? ListeningError else { return false }
            return "\(error)".contains("took too long")
        }
    }
}
