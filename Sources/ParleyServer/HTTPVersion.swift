/// The HTTP version of a request: `HTTP/1.0` or `HTTP/1.1` (the server answers other versions with 505).
public struct HTTPVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version, `1`.
    public var major: Int
    /// The minor version: `0` or `1`; later HTTP/1 minor versions are served as `1`.
    public var minor: Int

    /// Creates a version.
    ///
    /// - Parameters:
    ///   - major: The major version.
    ///   - minor: The minor version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.0`: no keep-alive unless the client asks for it, and no chunked bodies.
    public static let http10 = HTTPVersion(major: 1, minor: 0)
    /// `HTTP/1.1`.
    public static let http11 = HTTPVersion(major: 1, minor: 1)

    /// Orders versions by major, then minor number.
    ///
    /// - Parameters:
    ///   - lhs: A version.
    ///   - rhs: Another version.
    /// - Returns: `true` when `lhs` is the earlier version.
    public static func < (lhs: HTTPVersion, rhs: HTTPVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// `HTTP/1.1`, as on the request line.
    public var description: String { "HTTP/\(major).\(minor)" }
}
