/// Whether a server keeps KV caches in slot files (llama-server started with `--slot-save-path`), as far as the
/// backend knows.
public enum SlotCacheSupport: String, Sendable, Equatable, CustomStringConvertible {
    /// Not known yet: no slot action was needed so far.
    case unknown
    /// The server saves and restores slots; requests of keyed copies are pinned to slots.
    case available
    /// The server is not llama-server, was started without `--slot-save-path`, or refused a slot action with 404,
    /// 405 or 501. The backend sends no more slot actions and does not pin requests: it works as without caches.
    case unavailable

    /// The case's name.
    public var description: String { rawValue }
}
