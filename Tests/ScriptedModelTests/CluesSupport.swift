import Testing

@testable import ScriptedModel

/// The words of a line and the clues the rule tests give it by hand: one item named at `item` (one word long), if
/// anywhere, the line's parts starting at `clauses`, and whether it is said as a question. `Scene` builds the same
/// clues from a real line; the rounds' rule tests build them so, to test one function at a time.
///
/// - Parameters:
///   - line: The line, as `Words` reads it.
///   - item: Where the one item named starts, or `nil` for none.
///   - clauses: Where the line's sentences and comma-separated parts start.
///   - isQuestion: Whether the line is said as a question (`Clues.isQuestion`).
/// - Returns: The words and the clues.
func oneItemClues(
    _ line: String, item: Int?, clauses: Set<Int> = [0], isQuestion: Bool = false
) -> (Words, IntentDetector.Clues) {
    let words = Words(line)
    var clues = IntentDetector.Clues()
    clues.itemStart = item
    clues.itemEnd = item.map { $0 + 1 }
    clues.namesSomething = item != nil
    clues.isQuestion = isQuestion
    clues.clauseStarts = clauses
    return (words, clues)
}
