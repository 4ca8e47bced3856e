/// "Did you mean" suggestions for names that are probably typos: misspelt options and subcommands on the command
/// line, and misspelt ids, keys and names in content packs.
///
/// ```swift
/// Suggestions.closest(to: "--jsn", in: ["--json", "--help"])   // "--json"
/// Suggestions.closest(to: "lanter", in: ["lantern", "rope"])    // "lantern"
/// Suggestions.closest(to: "sword", in: ["lantern", "rope"])     // nil
/// ```
public enum Suggestions {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    ///
    /// Closeness is the optimal string alignment distance (insertions, deletions, substitutions and swaps of
    /// neighbours each count 1), ignoring case; a candidate is close enough when the distance is at most a third
    /// of the word's length (at least 1, at most 3). Ties go to the alphabetically first candidate. A candidate
    /// equal to `word` is never suggested.
    ///
    /// - Parameters:
    ///   - word: What was typed.
    ///   - candidates: The names that would have been understood.
    /// - Returns: The suggestion, or `nil` when no candidate is close enough.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        let limit = max(1, min(3, target.count / 3))
        var best: (distance: Int, candidate: String)?
        for candidate in candidates where candidate != word {
            let other = Array(candidate.lowercased().unicodeScalars)
            // The distance is at least the difference in length: skip the table when that is already too far.
            guard abs(other.count - target.count) <= limit else { continue }
            let distance = Self.distance(target, other)
            guard distance <= limit else { continue }
            if let current = best, (current.distance, current.candidate) <= (distance, candidate) { continue }
            best = (distance, candidate)
        }
        return best?.candidate
    }

    /// The optimal string alignment distance between two strings: the fewest insertions, deletions, substitutions
    /// and swaps of neighbouring characters that turn one into the other, no character edited twice.
    ///
    /// - Parameters:
    ///   - a: One string's characters.
    ///   - b: The other's.
    /// - Returns: The distance, 0 when they are equal.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
