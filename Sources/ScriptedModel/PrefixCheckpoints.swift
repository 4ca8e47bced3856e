import LanguageModels

/// Values computed over the first entries of transcripts (a conversation's history, a running token count), each
/// kept with the entries that bound the prefix it covers, so that a later transcript starting with the same entries
/// continues from the value instead of computing it again from the first entry.
///
/// A conversation's transcript grows at its end between requests; when it is replaced (a trim puts new instructions
/// first, a restore starts another game), its first or last covered entry no longer matches and the value is not
/// used. A checkpoint is valid for `entries` when it covers at most `entries.count` entries and both its first and
/// its last entry are equal to the entries at those positions: two comparisons, whatever the transcript's length.
/// (Entries between them are not compared: the engine changes an entry in place only in the turn that made it, the
/// voiced or authored line of a response, before any later request covers it.)
struct PrefixCheckpoints<Value: Sendable>: Sendable {
    /// A value and the prefix it covers.
    struct Checkpoint: Sendable {
        /// How many entries, from the first, the value covers.
        var count: Int
        /// The first entry covered, `nil` when none is.
        var first: Transcript.Entry?
        /// The last entry covered, `nil` when none is.
        var last: Transcript.Entry?
        /// The value over those entries.
        var value: Value
    }

    /// The checkpoints, most recently used first.
    private var checkpoints: [Checkpoint] = []
    /// The most checkpoints kept: a game asks about one conversation at a time, but counts candidate trims of it
    /// and, in `plannerTurn`, a copy of it.
    let limit: Int

    /// No checkpoints yet.
    ///
    /// - Parameter limit: The most checkpoints kept (at least 1).
    init(limit: Int = 8) {
        self.limit = max(limit, 1)
    }

    /// The checkpoint covering the longest prefix of the first `end` entries of `entries`, if one is valid. For a
    /// random-access collection (a `Transcript`, an array) this costs two comparisons per checkpoint.
    ///
    /// - Parameters:
    ///   - entries: The entries.
    ///   - end: How many of them, from the first, may be covered.
    /// - Returns: The checkpoint, or `nil` when none is valid.
    func longest(in entries: some Collection<Transcript.Entry>, upTo end: Int) -> Checkpoint? {
        var best: Checkpoint?
        for checkpoint in checkpoints where checkpoint.count <= end && checkpoint.count > (best?.count ?? -1) {
            guard checkpoint.count > 0 else {
                best = checkpoint
                continue
            }
            let first = entries.startIndex
            let last = entries.index(first, offsetBy: checkpoint.count - 1)
            if entries[first] == checkpoint.first, entries[last] == checkpoint.last { best = checkpoint }
        }
        return best
    }

    /// Keeps a value over the first `count` entries of `entries`, forgetting the least recently used checkpoint when
    /// there are too many, and any checkpoint of the same prefix.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - count: How many entries, from the first, it covers.
    ///   - entries: The entries.
    mutating func remember(_ value: Value, covering count: Int, of entries: some Collection<Transcript.Entry>) {
        let first = count > 0 ? entries.first : nil
        let last = count > 0 ? entries[entries.index(entries.startIndex, offsetBy: count - 1)] : nil
        checkpoints.removeAll { $0.count == count && $0.first == first && $0.last == last }
        checkpoints.insert(Checkpoint(count: count, first: first, last: last, value: value), at: 0)
        if checkpoints.count > limit { checkpoints.removeLast(checkpoints.count - limit) }
    }
}
