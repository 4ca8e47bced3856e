import Foundation

/// One slot in a save folder, as ``SaveGameStore/list()`` shows it.
///
/// A slot is either saved (``metadata`` set), empty (created but never saved: both `nil`), or unreadable
/// (``error`` set, saying why and what to do).
public struct SaveSlotSummary: Sendable {
    /// The slot's name: the file name without `.parley`.
    public var slot: String
    /// The save file.
    public var url: URL
    /// The save's metadata (label, times, play time, world, location), when it could be read.
    public var metadata: SaveMetadata?
    /// Why the file could not be read, when it could not.
    public var error: SaveGameError?

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - slot: The slot's name.
    ///   - url: The save file.
    ///   - metadata: The save's metadata.
    ///   - error: Why the file could not be read.
    public init(slot: String, url: URL, metadata: SaveMetadata?, error: SaveGameError?) {
        self.slot = slot
        self.url = url
        self.metadata = metadata
        self.error = error
    }
}
