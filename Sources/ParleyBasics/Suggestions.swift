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

    /// The "did you mean" hint for the candidate closest to `word` (see `closest(to:in:)`), in the words every such
    /// message uses: `did you mean "lantern"?`.
    ///
    /// ```swift
    /// Suggestions.didYouMean("lanter", in: ["lantern", "rope"])                    // did you mean "lantern"?
    /// Suggestions.didYouMean("--jsn", in: ["--json"], quotes: .single)              // did you mean '--json'?
    /// ```
    ///
    /// - Parameters:
    ///   - word: What was typed.
    ///   - candidates: The names that would have been understood.
    ///   - quotes: The marks around the suggestion.
    /// - Returns: The hint, or `nil` when no candidate is close enough.
    public static func didYouMean(
        _ word: String, in candidates: some Sequence<String>, quotes: Quotes = .double
    )
        -> String?
    {
        closest(to: word, in: candidates).map { didYouMean($0, quotes: quotes) }
    }

    /// The "did you mean" hint for a suggestion found some other way: `did you mean "lantern"?`.
    ///
    /// - Parameters:
    ///   - suggestion: What to suggest, as it should be written (`{price}`, `@greeting`).
    ///   - quotes: The marks around it.
    ///   - startsSentence: Whether the hint is a sentence of its own (`Did you mean the lantern?`).
    /// - Returns: The hint.
    public static func didYouMean(
        _ suggestion: String, quotes: Quotes = .double, startsSentence: Bool = false
    )
        -> String
    {
        let quoted =
            switch quotes {
            case .double: "\"\(suggestion)\""
            case .single: "'\(suggestion)'"
            case .none: suggestion
            }
        return (startsSentence ? "Did" : "did") + " you mean \(quoted)?"
    }

    /// The marks `didYouMean` puts around a suggestion.
    public enum Quotes: Sendable {
        /// `"lantern"`: names in content packs, JSON and the HTTP API.
        case double
        /// `'--json'`: the command line's options and commands.
        case single
        /// `the lantern`: words in sentences the player reads.
        case none
    }

    /// The edit distance between two strings, Parley's one: the fewest insertions, deletions and substitutions (and,
    /// with `countingSwaps`, swaps of neighbouring characters; the optimal string alignment distance, no character
    /// edited twice) that turn one into the other.
    ///
    /// `closest(to:in:)` counts a swap as one edit (`lantren` is one from `lantern`); `ScriptedModel`'s typo mender
    /// counts it as two (the Levenshtein distance), as its rules were written for.
    ///
    /// - Parameters:
    ///   - a: One string's characters (or scalars).
    ///   - b: The other's.
    ///   - countingSwaps: Whether swapping two neighbours is one edit rather than two.
    /// - Returns: The distance, 0 when they are equal.
    package static func distance<Element: Equatable>(
        _ a: [Element], _ b: [Element], countingSwaps: Bool = true
    )
        -> Int
    {
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
                if countingSwaps, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
