/// A request target split into decoded path segments and query parameters, safely.
///
/// Accepts the origin form (`/path?query`), the absolute form (`http://host/path?query`, whose scheme and
/// authority are dropped) and `*` (for `OPTIONS`). Every byte must be visible ASCII and `#` is refused (a
/// fragment is never sent). The path is split at `/` first and each segment decoded afterwards, so an escaped
/// `%2F` can never add a segment; a segment that decodes to something with `/`, a control character or invalid
/// UTF-8, or to `.` or `..` (a dot segment, written plainly or escaped), is refused: no path parameter can
/// smuggle a directory change into a handler that builds a file name.
struct RequestTarget: Equatable {
    /// The decoded segments: `/v1/games/g1` is `["v1", "games", "g1"]`, `/` is `[]`; empty segments (from `//` or a
    /// trailing `/`) are kept as `""`, which no route matches.
    let segments: [String]
    let query: QueryParameters
    /// Whether the target is `*`.
    let isAsterisk: Bool

    /// The decoded path: `/` followed by the segments joined with `/`.
    var path: String { "/" + segments.joined(separator: "/") }

    init(segments: [String], query: QueryParameters = QueryParameters(), isAsterisk: Bool = false) {
        self.segments = segments
        self.query = query
        self.isAsterisk = isAsterisk
    }

    /// Parses a target.
    ///
    /// - Throws: ``RequestFailure`` with 400 saying what is wrong.
    init(parsing target: String) throws(RequestFailure) {
        var bytes = Array(target.utf8)[...]
        if bytes.elementsEqual("*".utf8) {
            self.init(segments: [], isAsterisk: true)
            return
        }
        if let invalid = bytes.first(where: { !(0x21...0x7E).contains($0) || $0 == UInt8(ascii: "#") }) {
            throw .badRequest(
                "The request target has a character that must be percent-encoded (byte \(invalid)). "
                    + "Encode it as %XX.")
        }
        for scheme in ["http://", "https://"] {
            let prefix = Array(scheme.utf8)
            if bytes.count >= prefix.count,
                zip(bytes.prefix(prefix.count), prefix).allSatisfy({ ASCII.lowercased($0) == $1 })
            {
                let rest = bytes.dropFirst(prefix.count)
                let pathStart = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
                bytes = pathStart.map { rest[$0...] } ?? []
                if bytes.first != UInt8(ascii: "/") { bytes = ArraySlice([UInt8(ascii: "/")] + bytes) }
                break
            }
        }
        guard bytes.first == UInt8(ascii: "/") else {
            throw .badRequest("The request target must start with / (for example /v1/health).")
        }
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[..<(questionMark ?? bytes.endIndex)]
        let queryBytes = questionMark.map { bytes[bytes.index(after: $0)...] } ?? []

        var segments: [String] = []
        if pathBytes.count > 1 {
            for raw in pathBytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                segments.append(try Self.decodeSegment(raw))
            }
        }
        self.init(segments: segments, query: try Self.decodeQuery(queryBytes))
    }

    private static func decodeSegment(_ raw: ArraySlice<UInt8>) throws(RequestFailure) -> String {
        guard let decoded = PercentDecoding.decode(raw, plusIsSpace: false) else {
            throw .badRequest("The path has a malformed percent escape (% must be followed by two hex digits).")
        }
        if decoded.contains(UInt8(ascii: "/")) {
            throw .badRequest("The path has an encoded slash (%2F) inside a segment, which this server refuses.")
        }
        if decoded.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .badRequest("The path has an encoded control character, which this server refuses.")
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .badRequest("The path is not UTF-8 once percent-decoded. Encode text as UTF-8 before escaping it.")
        }
        if text == "." || text == ".." {
            throw .badRequest("The path has a dot segment (. or ..). Send the path without them.")
        }
        return text
    }

    private static func decodeQuery(_ raw: ArraySlice<UInt8>) throws(RequestFailure) -> QueryParameters {
        var items: [QueryParameters.Item] = []
        for pair in raw.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = pair[..<(equals ?? pair.endIndex)]
            let value = equals.map { pair[pair.index(after: $0)...] } ?? []
            guard let decodedName = PercentDecoding.decodeText(name, plusIsSpace: true),
                let decodedValue = PercentDecoding.decodeText(value, plusIsSpace: true)
            else {
                throw .badRequest(
                    "The query has a malformed percent escape or is not UTF-8 once decoded. "
                        + "Encode each name and value as UTF-8, then escape it (%XX).")
            }
            guard !decodedName.utf8.contains(0), !decodedValue.utf8.contains(0) else {
                throw .badRequest("The query has an encoded NUL character (%00), which this server refuses.")
            }
            items.append(QueryParameters.Item(name: decodedName, value: decodedValue))
        }
        return QueryParameters(items)
    }
}
