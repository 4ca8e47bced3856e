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
/// failure of its case, and separately as "asked again". The others are said as heard (`Game.say` with a
/// `HeardSpeech`), once without an acting bar and once under each of several: how many misheard lines still make the
/// NPC act, and how many spoken lines that asked for an action (and got it without the bar) are asked again.
/// espeak-ng's voice is harder for pocketsphinx than a person's: the figure is a floor for clear speech, not a measure
/// of a player's.
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
        var heardLines: [String: RecognizedSpeech] = [:]
        var askedAgain: Set<String> = []
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
            heardLines[evalCase.id] = heard
            heardCases.append(spokenCase)
        }
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        var runner = EvalRunner(
            pack: pack, models: models, builtInRules: ScriptedModel.builtInRules, concurrency: 2, reusesModels: true)
        let typed = await runner.run(cases)
        // Each line said as heard (`Game.say` with its `HeardSpeech`), under each acting bar: none (every line the
        // listening threshold lets through acts, as before the bar), then higher and higher.
        func runHeard(under bar: Double?) async -> EvalReport {
            runner.heard = heardLines.mapValues { line in
                HeardSpeech(
                    text: line.text, confidence: line.confidence, recognizer: "pocketsphinx",
                    minimumActingConfidence: bar)
            }
            return await runner.run(heardCases)
        }
        let withoutBar = await runHeard(under: nil)
        let defaultBar = recognizer.minimumActingConfidence
        let bars = Array(Set([0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.8, defaultBar])).sorted()
        var underBars: [(bar: Double, report: EvalReport)] = []
        for bar in bars { underBars.append((bar, await runHeard(under: bar))) }

        // The spoken lines that asked for an action and got it without the bar: heard right enough that the case
        // passed, and the turn made a call that acts.
        let readOnly: Set<String> = ["lookUpStock", "inspectPlayer"]
        let workingActions = Set(
            zip(withoutBar.results, cases).filter { result, typedCase in
                !askedAgain.contains(typedCase.id) && result.passed && EvalRunner.expectsAction(typedCase)
                    && result.calls.contains { !readOnly.contains($0) }
            }.map { $1.id })
        struct Figures {
            var passed = 0
            var unaskedActions = 0
            var falseClaims = 0
            var misheardHeldBack = 0
            var askedHeldBack = 0
            var workingHeldBack = 0
            var acted: [String] = []
        }
        func figures(of report: EvalReport) -> Figures {
            var figures = Figures()
            for (result, typedCase) in zip(report.results, cases) where !askedAgain.contains(typedCase.id) {
                if result.passed { figures.passed += 1 }
                figures.unaskedActions += result.unaskedActions.count
                figures.falseClaims += result.falseClaims.count
                if !result.unclearSpeechRefusals.isEmpty {
                    if EvalRunner.expectsAction(typedCase) {
                        figures.askedHeldBack += 1
                        if workingActions.contains(typedCase.id) { figures.workingHeldBack += 1 }
                    } else {
                        figures.misheardHeldBack += 1
                    }
                }
                if !result.unaskedActions.isEmpty {
                    let confidence = heardLines[typedCase.id]?.confidence ?? 0
                    figures.acted.append(
                        "| `\(typedCase.id)` | \(typedCase.say) | \(result.evalCase.say) (\(format(confidence))) | "
                            + "\(result.unaskedActions.joined(separator: "; ")) |")
                }
            }
            return figures
        }
        let before = figures(of: withoutBar)
        let atDefault = figures(of: underBars.first { $0.bar == defaultBar }!.report)
        let count = Double(max(cases.count, 1))
        report("| | |")
        report("|---|---|")
        report("| Cases | \(cases.count) (of \(corpus.cases.count)) |")
        report("| Accuracy, typed | \(EvalReport.percent(typed.overall.accuracy)) |")
        report(
            "| Accuracy, spoken and recognised, without the acting bar; with it (\(format(defaultBar))) | "
                + "\(EvalReport.percent(Double(before.passed) / count)); "
                + "\(EvalReport.percent(Double(atDefault.passed) / count)) |")
        report("| Asked again (confidence below \(format(recognizer.minimumConfidence))) | \(askedAgain.count) |")
        report(
            "| Unasked actions, false claims on recognised lines acted on, without the acting bar | "
                + "\(before.unaskedActions), \(before.falseClaims) |")
        report(
            "| Unasked actions, false claims, with the acting bar (\(format(defaultBar))) | "
                + "\(atDefault.unaskedActions), \(atDefault.falseClaims) |")
        report(
            "| Spoken lines that asked for an action and got it without the bar; asked again under it | "
                + "\(workingActions.count); \(atDefault.workingHeldBack) |")
        report("| Lines recognised word for word | \(EvalReport.percent(Double(exact) / count)) |")
        report("| Word error rate | \(EvalReport.percent(Double(wordErrors) / Double(max(words, 1)))) |")
        report("| Decoder for the pack's vocabulary | \(format(prepare.milliseconds / 1_000, digits: 1)) s |")
        report("| Synthesis real-time factor (audio / time) | \(format(audioSeconds / (synthesis.milliseconds / 1_000), digits: 1)) |")
        report(
            "| Recognition real-time factor (audio / time) | \(format(audioSeconds / (recognition.milliseconds / 1_000), digits: 1)) |")
        report("")
        report("Acting bars: each line the listening threshold lets through, said as heard under the bar.")
        report("")
        report(
            "| Acting bar | Accuracy, spoken | Misheard into an action | False claims | Misheard actions held back | "
                + "Asked-for actions held back | Of them, ones that worked without the bar "
                + "(of \(workingActions.count)) |")
        report("|---|---|---|---|---|---|---|")
        report(
            "| none | \(EvalReport.percent(Double(before.passed) / count)) | \(before.unaskedActions) | "
                + "\(before.falseClaims) | \(before.misheardHeldBack) | \(before.askedHeldBack) | "
                + "\(before.workingHeldBack) |")
        for (bar, result) in underBars {
            let figures = figures(of: result)
            report(
                "| \(format(bar)) | \(EvalReport.percent(Double(figures.passed) / count)) | "
                    + "\(figures.unaskedActions) | \(figures.falseClaims) | \(figures.misheardHeldBack) | \(figures.askedHeldBack) | "
                    + "\(figures.workingHeldBack) |")
        }
        report("")
        // The confidences of the spoken actions that worked: what a bar costs.
        let working = workingActions.compactMap { heardLines[$0]?.confidence }.sorted()
        if !working.isEmpty {
            let quartiles = [0.1, 0.25, 0.5, 0.75].map {
                working[min(Int($0 * Double(working.count)), working.count - 1)]
            }
            report(
                "Confidences of the \(working.count) spoken actions that worked without the bar: 10th, 25th, 50th and"
                    + " 75th percentiles \(quartiles.map { format($0) }.joined(separator: ", ")).")
            report("")
        }
        let runs = [("without the acting bar", before), ("with the acting bar (\(format(defaultBar)))", atDefault)]
        for (title, figures) in runs where !figures.acted.isEmpty {
            report("Lines misheard into an action the typed line did not ask for, \(title):")
            report("")
            report("| Case | Typed | Heard (confidence) | Action |")
            report("|---|---|---|---|")
            for line in figures.acted { report(line) }
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
