import ContentPacks
import Foundation
import GameWorld
import ParleyBasics
import ParleyEngine
import ParleyEvaluation
import ParleySpeech
import ScriptedModel

/// Speech in, round trip: each evaluation case's line spoken by espeak-ng (US English), recognised by pocketsphinx
/// with the shipped pack's vocabulary, and answered: the corpus's accuracy on recognised speech against typed text.
///
/// A figure, not a test. The vocabulary is made from the pack's content, never from the corpus, so the figure is on
/// lines the recogniser was not fitted to. The case's setup lines (`before`) stay typed; only its `say` is spoken. A
/// line heard below the recogniser's confidence threshold is not acted on (the NPC asks again), and counts as a
/// failure of its case, and separately as "asked again". espeak-ng's voice is harder for pocketsphinx than a person's:
/// the figure is a floor for clear speech, not a measure of a player's.
enum ListenRoundTrip {
    static func run(quick: Bool) async throws {
        report("## Speech in: the eval corpus spoken, recognised and answered")
        report("")
        let synthesizer = ESpeakSynthesizer()
        let recognizer = PocketSphinxRecognizer()
        if let problem = await synthesizer.unavailability() {
            report("Skipped: \(problem)")
            return
        }
        if let problem = await recognizer.unavailability() {
            report("Skipped: \(problem)")
            return
        }
        let pack = try BenchContent.shippedPack()
        let corpus = EvalCorpus.load(
            from: BenchContent.packageRoot.appendingPathComponent("Content"), displayPath: "Content",
            world: pack.world, builtInRules: ScriptedModel.builtInRules)
        var cases = corpus.cases
        if quick { cases = Array(cases.prefix(80)) }
        let vocabulary = SpeechVocabulary(world: pack.world)
        let clock = ContinuousClock()
        let prepared = clock.now
        try await recognizer.prepare(vocabulary)
        let prepare = clock.now - prepared

        var heardCases: [EvalCase] = []
        var askedAgain: Set<String> = []
        var confidences: [String: Double] = [:]
        var exact = 0
        var wordErrors = 0
        var words = 0
        var audioSeconds = 0.0
        var synthesis = Duration.zero
        var recognition = Duration.zero
        for evalCase in cases {
            let started = clock.now
            let spoken = try await synthesizer.synthesize(evalCase.say, voice: SpeechVoice(voice: "en-us"))
            let synthesized = clock.now
            let heard = try await recognizer.recognize(spoken.audio, vocabulary: vocabulary)
            recognition += clock.now - synthesized
            synthesis += synthesized - started
            audioSeconds += spoken.duration.milliseconds / 1_000
            let typedWords = SpeechVocabulary(language: "en", sentences: [evalCase.say]).sentences.first?
                .split(separator: " ").map(String.init) ?? []
            let heardWords = heard.text.split(separator: " ").map(String.init)
            if typedWords == heardWords { exact += 1 }
            wordErrors += editDistance(typedWords, heardWords)
            words += typedWords.count
            var spokenCase = evalCase
            spokenCase.say = heard.text
            if !heard.isClear(minimum: recognizer.minimumConfidence) { askedAgain.insert(evalCase.id) }
            confidences[evalCase.id] = heard.confidence ?? 0
            heardCases.append(spokenCase)
        }
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        let runner = EvalRunner(
            pack: pack, models: models, builtInRules: ScriptedModel.builtInRules, concurrency: 2, reusesModels: true)
        let typed = await runner.run(cases)
        let heard = await runner.run(heardCases)
        var passedHeard = 0
        var unaskedActions = 0
        var falseClaims = 0
        var acted: [String] = []
        for (result, typedCase) in zip(heard.results, cases) where !askedAgain.contains(result.evalCase.id) {
            if result.passed { passedHeard += 1 }
            unaskedActions += result.unaskedActions.count
            falseClaims += result.falseClaims.count
            if !result.unaskedActions.isEmpty {
                acted.append(
                    "| `\(typedCase.id)` | \(typedCase.say) | \(result.evalCase.say) (\(format(confidences[typedCase.id] ?? 0))) | "
                        + "\(result.unaskedActions.joined(separator: "; ")) |")
            }
        }
        let count = Double(max(cases.count, 1))
        report("| | |")
        report("|---|---|")
        report("| Cases | \(cases.count) (of \(corpus.cases.count)) |")
        report("| Accuracy, typed | \(EvalReport.percent(typed.overall.accuracy)) |")
        report("| Accuracy, spoken and recognised | \(EvalReport.percent(Double(passedHeard) / count)) |")
        report("| Asked again (confidence below \(format(recognizer.minimumConfidence))) | \(askedAgain.count) |")
        report("| Unasked actions, false claims on recognised lines acted on | \(unaskedActions), \(falseClaims) |")
        report("| Lines recognised word for word | \(EvalReport.percent(Double(exact) / count)) |")
        report("| Word error rate | \(EvalReport.percent(Double(wordErrors) / Double(max(words, 1)))) |")
        report("| Decoder for the pack's vocabulary | \(format(prepare.milliseconds / 1_000, digits: 1)) s |")
        report("| Synthesis real-time factor (audio / time) | \(format(audioSeconds / (synthesis.milliseconds / 1_000), digits: 1)) |")
        report(
            "| Recognition real-time factor (audio / time) | \(format(audioSeconds / (recognition.milliseconds / 1_000), digits: 1)) |")
        report("")
        if !acted.isEmpty {
            report("Lines misheard into an action the typed line did not ask for (the offer still waits for `accept`):")
            report("")
            report("| Case | Typed | Heard (confidence) | Action |")
            report("|---|---|---|---|")
            for line in acted { report(line) }
            report("")
        }
    }

    /// The Levenshtein distance between two word lists: substitutions, insertions and deletions.
    static func editDistance(_ a: [String], _ b: [String]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, word) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, other) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (word == other ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
