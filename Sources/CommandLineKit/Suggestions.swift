/// "Did you mean" suggestions for misspelt options and subcommands.
enum Suggestions {
    /// The candidate closest to `word` if it is close enough to be a likely typo: the optimal string alignment
    /// distance (insertions, deletions, substitutions and swaps of neighbours each count 1) is at most a third
    /// of the word's length, at least 1 and at most 3. Ties go to the alphabetically first candidate.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.unicodeScalars)
        let limit = max(1, min(3, target.count / 3))
        var best: (distance: Int, candidate: String)?
        for candidate in candidates where candidate != word {
            let distance = Self.distance(target, Array(candidate.unicodeScalars))
            guard distance <= limit else { continue }
            if let current = best, (current.distance, current.candidate) <= (distance, candidate) { continue }
            best = (distance, candidate)
        }
        return best?.candidate
    }

    /// The optimal string alignment distance between two strings.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
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
