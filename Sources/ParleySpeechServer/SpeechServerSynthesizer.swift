import Foundation
import ParleyBasics
import ParleyHTTP
import ParleyJSON
import ParleySpeech

/// Speech from any server that speaks OpenAI's `/v1/audio/speech` (Kokoro, Piper and XTTS servers, OpenAI), over
/// Parley's HTTP client.
///
/// Each line is one `POST {baseURL}/audio/speech` with `{"model": ..., "input": text, "voice": ...,
/// "response_format": "wav"}`, and the WAV the server answers with is decoded (`WAVFile`; several channels are
/// mixed down to one; a streamed WAV's unknown sizes are taken as its length). A server reports no phonemes, so the speech has no `visemes` and no `events`: lip sync needs
/// espeak-ng (`ESpeakSynthesizer`).
///
/// ```swift
/// let server = SpeechServerSynthesizer(
///     configuration: .init(baseURL: "http://127.0.0.1:8880/v1", model: "kokoro", voice: "af_bella"))
/// let speech = try await server.synthesize("A lantern costs twelve gold.", voice: .default)
/// ```
///
/// Failures are `SpeechError`s naming the URL, never the API key: `serverUnreachable`, `serverTimedOut`,
/// `serverFailed` (with the start of the body the server sent, the key removed) and `notWAV`.
public struct SpeechServerSynthesizer: SpeechSynthesizer {
    /// Where the server is and how to ask it.
    public struct Configuration: Sendable {
        /// The server's base URL up to and including `/v1`, for example `http://127.0.0.1:8880/v1`.
        public var baseURL: String
        /// The `model` of every request, for example `tts-1`, `kokoro` or `piper`.
        public var model: String
        /// The `voice` of every request when set (`alloy`, `af_bella`); `nil` sends each NPC's `SpeechVoice.voice`.
        public var voice: String?
        /// The API key, sent as `Authorization: Bearer`; `nil` for none.
        public var apiKey: String?
        /// The longest one line may take, connection included.
        public var timeout: Duration
        /// The longest the connection may take to be established.
        public var connectTimeout: Duration
        /// The largest WAV accepted, in bytes.
        public var maximumBytes: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: The server's base URL, with `/v1`.
        ///   - model: The model to ask for.
        ///   - voice: The voice of every line, or `nil` for each NPC's.
        ///   - apiKey: The API key, or `nil`.
        ///   - timeout: The longest one line may take (60 seconds by default).
        ///   - connectTimeout: The longest the connection may take (10 seconds by default).
        ///   - maximumBytes: The largest WAV accepted (64 MiB by default).
        public init(
            baseURL: String, model: String, voice: String? = nil, apiKey: String? = nil,
            timeout: Duration = .seconds(60), connectTimeout: Duration = .seconds(10), maximumBytes: Int = 64 << 20
        ) {
            var baseURL = baseURL
            while baseURL.hasSuffix("/") { baseURL.removeLast() }
            self.baseURL = baseURL
            self.model = model
            self.voice = voice
            self.apiKey = apiKey
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maximumBytes = maximumBytes
        }

        /// The URL lines are POSTed to: `baseURL` and `/audio/speech`.
        public var speechURL: String { baseURL + "/audio/speech" }
    }

    /// Where the server is and how to ask it.
    public let configuration: Configuration
    private let client: HTTPClient

    /// Creates a synthesiser; nothing is sent until the first line.
    ///
    /// - Parameters:
    ///   - configuration: The server and how to ask it.
    ///   - client: The HTTP client to share, or `nil` for one of its own.
    /// - Throws: `HTTPClientError` when libcurl cannot be initialized.
    public init(configuration: Configuration, client: HTTPClient? = nil) throws {
        self.configuration = configuration
        self.client = try client ?? HTTPClient()
    }

