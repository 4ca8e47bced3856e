import ParleyJSON

/// The JSON object an entry was read from, kept beside it so that an entry read and not changed is written back
/// exactly as it was: its unknown members (a newer framework's `contextOptions`, `metadata`), its options in the
/// form they were written, its tool arguments' spacing.
///
/// It is not part of the entry's value: two entries are equal whatever their sources (`==` is always `true`, also
/// between an entry read from JSON and one built in code, which has none). `TranscriptJSON` decides, when it writes
/// an entry, whether the source still describes it: the entry as it was read is kept too, and compared.
struct JSONSource: Sendable, Hashable {
    /// The object and the entry read from it, shared by every copy of the entry.
    private final class Storage: Sendable {
        let object: JSONObject
        let entry: Transcript.Entry?

        init(object: JSONObject, entry: Transcript.Entry?) {
            self.object = object
            self.entry = entry
        }
    }

    private let storage: Storage?

    /// The object as it was read, or `nil` for a value built in code.
    var object: JSONObject? { storage?.object }

    /// The entry as `object` was read, to tell whether the entry has changed since; `nil` for a value built in code
    /// and for a transcript's document.
    var entryAsRead: Transcript.Entry? { storage?.entry }

    /// A value built in code: no source.
    static let none = JSONSource()

    private init() {
        storage = nil
    }

    /// The source of a value read from `object`.
    ///
    /// - Parameters:
    ///   - object: The object read.
    ///   - entry: The entry read from it (without a source), if it is an entry's object.
    init(_ object: JSONObject, readAs entry: Transcript.Entry? = nil) {
        storage = Storage(object: object, entry: entry)
    }

    /// `true`: a source does not make two entries differ.
    static func == (lhs: JSONSource, rhs: JSONSource) -> Bool { true }

    /// Nothing: a source does not make two entries hash apart.
    func hash(into hasher: inout Hasher) {}
}
