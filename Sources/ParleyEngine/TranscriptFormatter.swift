import LanguageModels
import NPCContract

/// An annotated transcript as text a person reads: who said what, what the NPC looked up and offered, and the
/// game context of each turn.
///
/// ```
/// [turn 2 · Traveller · 14 gold · market_square · 2 × bread, 1 × rusty_sword]
/// You: how much is the lantern?
///   · lookUpStock {"item":"lantern"} → {"items":[{"item":"lantern","price":25,...}]}
/// Mira Quickcoin: The lantern's 25 gold, friend.
/// ```
public enum TranscriptFormatter {
    /// Formats an annotated transcript.
    ///
    /// - Parameters:
    ///   - annotated: The conversation and its context.
    ///   - npcName: The NPC's name, for its lines.
    ///   - showTools: Whether to show tool calls and their outputs.
    /// - Returns: The text, one line per entry.
    public static func format(_ annotated: AnnotatedTranscript, npcName: String, showTools: Bool = true) -> String {
        var lines: [String] = []
        var turn = 0
        for entry in annotated.transcript {
            switch entry {
            case .instructions:
                continue
            case .prompt(let prompt):
                turn += 1
                if let context = annotated.turnAnnotations[prompt.id] {
                    let parts = [
                        context[.player], context[.gold].map { "\($0) gold" }, context[.location],
                        context[.inventory],
                    ]
                    .compactMap { $0 }.filter { !$0.isEmpty }
                    lines.append("[turn \(turn) · " + parts.joined(separator: " · ") + "]")
                }
                let text = prompt.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }
                    .joined(separator: " ")
                lines.append(prompt.isWitnessedEvent ? text : "You: \(text)")
            case .toolCalls(let calls):
                if showTools { for call in calls { lines.append("  · \(call.toolName) \(call.arguments.jsonString)") } }
            case .toolOutput(let output):
                if showTools { lines.append("    → " + output.segments.map(\.description).joined(separator: " ")) }
            case .reasoning(let reasoning):
                if showTools {
                    lines.append("  (thinking: \(reasoning.segments.map(\.description).joined(separator: " ")))")
                }
            case .response(let response):
                lines.append("\(npcName): " + response.segments.map(\.description).joined(separator: " "))
            case .unknown(let unknown):
                lines.append("  (\(unknown.description), kept as it was)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
