import ContentPacks
import Foundation
import GameWorld
import LanguageModels
import LanguageModelsTesting
import ParleyEngine
import ParleyFuzz
import ScriptedModel
import Testing

/// An NPC restored from a save is the same NPC: seeded random conversations with every shipped NPC and the German
/// pack's, restored from the autosave at every turn boundary into a new game with new models, must answer the next
/// line exactly as the live game does (`RestoreDifferential`). Small context windows force trims. `parley-bench fuzz`
/// runs many more games.
@Suite(.serialized) struct RestoreDifferentialTests {
    /// A pack to play and the lines its players say.
    struct Pack: CustomTestStringConvertible, Sendable {
        var folder: String
        var conversations: Int
        var turns: Int
        /// How a (mock) server voices the NPCs, or `nil` for the scripted model alone.
        var voice: VoiceMode? = nil
        var testDescription: String { folder + (voice.map { ", voiced \($0)" } ?? "") }
    }

    static let packs = [
        Pack(folder: "Content", conversations: 30, turns: 60),
        Pack(folder: "Examples/Marktplatz", conversations: 8, turns: 60),
        Pack(folder: "Content", conversations: 12, turns: 40, voice: .grounded),
        Pack(folder: "Content", conversations: 6, turns: 60, voice: .free),
    ]

    /// A server voice in this process, with a context window of `contextSize` tokens: it says the planned line it is
    /// given with a word of its own before it (grounded mode), or, asked to play the NPC itself (free mode), says it
    /// is listening. Deterministic, so a restored game's voiced lines can be compared with the live game's.
    static func voice(contextSize: Int) -> MockLanguageModel {
        MockLanguageModel(contextSize: contextSize) { request in
            let asked = request.transcript.last.map { entry in entry.segments.map(\.description).joined() } ?? ""
            guard let planned = asked.split(separator: "\n").last(where: { $0.hasPrefix("Reply: ") }) else {
                return .text("I'm listening, friend. Go on, tell me all about it, and take your time.")
            }
            return .text("Hm. " + planned.dropFirst("Reply: ".count))
        }
    }

    /// The context windows the games' models have: small ones trim every few turns, the default never.
    static let contextSizes = [1_400, 1_800, 2_600, 32_768]

    @Test(arguments: packs)
    func aGameRestoredAtAnyTurnAnswersTheNextLineAsTheLiveGameDoes(_ pack: Pack) async throws {
        let url = packageRoot.appendingPathComponent(pack.folder)
        let content = try ContentPack.load(from: url, displayPath: pack.folder).get()
        let corpus = EvalCorpus.load(from: url, displayPath: pack.folder, world: content.world)
        let lines = corpus.cases.map(\.say)
        try #require(lines.count > 20, "the pack's evaluation corpus gives the lines players say")
        let voice = pack.voice
        // A voiced turn waits on its (here in-process) server: a limit no busy machine reaches, so that timing never
        // decides a line.
        let report = try await Game.$turnTimeout.withValue(.seconds(3_600)) {
            try await RestoreDifferential.run(
                pack: content, lines: lines, conversations: pack.conversations, turns: pack.turns, seed: 31,
                contextSizes: Self.contextSizes
            ) { npc, world, contextSize -> any LanguageModel in
                let planner = ScriptedModel(npc: npc, world: world, seed: 1, contextSize: contextSize)
                guard let voice else { return planner }
                return VoicedModel(
                    voice: Self.voice(contextSize: contextSize), planner: planner, mode: voice,
                    firstWordsDeadline: .seconds(3_600))
            }
        }
        #expect(report.summary.passed, "\(report)")
        // Not vacuous: every boundary was compared, every NPC was talked to, and the games traded, gave, trimmed and
        // were told names.
        #expect(report.summary.accepted == pack.conversations * pack.turns, "\(report)")
        #expect(report.npcs.count == content.world.npcs.count, "\(report)")
        #expect(report.trims > 0 && report.dealings > 0, "\(report)")
        // Names, where the pack's lexicon reads how players give one.
        let names = PlayerNameFinder(content.world.lexicon)
        if names.name(in: "my name is Dax") != nil || names.name(in: "ich heiße Dax") != nil {
            #expect(report.namesGiven > 0, "\(report)")
        }
        print(report)
    }
}
