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
    /// The entries in order.
    public private(set) var entries: [Entry]

    /// Creates a transcript from entries.
    ///
    /// - Parameter entries: The entries in conversation order.
    public init(entries: some Sequence<Entry> = []) {
        self.entries = Array(entries)
    }

    /// An empty transcript.
    public init() {
        entries = []
    }

    // MARK: Collection

    /// The position of the first entry.
    public var startIndex: Int { entries.startIndex }
    /// The position after the last entry.
    public var endIndex: Int { entries.endIndex }

    /// The entry at `position`.
    public subscript(position: Int) -> Entry {
        get { entries[position] }
        set { entries[position] = newValue }
    }

    /// Replaces a range of entries.
    ///
    /// - Parameters:
    ///   - subrange: The entries to replace.
    ///   - newElements: The entries to put in their place.
    public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<Entry>) {
        entries.replaceSubrange(subrange, with: newElements)
    }

    // MARK: History

    /// The conversation without the leading instructions entry, if there is one.
    ///
    /// Setting it replaces everything after the instructions and keeps them.
    public var history: HistoryView {
        get { HistoryView(entries: Array(entries[historyStart...])) }
        set { entries.replaceSubrange(historyStart..., with: newValue.entries) }
    }

    /// The instructions entry at the start of the transcript, if there is one.
    public var instructions: Instructions? {
        if case .instructions(let instructions)? = entries.first { return instructions }
        return nil
    }

    private var historyStart: Int {
        if case .instructions? = entries.first { return 1 }
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
    public var description: String { entries.map(\.description).joined(separator: "\n") }
}
