import LanguageModels
import Synchronization

/// The histories (`ConversationHistory`) a scripted model read for its earlier requests, so that each request reads
/// only the entries added since: a turn costs the same at the 5,000th entry as at the 10th.
///
/// A history is used only for a transcript that still starts with the entries it covers (see `PrefixCheckpoints`);
/// otherwise, after a trim or for another conversation, the transcript is read from its first entry and that
/// history is kept in turn. Either way the result is the history read from the first entry.
final class ConversationMemory: Sendable {
    /// The histories, by the prefix each covers.
    private let checkpoints = Mutex(PrefixCheckpoints<ConversationHistory>())
    /// How many entries were read, over all requests: about the conversation's length when each request reads only
    /// what is new (the tests check that it does).
    private let read = Mutex(0)

    /// How many entries were read, over all requests.
    var entriesRead: Int { read.withLock { $0 } }

    /// Nothing remembered yet.
    init() {}

    /// The history of the first `end` entries of `transcript`: a remembered one, read on to `end`, or one read from
    /// the first entry. It is remembered for the next request.
    ///
    /// - Parameters:
    ///   - transcript: The request's transcript.
    ///   - end: How many of its entries, from the first, the history covers (those before its last prompt).
    ///   - resolver: Finds items in words and tool arguments.
    /// - Returns: The history, equal to `ConversationHistory(reading: transcript[..<end], resolver: resolver)`.
    func history(of transcript: Transcript, upTo end: Int, resolver: ItemResolver) -> ConversationHistory {
        let start = checkpoints.withLock { $0.longest(in: transcript, upTo: end) }
        var history = start?.value ?? ConversationHistory()
        for entry in transcript[(start?.count ?? 0)..<end] { history.absorb(entry, resolver: resolver) }
        read.withLock { $0 += end - (start?.count ?? 0) }
        checkpoints.withLock { $0.remember(history, covering: end, of: transcript) }
        return history
    }
}
