import Foundation
import LanguageModels

/// Conversations of any length made from a real one: its instructions, then copies of its turns with fresh ids,
/// so a restored session of 5,000 entries looks like one that was played.
enum ConversationFixture {
    /// The conversation's instructions followed by copies of its turns, up to `size` entries (fewer when the next
    /// turn does not fit).
    ///
    /// - Parameters:
    ///   - played: A played conversation.
    ///   - size: The most entries.
    /// - Returns: The longer conversation, with each copied turn's annotations.
    static func extend(_ played: AnnotatedTranscript, to size: Int) -> AnnotatedTranscript {
        let entries = Array(played.transcript)
        guard let instructions = entries.first else { return played }
        var turns: [[Transcript.Entry]] = []
        for entry in entries.dropFirst() {
            if case .prompt = entry { turns.append([]) }
            if !turns.isEmpty { turns[turns.count - 1].append(entry) }
        }
        var result = [instructions]
        var annotations: [String: [String: String]] = [:]
        var copy = 0
        while !turns.isEmpty {
            let turn = turns[copy % turns.count]
            guard result.count + turn.count <= size else {
                // Try a shorter turn once; stop when none fits.
                guard let shorter = turns.first(where: { result.count + $0.count <= size }) else { break }
                result += renamed(shorter, copy: copy)
                copy += 1
                continue
            }
            let renamedTurn = renamed(turn, copy: copy)
            if case .prompt(let original)? = turn.first, case .prompt(let prompt)? = renamedTurn.first {
                annotations[prompt.id] = played.turnAnnotations[original.id]
            }
            result += renamedTurn
            copy += 1
        }
        return AnnotatedTranscript(
            transcript: Transcript(entries: result), annotations: played.annotations, turnAnnotations: annotations)
    }

    /// A copy of a turn with every id (entries, segments, tool calls) suffixed with the copy's number.
    static func renamed(_ turn: [Transcript.Entry], copy: Int) -> [Transcript.Entry] {
        var ids = Set<String>()
        for entry in turn {
            ids.insert(entry.id)
            for segment in entry.segments { ids.insert(segment.id) }
            if case .toolCalls(let calls) = entry { for call in calls { ids.insert(call.id) } }
        }
        return turn.map { entry in
            var json = entry.jsonString()
            for id in ids where !id.isEmpty {
                json = json.replacingOccurrences(of: "\"\(id)\"", with: "\"\(id)-\(copy)\"")
            }
            return (try? Transcript.Entry(json: json)) ?? entry
        }
    }
}
