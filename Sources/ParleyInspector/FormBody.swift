import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, as a browser sends a form: `name=value` pairs joined by
/// `&`, with `+` for a space and `%XX` for other bytes. A field given twice keeps its first value.
struct FormBody: Sendable, Equatable {
    /// The fields, by name.
    var fields: [String: String]

    /// Reads a body.
    ///
    /// - Parameter body: The body's bytes.
    /// - Throws: ``InspectorProblem`` (400) when a name or value is not UTF-8 once decoded.
    init(_ body: Data) throws(InspectorProblem) {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                throw InspectorProblem.badRequest(
                    "The form's field \"\(pair.prefix(40))\" is not percent-encoded UTF-8.")
            }
            if fields[name] == nil { fields[name] = value }
        }
        self.fields = fields
    }

    /// A name or value with `+` as a space and its `%XX` escapes decoded; `nil` when they are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A field, or `nil` when it is missing or empty once its spaces are trimmed.
    subscript(name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }
}
