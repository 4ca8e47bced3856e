import Foundation
import GameWorld
import ParleyAPI
import ParleyEngine
import ParleyJSON
import ParleySpeech
import ScriptedModel
import Synchronization

/// NPC voices in `parley serve` (issue 36): how long after the player's line the first audio of the NPC's answer is
/// there (its first sentence synthesised with espeak-ng, the first `speech` event that carries `audio`), against how
/// long until its first text in the same game without speech (the first `speech` event), with the scripted model;
/// and espeak-ng's real-time factor (seconds of audio per second of synthesis). Target: the first audio at most
/// 100 ms after the first text.
///
/// Each turn is a new game of each kind (one speaking, one not, in process, neither saved), then Mira's greeting
/// ("talk to mira", four sentences in one piece) and her answer to "how much is the lantern?" (a piece of one word,
/// then one of three sentences), timed from the line's start.
enum VoiceLatency {
    /// When one line's events came.
    final class Timeline: Sendable {
        private let start = ContinuousClock.now
        private let marks = Mutex<(text: Duration?, audio: Duration?, end: Duration?, audioSeconds: Double?)>(
            (nil, nil, nil, nil))

        func record(_ event: APIEvent) {
            let now = ContinuousClock.now - start
            marks.withLock { marks in
                switch event.type {
                case .speech:
                    if marks.text == nil { marks.text = now }
                    if marks.audio == nil, event.fields["audio"] != nil { marks.audio = now }
                case .speechEnded:
                    if marks.end == nil { marks.end = now }
                    if case .array(let visemes)? = event.fields["visemes"], let last = visemes.last,
                        let start = last["start"]?.doubleValue, let duration = last["duration"]?.doubleValue
                    {
                        marks.audioSeconds = start + duration
                    }
                default: break
                }
            }
        }

        /// The first text's, the first audio's and the line's end's times in milliseconds, and the line's audio in
        /// seconds.
        var figures: (text: Double?, audio: Double?, end: Double?, audioSeconds: Double?) {
            marks.withLock { ($0.text?.milliseconds, $0.audio?.milliseconds, $0.end?.milliseconds, $0.audioSeconds) }
        }
    }

    /// The lines timed, the second in a game where the first was said.
    static let lines = [("greeting", "talk to mira"), ("the lantern's price", "how much is the lantern?")]

    /// Runs the scenario.
    ///
    /// - Parameter quick: Fewer turns.
    static func run(quick: Bool) async throws {
        let synthesizer = ESpeakSynthesizer()
        if let problem = await synthesizer.unavailability() { throw BenchError("\(problem)") }
        let turns = quick ? 10 : 40
        let pack = try BenchContent.shippedPack()
        let models: Game.ModelProvider = { npc, world in ScriptedModel(npc: npc, world: world, seed: 1) }
        let silent = APIGames(configuration: .init(pack: pack, models: models, store: nil, maximumGames: 4))
        var configuration = APIGames.Configuration(pack: pack, models: models, store: nil, maximumGames: 4)
        configuration.speech = APISpeech(synthesizer: synthesizer)
        let speaking = APIGames(configuration: configuration)

        var text = Array(repeating: [Double](), count: lines.count)
        var audio = text
        var silentEnd = text
        var spokenEnd = text
        var audioSeconds = text
        for _ in 0..<turns {
            for (games, spoken) in [(silent, false), (speaking, true)] {
                let game = try await games.start(.new).game
                for (index, (_, line)) in lines.enumerated() {
                    let timeline = Timeline()
                    _ = await game.input(line, emit: timeline.record)
                    let figures = timeline.figures
                    guard let first = figures.text, let end = figures.end else {
                        throw BenchError("\"\(line)\" showed no speech")
                    }
                    if spoken {
                        guard let heard = figures.audio, let seconds = figures.audioSeconds else {
                            throw BenchError("\"\(line)\" was not spoken")
                        }
                        audio[index].append(heard)
                        spokenEnd[index].append(end)
                        audioSeconds[index].append(seconds)
                    } else {
                        text[index].append(first)
                        silentEnd[index].append(end)
                    }
                }
                try await games.end(game.id)
            }
        }
        await silent.endAll()
        await speaking.endAll()

        report("## Voice: time to the first audio against the first text (espeak-ng, scripted model)")
        report("")
        report(
            "| Line | Turns | First text p50 ms | First audio p50 ms | p90 ms | Audio − text p50 ms | Line end, silent / "
                + "spoken p50 ms | Line's audio s | Target ≤ 100 ms more |")
        report("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for (index, (name, _)) in lines.enumerated() {
            let first = Measure.median(text[index])
            let heard = Measure.median(audio[index])
            let more = heard - first
            report(
                "| \(name) | \(turns) | \(format(first, digits: 1)) | \(format(heard, digits: 1)) | "
                    + "\(format(Measure.percentile(audio[index], 90), digits: 1)) | \(format(more, digits: 1)) | "
                    + "\(format(Measure.median(silentEnd[index]), digits: 1)) / "
                    + "\(format(Measure.median(spokenEnd[index]), digits: 1)) | "
                    + "\(format(Measure.median(audioSeconds[index]), digits: 2)) | \(verdict(more <= 100)) |")
        }
        report("")
        try await realTimeFactor(synthesizer, pack: pack, quick: quick)
    }

    /// espeak-ng's real-time factor on Mira's sentences in her voice: seconds of audio per second of synthesis.
    static func realTimeFactor(_ synthesizer: ESpeakSynthesizer, pack: ContentPack, quick: Bool) async throws {
        let world = pack.world
        guard let mira = world.npcs[NPCID("mira")] else { throw BenchError("the pack has no Mira") }
        let voice = SpeechVoice(of: mira, in: world)
        let sentences = [
            "Hello, hello, friend!", "A new face!", "I never forget a face, Traveller, and I'll not forget yours.",
            "What can I find for you?", "The Brass Lantern?", "25 gold, friend, and cheap at that.",
            "Off you go, friend, and come back soon!", "Tell everyone about Mira's stall!",
        ]
        let rounds = quick ? 3 : 10
        var factors: [Double] = []
        var firsts: [Double] = []
        var audioTotal = 0.0
        var synthesisTotal = 0.0
        for _ in 0..<rounds {
            for sentence in sentences {
                let clock = ContinuousClock()
                let start = clock.now
                let speech = try await synthesizer.synthesize(sentence, voice: voice)
                let seconds = (clock.now - start).milliseconds / 1_000
                let audio = Double(speech.samples.count) / Double(speech.sampleRate)
                factors.append(audio / seconds)
                audioTotal += audio
                synthesisTotal += seconds
                if sentence == sentences[0] { firsts.append(seconds * 1_000) }
            }
        }
        report("## Voice: espeak-ng's real-time factor (seconds of audio per second of synthesis)")
        report("")
        report(
            "| Sentences | Rounds | Audio s | Synthesis s | Real-time factor, all | Per sentence p50 | p10 | Short sentence ms p50 |"
        )
        report("|---:|---:|---:|---:|---:|---:|---:|---:|")
        report(
            "| \(sentences.count) | \(rounds) | \(format(audioTotal, digits: 1)) | \(format(synthesisTotal, digits: 2)) | "
                + "\(format(audioTotal / synthesisTotal, digits: 1)) | \(format(Measure.median(factors), digits: 1)) | "
                + "\(format(Measure.percentile(factors, 10), digits: 1)) | \(format(Measure.median(firsts), digits: 1)) |"
        )
        report("")
    }
}
