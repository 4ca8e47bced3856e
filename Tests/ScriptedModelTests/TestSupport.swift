import Foundation
import GameWorld
import LanguageModels
import Testing

/// One turn as the player sees it: what the NPC said and the tools it called.
struct Turn {
    let reply: String
    let calls: [String]
    let entries: [Transcript.Entry]
}

extension LanguageModelSession {
    /// Says something (or plays an event) and returns the reply with this turn's tool calls.
    func turn(_ prompt: Prompt, context: GenerationContext = GenerationContext()) async throws -> Turn {
        let response = try await respond(to: prompt, context: context)
        let calls = response.transcriptEntries.flatMap { entry -> [String] in
            if case .toolCalls(let calls) = entry { return calls.map(\.description) }
            return []
        }
        return Turn(reply: response.content, calls: calls, entries: Array(response.transcriptEntries))
    }

    /// Says a line.
    func turn(_ line: String, context: GenerationContext = GenerationContext()) async throws -> Turn {
        try await turn(Prompt(line), context: context)
    }
}

/// Reply templates of an NPC's rules, to check which rule answered.
struct Voice {
    let npc: NPC

    init(_ npc: NPC) { self.npc = npc }

    /// The variants of a rule for an outcome (its outcome list, or its replies).
    func variants(_ rule: String, _ outcome: DialogueOutcome? = nil) -> [String] {
        guard let found = npc.dialogue.rules.first(where: { $0.id == rule }) else {
            Issue.record("\(npc.id) has no rule \(rule)")
            return []
        }
        return found.replies(for: outcome)
    }

    /// Whether a reply is one of a rule's variants, placeholders filled with anything.
    func said(_ reply: String, _ rule: String, _ outcome: DialogueOutcome? = nil) -> Bool {
        variants(rule, outcome).contains { fits(reply, $0) }
    }
}

/// Whether text is a template with its placeholders filled with anything (case-insensitive at the start, as
/// replies start with a capital).
func fits(_ text: String, _ template: String) -> Bool {
    guard case .success(let parsed) = DialogueTemplate.parse(template) else { return false }
    var pattern = "^"
    for piece in parsed.pieces {
        switch piece {
        case .text(let literal): pattern += NSRegularExpression.escapedPattern(for: literal)
        case .placeholder, .member: pattern += ".+?"
        }
    }
    pattern += "$"
    guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
        return false
    }
    return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
}
