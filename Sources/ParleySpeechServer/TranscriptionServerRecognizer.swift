import Foundation
import ParleyBasics
import ParleyHTTP
import ParleyJSON
import ParleySpeech

/// Speech in from any server that speaks OpenAI's `/v1/audio/transcriptions` (whisper.cpp's server,
/// faster-whisper servers, OpenAI), over Parley's HTTP client.
///
/// Each line is one `POST {baseURL}/audio/transcriptions`, `multipart/form-data` with the line as `file`
/// (`line.wav`, 16 kHz mono 16-bit PCM), `model`, `response_format` `verbose_json`, the vocabulary's `language`, and
/// as `prompt` the pack's names (items, NPCs), which Whisper-style models take as a hint for spelling and words. The
/// answer's `text` is the line; its confidence is the mean over `segments` of `exp(avg_logprob)`, each weighted by
/// `1 - no_speech_prob`, or `nil` when the server sends no segments (a plain `{"text"}` answer): such a line is
/// answered, but cannot make the NPC act unless the acting bar is 0 (`HeardSpeech.mayAct`).
///
/// ```swift
/// let server = try TranscriptionServerRecognizer(
///     configuration: .init(baseURL: "http://127.0.0.1:8178/v1", model: "whisper-1"))
/// let heard = try await server.recognize(audio, vocabulary: SpeechVocabulary(world: pack.world))
/// ```
///
/// Failures are `ListeningError`s naming the URL, never the API key: `serverUnreachable`, `serverTimedOut`,
/// `serverFailed` (with the start of the body the server sent, the key removed) and `notATranscription`.
public struct TranscriptionServerRecognizer: SpeechRecognizer {
    /// Where the server is and how to ask it.
    public struct Configuration: Sendable {
        /// The server's base URL up to and including `/v1`, for example `http://127.0.0.1:8178/v1`.
        public var baseURL: String
        /// The `model` of every request, for example `whisper-1`.
        public var model: String
        /// The API key, sent as `Authorization: Bearer`; `nil` for none.
        public var apiKey: String?
        /// The longest one line may take, connection included.
        public var timeout: Duration
        /// The longest the connection may take to be established.
        public var connectTimeout: Duration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: The server's base URL, with `/v1`.
        ///   - model: The model to ask for.
        ///   - apiKey: The API key, or `nil`.
        ///   - timeout: The longest one line may take (60 seconds by default).
        ///   - connectTimeout: The longest the connection may take (10 seconds by default).
        public init(
            baseURL: String, model: String, apiKey: String? = nil, timeout: Duration = .seconds(60),
            connectTimeout: Duration = .seconds(10)
        ) {
            var baseURL = baseURL
            while baseURL.hasSuffix("/") { baseURL.removeLast() }
            self.baseURL = baseURL
            self.model = model
            self.apiKey = apiKey
            self.timeout = timeout
            self.connectTimeout = connectTimeout
        }

        /// The URL lines are POSTed to: `baseURL` and `/audio/transcriptions`.
        public var transcriptionsURL: String { baseURL + "/audio/transcriptions" }
    }

    /// How many names at most go into the `prompt` (Whisper reads the last 224 tokens of a prompt).
    public static let promptNames = 60

    /// Where the server is and how to ask it.
    public let configuration: Configuration
    private let client: HTTPClient

    /// Creates a recogniser; nothing is sent until the first line.
    ///
    /// - Parameters:
    ///   - configuration: The server and how to ask it.
    ///   - client: The HTTP client to share, or `nil` for one of its own.
    /// - Throws: `HTTPClientError` when libcurl cannot be initialized.
    public init(configuration: Configuration, client: HTTPClient? = nil) throws {
        self.configuration = configuration
        self.client = try client ?? HTTPClient()
    }

    /// A Whisper-style model's confidences run higher than pocketsphinx's: 0.4.
    public var minimumConfidence: Double { 0.4 }

    /// A line the NPC acts on (an offer, a gift, an action) must be heard more surely: 0.6. Not measured (no
    /// Whisper-style server runs where Parley is benchmarked): set `parley serve --listen-act-confidence` from your
    /// server's confidences.
    public var minimumActingConfidence: Double { 0.6 }

