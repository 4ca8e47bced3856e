import Foundation

/// A session's conversation: instructions, prompts, tool calls and their outputs, and responses, in order.
///
/// A transcript is a value. Read it to show or inspect a conversation, change it to trim one, encode it to save
/// one, and pass it to `LanguageModelSession(model:tools:transcript:)` to continue one.
///
/// ```swift
/// for entry in session.transcript {
///     switch entry {
///     case .prompt(let prompt): print("Player:", prompt)
///     case .response(let response): print("NPC:", response)
///     default: break
///     }
/// }
/// ```
///
/// Its `Codable` form is Apple's transcript JSON (`{"version":1,"type":"FoundationModels.Transcript",...}`), so
/// transcripts written by Apple's framework decode here and the other way round; see `docs/transcript-format.md`.
public struct Transcript: Sendable, Equatable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// The entries, `TranscriptChunk.capacity` to a chunk, shared with the values this one was copied from or to;
    /// the last chunk may hold entries after this value's end (another value's).
    private var chunks: [TranscriptChunk]
    /// How many entries this value holds.
    private var length: Int
    /// For a transcript read from JSON, what was read around its entries (the version as written, members this
    /// version does not know), written back around them. Not part of the value (`==` ignores it).
    var format = JSONSource.none

    /// The entries in order, as an array (a copy: iterate or index the transcript itself where that will do).
    public var entries: [Entry] { Array(self) }

    /// Creates a transcript from entries.
    ///
    /// - Parameter entries: The entries in conversation order.
    public init(entries: some Sequence<Entry> = []) {
        if let transcript = entries as? Transcript {
            self = transcript
            return
        }
        self.init()
        for entry in entries { appendEntry(entry) }
    }

    /// An empty transcript.
    public init() {
        chunks = []
        length = 0
    }

    // MARK: Collection

    /// The position of the first entry.
    public var startIndex: Int { 0 }
    /// The position after the last entry.
    public var endIndex: Int { length }

    /// The entry at `position`.
    ///
    /// Setting an entry copies at most the one chunk of entries that holds it, and only when another value shares
    /// that chunk.
    public subscript(position: Int) -> Entry {
        get {
            precondition(position >= 0 && position < length, "Transcript index out of range")
            return chunks[position >> TranscriptChunk.shift].slots[position & (TranscriptChunk.capacity - 1)]
        }
        set {
            precondition(position >= 0 && position < length, "Transcript index out of range")
            let chunk = position >> TranscriptChunk.shift
            if !isKnownUniquelyReferenced(&chunks[chunk]) {
                chunks[chunk] = TranscriptChunk(copying: chunks[chunk], count: count(inChunk: chunk))
            }
            chunks[chunk].slots[position & (TranscriptChunk.capacity - 1)] = newValue
        }
    }

    /// Replaces a range of entries.
    ///
    /// Appending costs the entries appended (and, when another value appended to the same conversation first, a copy
    /// of one chunk of entries), however long the transcript: values that share a conversation share its entries.
    ///
    /// - Parameters:
    ///   - subrange: The entries to replace.
    ///   - newElements: The entries to put in their place.
    public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<Entry>) {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= length, "Transcript range out of bounds")
        let tail = subrange.upperBound == length ? [] : Array(self[subrange.upperBound...])
        truncate(to: subrange.lowerBound)
        for entry in newElements { appendEntry(entry) }
        for entry in tail { appendEntry(entry) }
    }

    /// Whether two transcripts hold equal entries; entries they share are not compared.
    public static func == (lhs: Transcript, rhs: Transcript) -> Bool {
        guard lhs.length == rhs.length else { return false }
        for chunk in lhs.chunks.indices where lhs.chunks[chunk] !== rhs.chunks[chunk] {
            let base = chunk << TranscriptChunk.shift
            for position in base..<(base + lhs.count(inChunk: chunk)) where lhs[position] != rhs[position] {
                return false
            }
        }
        return true
    }

    // MARK: Storage

    /// Whether this value and `other` are the same entries in the same storage: `other` is a copy of this value, or
    /// the other way round, and neither was changed since (a check of the chunks, not of the entries).
    func sharesStorage(with other: Transcript) -> Bool {
        length == other.length && chunks.count == other.chunks.count
            && zip(chunks, other.chunks).allSatisfy { $0 === $1 }
    }

    /// How many of this value's entries chunk `chunk` holds.
    private func count(inChunk chunk: Int) -> Int {
        Swift.min(TranscriptChunk.capacity, length - (chunk << TranscriptChunk.shift))
    }

    /// Appends one entry: into the next slot of the last chunk if no other value has taken it, else into a copy of
    /// that chunk, or into a new chunk.
    private mutating func appendEntry(_ entry: Entry) {
        let slot = length & (TranscriptChunk.capacity - 1)
        if slot == 0 {
            let chunk = TranscriptChunk()
            _ = chunk.claim(0, for: entry)
            chunks.append(chunk)
        } else if !chunks[chunks.count - 1].claim(slot, for: entry) {
            let copy = TranscriptChunk(copying: chunks[chunks.count - 1], count: slot)
            _ = copy.claim(slot, for: entry)
            chunks[chunks.count - 1] = copy
        }
        length += 1
    }

    /// Keeps the first `count` entries.
    private mutating func truncate(to count: Int) {
        guard count < length else { return }
        length = count
        let needed = (count + TranscriptChunk.capacity - 1) >> TranscriptChunk.shift
        if chunks.count > needed { chunks.removeLast(chunks.count - needed) }
    }

    // MARK: History

    /// The conversation without the leading instructions entry, if there is one.
    ///
    /// Setting it replaces everything after the instructions and keeps them.
    public var history: HistoryView {
        get { HistoryView(entries: Array(self[historyStart...])) }
        set { replaceSubrange(historyStart..., with: newValue.entries) }
    }

    /// The instructions entry at the start of the transcript, if there is one.
    public var instructions: Instructions? {
        if case .instructions(let instructions)? = first { return instructions }
        return nil
    }

    private var historyStart: Int {
        if case .instructions? = first { return 1 }
        return 0
    }

    /// The entries of a transcript after its leading instructions.
    public struct HistoryView: Sendable, Equatable, RandomAccessCollection, RangeReplaceableCollection {
        /// The entries in order.
        public private(set) var entries: [Entry]

        /// An empty history.
        public init() { entries = [] }

        init(entries: [Entry]) { self.entries = entries }

        /// The position of the first entry.
        public var startIndex: Int { entries.startIndex }
        /// The position after the last entry.
        public var endIndex: Int { entries.endIndex }
        /// The entry at `position`.
        public subscript(position: Int) -> Entry { entries[position] }

        /// Replaces a range of entries.
        ///
        /// - Parameters:
        ///   - subrange: The entries to replace.
        ///   - newElements: The entries to put in their place.
        public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<Entry>) {
            entries.replaceSubrange(subrange, with: newElements)
        }
    }
}

extension Transcript: CustomStringConvertible {
    /// The conversation as readable text, one entry per paragraph.
    public var description: String { map(\.description).joined(separator: "\n") }
}
