import CommandLineKit
import Foundation
import ParleyAPI
import ParleySpeech
import ParleySpeechServer

/// `parley serve --listen pocketsphinx`, `--listen-model URL[#MODEL]`, `--listen-confidence X`: spoken lines, sent to
/// `POST /v1/games/{id}/npcs/{npc}/say` as `audio/wav`, recognised and answered (docs/api.md, "Speech in"). Off
/// unless asked for.
enum ServeListening {
    /// `--listen pocketsphinx`: lines recognised offline with pocketsphinx.
    static let listenOption = Option.value(
        "listen", valueName: "ENGINE",
        type: ValueType(
            requirement: "pocketsphinx", example: "pocketsphinx", read: { $0 == "pocketsphinx" ? $0 : nil },
            format: { $0 }),
        help: "Hear spoken lines (audio/wav to .../say) with pocketsphinx (pocketsphinx), biased to the pack's words.")

    /// `--listen-model URL[#MODEL]`: lines recognised by an OpenAI-compatible transcription server.
    static let listenModelOption = Option.value(
        "listen-model", valueName: "URL",
        type: .nonEmptyString(example: "http://127.0.0.1:8178/v1#whisper-1"),
        help: "Hear spoken lines with an OpenAI-compatible transcription server (/v1/audio/transcriptions), its model"
            + " after # (whisper-1 when none); its API key from OPENAI_API_KEY.")

    /// `--listen-confidence X`: below it, the NPC asks the player to say the line again.
    static let listenConfidenceOption = Option.value(
        "listen-confidence", valueName: "X",
        type: ValueType(
            requirement: "a number from 0 to 1", example: "0.3",
            read: { Double($0).flatMap { (0...1).contains($0) ? $0 : nil } }, format: { "\($0)" }),
        help: "The lowest confidence a heard line is acted on at (0 to 1); below it the NPC asks again. The"
            + " recogniser's own when not given (pocketsphinx 0.15, a transcription server 0.4).")

    /// The options, for `serve`'s list.
    static let options = [listenOption.option, listenModelOption.option, listenConfidenceOption.option]

    /// The listening the options ask for, checked: `nil` when none; pocketsphinx is loaded to see that it is there.
    ///
    /// - Throws: `UsageError` when the options contradict each other, the URL is not one, or pocketsphinx is missing.
    static func listening(_ context: CommandContext) async throws -> APIListening? {
        let engine = try context.value(of: listenOption)
        let model = try context.value(of: listenModelOption)
        let confidence = try context.value(of: listenConfidenceOption)
        switch (engine, model) {
        case (nil, nil):
            if confidence != nil { throw UsageError("--listen-confidence needs --listen or --listen-model") }
            return nil
        case (_?, _?):
            throw UsageError("give --listen pocketsphinx or --listen-model URL, not both")
        case (_?, nil):
            let recognizer = PocketSphinxRecognizer()
            if let problem = await recognizer.unavailability() {
                throw UsageError("--listen pocketsphinx: \(problem)")
            }
            return APIListening(recognizer: recognizer, name: "pocketsphinx", minimumConfidence: confidence)
        case (nil, let specification?):
            let parts = specification.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let url = String(parts[0])
            let modelName = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : "whisper-1"
            guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme ?? ""),
                components.host?.isEmpty == false, !url.contains(" ")
            else {
                throw UsageError(
                    "--listen-model \(specification) is not an http or https URL of a transcription server, for "
                        + "example http://127.0.0.1:8178/v1#whisper-1")
            }
            let key = ProcessInfo.processInfo.environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            let recognizer = try TranscriptionServerRecognizer(
                configuration: .init(baseURL: url, model: modelName, apiKey: key))
            return APIListening(recognizer: recognizer, name: modelName, minimumConfidence: confidence)
        }
    }
}