    /// Recognises a line with the server (see the type's documentation).
    ///
    /// - Parameters:
    ///   - audio: The recording; sent at 16 kHz.
    ///   - vocabulary: Its language and names go with the request.
    /// - Returns: What the server heard.
    /// - Throws: `ListeningError`.
    public func recognize(_ audio: SpeechAudio, vocabulary: SpeechVocabulary) async throws -> RecognizedSpeech {
        let url = configuration.transcriptionsURL
        let boundary = "parley-" + UUID().uuidString
        let prompt = vocabulary.names.prefix(Self.promptNames).joined(separator: ", ")
        let body = Self.multipart(
            boundary: boundary,
            fields: [
                ("model", configuration.model), ("response_format", "verbose_json"),
                ("language", vocabulary.language), ("prompt", prompt),
            ],
            file: (name: "file", filename: "line.wav", type: "audio/wav",
                bytes: audio.resampled(to: SpeechAudio.recognitionRate).wav))
        var headers: HTTPHeaders = [:]
        headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        headers.add(name: "Accept", value: "application/json")
        if let key = configuration.apiKey { headers.add(name: "Authorization", value: "Bearer \(key)") }
        let request = HTTPRequest(
            method: .post, url: url, headers: headers, body: body, connectTimeout: configuration.connectTimeout,
            timeout: configuration.timeout)
        let response: HTTPResponse
        do {
            response = try await client.execute(request, maximumBodySize: 1 << 20).checkStatus()
        } catch let error as HTTPStatusError {
            throw ListeningError.serverFailed(
                url: error.url, status: error.status, body: SpeechServerSynthesizer.excerpt(error.bodyText))
        } catch let error as HTTPClientError where error.isTimeout {
            throw ListeningError.serverTimedOut(url: request.redactedURL, reason: error.description)
        } catch let error as HTTPClientError where error == .cancelled {
            throw CancellationError()
        } catch let error as HTTPClientError {
            throw ListeningError.serverUnreachable(url: request.redactedURL, reason: error.description)
        }
        return try Self.transcription(Array(response.body), url: response.url)
    }

    /// Reads a server's answer: `{"text", "segments": [{"avg_logprob", "no_speech_prob"}]}`.
    static func transcription(_ bytes: [UInt8], url: String) throws -> RecognizedSpeech {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            let start = String(decoding: bytes.prefix(80), as: UTF8.self)
            throw ListeningError.notATranscription(
                url: url, reason: "it is not JSON; it starts \(SpeechServerSynthesizer.excerpt(start).debugDescription)")
        }
        guard let text = json["text"]?.stringValue else {
            throw ListeningError.notATranscription(url: url, reason: "it has no \"text\"")
        }
        let segments = json["segments"]?.arrayValue ?? []
        let scores = segments.compactMap { segment -> Double? in
            guard let logprob = segment["avg_logprob"]?.doubleValue, logprob.isFinite else { return nil }
            let speech = 1 - min(max(segment["no_speech_prob"]?.doubleValue ?? 0, 0), 1)
            return min(max(exp(logprob), 0), 1) * speech
        }
        let confidence = scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
        let cleaned = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return RecognizedSpeech(text: cleaned, confidence: confidence)
    }

    /// A `multipart/form-data` body (RFC 7578): text fields, then one file.
    static func multipart(
        boundary: String, fields: [(String, String)],
        file: (name: String, filename: String, type: String, bytes: [UInt8])
    ) -> Data {
        var body = Data()
        for (name, value) in fields {
            body.append(contentsOf: Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
            body.append(contentsOf: Array(value.utf8))
            body.append(contentsOf: Array("\r\n".utf8))
        }
        body.append(
            contentsOf: Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\""
                    + "\r\nContent-Type: \(file.type)\r\n\r\n").utf8))
        body.append(contentsOf: file.bytes)
        body.append(contentsOf: Array("\r\n--\(boundary)--\r\n".utf8))
        return body
    }
}
