import CommandLineKit
import ParleyAPI
import ParleySpeech
import ParleySpeechServer

/// `parley serve --listen pocketsphinx`, `--listen-model URL[#MODEL]`, `--listen-confidence X`,
/// `--listen-act-confidence X`: spoken lines, sent to
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

    /// `--listen-act-confidence X`: below it, a heard line is answered but cannot make the NPC act.
    static let listenActConfidenceOption = Option.value(
        "listen-act-confidence", valueName: "X",
        type: ValueType(
            requirement: "a number from 0 to 1", example: "0.6",
            read: { Double($0).flatMap { (0...1).contains($0) ? $0 : nil } }, format: { "\($0)" }),
        help: "The lowest confidence a heard line may make the NPC act at (0 to 1): below it, an offer, a gift or an"
            + " action in answer is refused and the NPC asks again; a line without a confidence acts only at 0. The"
            + " recogniser's own when not given (pocketsphinx 0.7, a transcription server 0.6).")

    /// The options, for `serve`'s list.
    static let options = [
        listenOption.option, listenModelOption.option, listenConfidenceOption.option, listenActConfidenceOption.option,
    ]

    /// The listening the options ask for, checked: `nil` when none; pocketsphinx is loaded to see that it is there.
    ///
    /// - Throws: `UsageError` when the options contradict each other, the URL is not one, or pocketsphinx is missing.
    static func listening(_ context: CommandContext) async throws -> APIListening? {
        let engine = try context.value(of: listenOption)
        let model = try context.value(of: listenModelOption)
        let confidence = try context.value(of: listenConfidenceOption)
        let actingConfidence = try context.value(of: listenActConfidenceOption)
        switch (engine, model) {
        case (nil, nil):
            if confidence != nil { throw UsageError("--listen-confidence needs --listen or --listen-model") }
            if actingConfidence != nil {
                throw UsageError("--listen-act-confidence needs --listen or --listen-model")
            }
            return nil
        case (_?, _?):
            throw UsageError("give --listen pocketsphinx or --listen-model URL, not both")
        case (_?, nil):
            let recognizer = PocketSphinxRecognizer()
            if let problem = await recognizer.unavailability() {
                throw UsageError("--listen pocketsphinx: \(problem)")
            }
            return APIListening(
                recognizer: recognizer, name: "pocketsphinx", minimumConfidence: confidence,
                minimumActingConfidence: actingConfidence)
        case (nil, let specification?):
            let server = try AudioServer(
                specification, option: "--listen-model", kind: "transcription server", defaultModel: "whisper-1",
                example: "http://127.0.0.1:8178/v1#whisper-1")
            let recognizer = try TranscriptionServerRecognizer(
                configuration: .init(baseURL: server.url, model: server.model, apiKey: server.apiKey))
            return APIListening(
                recognizer: recognizer, name: server.model, minimumConfidence: confidence,
                minimumActingConfidence: actingConfidence)
        }
    }
}
