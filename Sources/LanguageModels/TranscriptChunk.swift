import Synchronization

/// A block of up to `capacity` transcript entries, shared by the `Transcript` values that hold them.
///
/// A conversation grows at its end while several values of it are alive (the session's, the request's, the game's
/// history, a recording's), and copying its thousands of entries for each new one made every turn cost more than
/// the one before. Chunks let a value append without copying: the next free slot of the last chunk is *claimed*
/// (an atomic compare-and-exchange on `claimed`) by the value that appends first; the others, whose view of the
/// chunk ends before that slot, copy only that one chunk when they append in turn. Entries before a value's end are
/// never written again while another value holds the chunk: a value writes over an entry only in a chunk it holds
/// alone (`isKnownUniquelyReferenced`), and otherwise copies the chunk first.
///
/// `@unchecked Sendable`: a slot is written once, by the value that claimed it through `claimed`, before that value
/// can be copied or sent; it is read only by values copied from that one, which therefore see the write; a slot is
/// written over only by a value that holds the chunk alone. That is what protects `slots`.
final class TranscriptChunk: @unchecked Sendable {
    /// Entries per chunk: a power of two, so a position splits into chunk and slot with a shift and a mask.
    static let capacity = 256
    /// `log2(capacity)`.
    static let shift = 8

    /// How many slots, from the first, have been claimed (and so are initialized).
    private let claimed = Atomic<Int>(0)
    /// The entries.
    let slots: UnsafeMutablePointer<Transcript.Entry>

    /// An empty chunk.
    init() {
        slots = .allocate(capacity: Self.capacity)
    }

    /// A chunk holding a copy of `count` entries of another, from its first.
    ///
    /// - Parameters:
    ///   - other: The chunk to copy from.
    ///   - count: How many of its entries, at most its claimed ones.
    init(copying other: TranscriptChunk, count: Int) {
        slots = .allocate(capacity: Self.capacity)
        slots.initialize(from: other.slots, count: count)
        claimed.store(count, ordering: .releasing)
    }

    deinit {
        slots.deinitialize(count: claimed.load(ordering: .acquiring))
        slots.deallocate()
    }

    /// Puts `entry` in slot `index` when that slot is the next free one, and says whether it was.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - index: The slot, below `capacity`.
    /// - Returns: `true` when the entry was stored; `false` when another value took the slot first.
    func claim(_ index: Int, for entry: Transcript.Entry) -> Bool {
        guard claimed.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        (slots + index).initialize(to: entry)
        return true
    }
}
