import SaveGames
import Synchronization

/// What the inspector's list of saves read of each save (its NPCs with their turns, its reports), kept beside the
/// save's fingerprint: a save unchanged since is not opened again, so `/inspect` stays quick however many saves the
/// folder holds. A save whose fingerprint changed (written since, replaced) is read again.
final class InspectorSummaryCache: Sendable {
    /// The summaries, by slot, with the fingerprint of the file they were read from; the mutex guards them.
    private let entries = Mutex<[String: (fingerprint: SaveFingerprint, summary: Inspector.SaveSummary)]>([:])

    /// A slot's summary when its file is unchanged since it was kept.
    func summary(_ slot: String, fingerprint: SaveFingerprint?) -> Inspector.SaveSummary? {
        guard let fingerprint else { return nil }
        return entries.withLock { entries in
            entries[slot].flatMap { $0.fingerprint == fingerprint ? $0.summary : nil }
        }
    }

    /// Keeps a slot's summary, read from the file with this fingerprint.
    func keep(_ summary: Inspector.SaveSummary, fingerprint: SaveFingerprint) {
        entries.withLock { $0[summary.slot] = (fingerprint, summary) }
    }
}
