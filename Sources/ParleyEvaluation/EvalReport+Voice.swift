import ParleyBasics
import ParleyEngine
import ParleyJSON

extension EvalReport {
    /// How a server voiced the cases' lines (`VoicedModel`): how often its line was said, regenerated or replaced by
    /// the planner's, how long the player waited for first words, and how many tokens a reply took.
    public struct VoiceFigures: Sendable, Equatable {
        /// The voicing mode.
        public var mode: VoiceMode
        /// The cases whose line the game tried to voice.
        public var turns: Int
        /// The turns whose first voiced line was said.
        public var voiced: Int
        /// The turns whose second voiced line was said.
        public var regenerated: Int
        /// The turns whose voiced line stopped part way and the rest of the planned line was said.
        public var partlyVoiced = 0
        /// The turns where the planner's line was said, by reason.
        public var fellBack: [TurnVoicing.FallbackReason: Int]
        /// The median milliseconds to first words, over every turn measured.
        public var firstWordsMedian: Double?
        /// The 95th percentile of milliseconds to first words.
        public var firstWordsP95: Double?
        /// The mean tokens the server generated per turn it was asked, over all attempts.
        public var tokensPerReply: Double?

        /// The share of turns where the planner's line was said.
        public var fallbackRate: Double { turns == 0 ? 0 : Double(fellBack.values.reduce(0, +)) / Double(turns) }
        /// The share of turns whose first voiced line failed the checks and a second was said.
        public var regenerationRate: Double { turns == 0 ? 0 : Double(regenerated) / Double(turns) }
    }

    /// The voicing figures, when a server played the NPCs; `nil` for other models.
    public var voice: VoiceFigures? {
        let voicings = results.compactMap(\.voicing)
        guard let mode = voicings.first?.mode else { return nil }
        var figures = VoiceFigures(mode: mode, turns: voicings.count, voiced: 0, regenerated: 0, fellBack: [:])
        for voicing in voicings {
            switch voicing.outcome {
            case .voiced: figures.voiced += 1
            case .regenerated: figures.regenerated += 1
            case .partlyVoiced: figures.partlyVoiced += 1
            case .fellBack: figures.fellBack[voicing.reason ?? .check, default: 0] += 1
            }
        }
        let waits = results.compactMap(\.firstWordsMilliseconds).sorted()
        figures.firstWordsMedian = Self.percentile(50, of: waits)
        figures.firstWordsP95 = Self.percentile(95, of: waits)
        let tokens = voicings.filter { $0.attempts > 0 }.compactMap(\.completionTokens)
        if !tokens.isEmpty {
            figures.tokensPerReply = Double(tokens.reduce(0) { $0.saturatingAdding($1) }) / Double(tokens.count)
        }
        return figures
    }

    /// The nearest-rank percentile of sorted values; `nil` for none.
    static func percentile(_ percent: Int, of sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int(saturating: (Double(percent) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The voicing figures as lines of the text report.
    var voiceLines: [String] {
        guard let voice else { return [] }
        func milliseconds(_ value: Double?) -> String {
            value.map { "\(Int(saturating: $0.rounded())) ms" } ?? "not measured"
        }
        let reasons = TurnVoicing.FallbackReason.allCases.compactMap { reason in
            voice.fellBack[reason].map { "\(reason.rawValue) \($0)" }
        }
        return [
            "Voicing (\(voice.mode)): \(voice.turns) turns, \(voice.voiced) voiced, \(voice.regenerated) regenerated, "
                + (voice.partlyVoiced > 0 ? "\(voice.partlyVoiced) partly voiced, " : "")
                + "\(voice.fellBack.values.reduce(0, +)) fell back"
                + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"),
            "  fallback rate \(Self.percent(voice.fallbackRate)), regeneration rate "
                + "\(Self.percent(voice.regenerationRate))",
            "  first words: p50 \(milliseconds(voice.firstWordsMedian)), p95 \(milliseconds(voice.firstWordsP95))",
            "  tokens per reply: " + (voice.tokensPerReply.map { String(format: "%.1f", $0) } ?? "not reported"),
        ]
    }

    /// The voicing figures as JSON: `{"mode", "turns", "voiced", "regenerated", "partlyVoiced", "fellBack": {REASON: n},
    /// "fallbackRate", "regenerationRate", "firstWordsMilliseconds": {"p50", "p95"}, "tokensPerReply"}`.
    var voiceJSON: JSONValue {
        guard let voice else { return .null }
        var object = JSONObject()
        object["mode"] = .string(voice.mode.rawValue)
        object["turns"] = .integer(voice.turns)
        object["voiced"] = .integer(voice.voiced)
        object["regenerated"] = .integer(voice.regenerated)
        object["partlyVoiced"] = .integer(voice.partlyVoiced)
        object["fellBack"] = .object(
            JSONObject(
                voice.fellBack.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                    ($0.key.rawValue, .integer($0.value))
                }))
        object["fallbackRate"] = .double(Self.rounded(voice.fallbackRate))
        object["regenerationRate"] = .double(Self.rounded(voice.regenerationRate))
        object["firstWordsMilliseconds"] = [
            "p50": voice.firstWordsMedian.map(JSONValue.double) ?? .null,
            "p95": voice.firstWordsP95.map(JSONValue.double) ?? .null,
        ]
        object["tokensPerReply"] = voice.tokensPerReply.map { .double(($0 * 10).rounded() / 10) } ?? .null
        return .object(object)
    }
}
