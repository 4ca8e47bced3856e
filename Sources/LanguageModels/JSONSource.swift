import ParleyJSON

/// The JSON object an entry was read from, kept beside it so that an entry read and not changed is written back
/// exactly as it was: its unknown members (a newer framework's `contextOptions`, `metadata`), its options in the
/// form they were written, its tool arguments' spacing.
///
/// It is not part of the entry's value: two entries are equal whatever their sources (`==` is always `true`, also
/// between an entry read from JSON and one built in code, which has none). `TranscriptJSON` decides, when it writes
/// an entry, whether the source still describes it.
struct JSONSource: Sendable, Hashable {
    /// The object as it was read, or `nil` for a value built in code.
    let object: JSONObject?

    /// A value built in code: no source.
    static let none = JSONSource(nil)

    init(_ object: JSONObject?) {
        self.object = object
    }

    /// `true`: a source does not make two entries differ.
    static func == (lhs: JSONSource, rhs: JSONSource) -> Bool { true }

    /// Nothing: a source does not make two entries hash apart.
    func hash(into hasher: inout Hasher) {}
}