    /// Speaks `text` with the server (see the type's documentation).
    ///
    /// - Parameters:
    ///   - text: The line, plain text.
    ///   - voice: The NPC's voice; its `voice` is sent unless the configuration names one.
    /// - Returns: The audio at the server's sample rate, mono, without visemes.
    /// - Throws: `SpeechError`.
    public func synthesize(_ text: String, voice: SpeechVoice) async throws -> SynthesizedSpeech {
        let url = configuration.speechURL
        let body = JSONValue.object(
            JSONObject([
                ("model", .string(configuration.model)), ("input", .string(text)),
                ("voice", .string(configuration.voice ?? voice.voice)), ("response_format", .string("wav")),
            ]))
        var headers: HTTPHeaders = [:]
        if let key = configuration.apiKey { headers.add(name: "Authorization", value: "Bearer \(key)") }
        var request = HTTPRequest.postJSON(
            url, body: Data(body.jsonString().utf8), headers: headers, accept: "audio/wav")
        request.timeout = configuration.timeout
        request.connectTimeout = configuration.connectTimeout
        let response: HTTPResponse
        do {
            response = try await client.execute(request, maximumBodySize: configuration.maximumBytes).checkStatus()
        } catch let error as HTTPStatusError {
            throw SpeechError.serverFailed(url: error.url, status: error.status, body: Self.excerpt(error.bodyText))
        } catch let error as HTTPClientError where error.isTimeout {
            throw SpeechError.serverTimedOut(url: request.redactedURL, reason: error.description)
        } catch let error as HTTPClientError where error == .cancelled {
            throw CancellationError()
        } catch let error as HTTPClientError {
            throw SpeechError.serverUnreachable(url: request.redactedURL, reason: error.description)
        }
        return try Self.speech(fromWAV: Array(response.body), url: response.url)
    }

    /// Decodes a server's WAV into speech: 16-bit PCM, its channels mixed down to one.
    static func speech(fromWAV bytes: [UInt8], url: String) throws -> SynthesizedSpeech {
        let decoded: (header: WAVFile.Header, samples: [Int16])
        do {
            decoded = try WAVFile.decode(withSizesOfItsLength(bytes))
        } catch {
            let start = String(decoding: bytes.prefix(80), as: UTF8.self)
            throw SpeechError.notWAV(url: url, reason: "\(error); it starts \(Self.excerpt(start).debugDescription)")
        }
        let channels = max(1, decoded.header.channels)
        guard decoded.header.sampleRate > 0 else {
            throw SpeechError.notWAV(url: url, reason: "its sample rate is 0")
        }
        guard channels > 1 else {
            return SynthesizedSpeech(samples: decoded.samples, sampleRate: decoded.header.sampleRate)
        }
        let mono = stride(from: 0, to: decoded.samples.count - channels + 1, by: channels).map { frame in
            Int16(decoded.samples[frame..<frame + channels].reduce(0) { $0 + Int($1) } / channels)
        }
        return SynthesizedSpeech(samples: mono, sampleRate: decoded.header.sampleRate)
    }

    /// A WAV whose `RIFF` or `data` size runs past its end, as servers that stream their WAV write it (`0xFFFFFFFF`,
    /// or 0, before they know the length), with those sizes made the bytes it has; any other bytes as they are.
    static func withSizesOfItsLength(_ bytes: [UInt8]) -> [UInt8] {
        func tag(_ offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        func size(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { return bytes }
        var repaired = bytes
        func write(_ value: Int, at offset: Int) {
            for index in 0..<4 { repaired[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        if size(4) + 8 != bytes.count { write(bytes.count - 8, at: 4) }
        var offset = 12
        while offset + 8 <= bytes.count {
            let body = offset + 8
            if tag(offset) == "data" {
                if body + size(offset + 4) > bytes.count || size(offset + 4) == 0 {
                    write(bytes.count - body, at: offset + 4)
                }
                break
            }
            offset = body + size(offset + 4) + size(offset + 4) % 2
        }
        return repaired
    }

    /// The start of what a server said, one line, bearer tokens removed.
    static func excerpt(_ text: String) -> String {
        let line = text.redactingBearerTokens().split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}
