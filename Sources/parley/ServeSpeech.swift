import CommandLineKit
import Foundation
import ParleyAPI
import ParleySpeech
import ParleySpeechServer

/// `parley serve --speech espeak`, `--speech-model URL[#MODEL]`, `--speech-voice NAME`: the NPCs' lines spoken
/// sentence by sentence, each `speech` event that ends a sentence and each `speechEnded` event with its `audio` and
/// `visemes` (docs/api.md, "Speech"). Off unless asked for. `parley play --speak` uses the same options.
enum ServeSpeech {
    /// `--speech espeak`: lines spoken offline with espeak-ng.
    static let speechOption = Option.value(
        "speech", valueName: "ENGINE",
        type: ValueType(
            requirement: "espeak", example: "espeak", read: { $0 == "espeak" ? $0 : nil }, format: { $0 }),
        help: "Speak the NPCs' lines with espeak-ng (espeak), sentence by sentence: speech events get audio and"
            + " visemes.")

    /// `--speech-model URL[#MODEL]`: lines spoken by an OpenAI-compatible speech server.
    static let speechModelOption = Option.value(
        "speech-model", valueName: "URL",
        type: .nonEmptyString(example: "http://127.0.0.1:8880/v1#kokoro"),
        help: "Speak the NPCs' lines with an OpenAI-compatible speech server (/v1/audio/speech), its model after #"
            + " (tts-1 when none); its API key from OPENAI_API_KEY.")

    /// `--speech-voice NAME`: the speech server's voice for every NPC.
    static let speechVoiceOption = Option.value(
        "speech-voice", valueName: "NAME", type: .nonEmptyString(example: "af_bella"),
        help: "The speech server's voice for every NPC (with --speech-model); each NPC's espeak-ng voice otherwise.")

    /// The options, for `serve`'s list.
    static let options = [speechOption.option, speechModelOption.option, speechVoiceOption.option]

    /// The speech the options ask for, checked: `nil` when none; espeak-ng is loaded to see that it is there.
    ///
    /// - Throws: `UsageError` when the options contradict each other, the URL is not one, or espeak-ng is missing.
    static func speech(_ context: CommandContext) async throws -> APISpeech? {
        let engine = try context.value(of: speechOption)
        let model = try context.value(of: speechModelOption)
        let voice = try context.value(of: speechVoiceOption)
        switch (engine, model) {
        case (nil, nil):
            if voice != nil { throw UsageError("--speech-voice needs --speech-model URL") }
            return nil
        case (_?, _?):
            throw UsageError("give --speech espeak or --speech-model URL, not both")
        case (_?, nil):
            if voice != nil {
                throw UsageError("--speech-voice is for --speech-model; espeak-ng uses each NPC's voice")
            }
            let synthesizer = ESpeakSynthesizer()
            if let problem = await synthesizer.unavailability() { throw UsageError("--speech espeak: \(problem)") }
            return APISpeech(synthesizer: synthesizer)
        case (nil, let specification?):
            let configuration = try serverConfiguration(specification, voice: voice)
            return APISpeech(synthesizer: try SpeechServerSynthesizer(configuration: configuration))
        }
    }

    /// A speech server's configuration from `URL[#MODEL]`: an `http` or `https` URL with a host.
    static func serverConfiguration(
        _ specification: String, voice: String?
    ) throws
        -> SpeechServerSynthesizer
        .Configuration
    {
        let server = try AudioServer(
            specification, option: "--speech-model", kind: "speech server", defaultModel: "tts-1",
            example: "http://127.0.0.1:8880/v1#kokoro")
        return .init(baseURL: server.url, model: server.model, voice: voice, apiKey: server.apiKey)
    }
}

/// An audio server named on the command line as `URL[#MODEL]` (`--speech-model`, `--listen-model`): its base URL,
/// its model (after `#`, or the option's default), and the API key from `OPENAI_API_KEY`.
struct AudioServer {
    /// The base URL, with `/v1`.
    let url: String
    /// The model to ask for.
    let model: String
    /// `OPENAI_API_KEY`, unless unset or empty.
    let apiKey: String?

    /// Reads `URL[#MODEL]`.
    ///
    /// - Throws: `UsageError` naming the option and an example when the URL is not an `http` or `https` URL with a
    ///   host.
    init(_ specification: String, option: String, kind: String, defaultModel: String, example: String) throws {
        let parts = specification.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let url = String(parts[0])
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme ?? ""),
            components.host?.isEmpty == false, !url.contains(" ")
        else {
            throw UsageError(
                "\(option) \(specification) is not an http or https URL of a \(kind), for example \(example)")
        }
        self.url = url
        model = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : defaultModel
        apiKey = ProcessInfo.processInfo.environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
