import GameWorld

/// What one write to a save did: how many SQL statements it ran and how many rows it changed.
///
/// An autosave's counts depend only on what changed (the NPC's new entries, the moved item), never on the size of
/// the world or of other NPCs' conversations; tests and benchmarks compare them.
public struct SaveWriteSummary: Sendable, Hashable {
    /// The SQL statements run inside the transaction, reads included.
    public var statements: Int
    /// The rows inserted, updated or deleted (rows deleted by cascades not counted).
    public var rowsWritten: Int
    /// The transcript entries appended.
    public var entriesAppended: Int
    /// The NPCs whose conversation was rewritten in full because it did not continue the saved one (an edited
    /// or trimmed transcript), sorted.
    public var rewrittenConversations: [NPCID]

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - statements: The SQL statements run.
    ///   - rowsWritten: The rows changed.
    ///   - entriesAppended: The transcript entries appended.
    ///   - rewrittenConversations: The conversations rewritten in full.
    public init(
        statements: Int = 0, rowsWritten: Int = 0, entriesAppended: Int = 0, rewrittenConversations: [NPCID] = []
    ) {
        self.statements = statements
        self.rowsWritten = rowsWritten
        self.entriesAppended = entriesAppended
        self.rewrittenConversations = rewrittenConversations
    }
}
