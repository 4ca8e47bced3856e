import Foundation

extension HTTPServerRequest {
    /// The media type the request's `Accept` prefers among those a handler can send, by its quality values
    /// (RFC 9110, §12.5.1).
    ///
    /// Each offered type gets the quality (`q`, 1 when not given) of the most specific media range that matches it
    /// (`text/event-stream` before `text/*` before `*/*`); one that no range matches, or whose quality is 0, is not
    /// acceptable. Among the acceptable, the highest quality wins; a tie goes to the one matched by the more specific
    /// range, then to the range written first, then to the first offered. Without `Accept`, every type is
    /// acceptable and the first offered is chosen.
    ///
    /// ```swift
    /// // Accept: text/event-stream;q=0, application/json   → "application/json"
    /// // Accept: text/event-stream, application/json;q=0.5 → "text/event-stream"
    /// // Accept: */*                                        → "application/json", the first offered
    /// request.preferredMediaType(among: ["application/json", "text/event-stream"])
    /// ```
    ///
    /// - Parameter offered: The media types the handler can send, lower case, in the order it prefers them.
    /// - Returns: The chosen type, or `nil` when none is acceptable.
    public func preferredMediaType(among offered: [String]) -> String? {
        let ranges = Self.mediaRanges(headers.values(for: "Accept"))
        guard !ranges.isEmpty else { return offered.first }
        var best: (type: String, quality: Double, specificity: Int, position: Int)?
        for type in offered {
            let parts = type.lowercased().split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            var match: (quality: Double, specificity: Int, position: Int)?
            for (position, range) in ranges.enumerated() {
                let specificity: Int
                if range.type == parts[0] && range.subtype == parts[1] {
                    specificity = 2
                } else if range.type == parts[0] && range.subtype == "*" {
                    specificity = 1
                } else if range.type == "*" && range.subtype == "*" {
                    specificity = 0
                } else {
                    continue
                }
                if match == nil || specificity > match!.specificity {
                    match = (range.quality, specificity, position)
                }
            }
            guard let match, match.quality > 0 else { continue }
            if let current = best {
                let better =
                    match.quality > current.quality
                    || (match.quality == current.quality
                        && (match.specificity > current.specificity
                            || (match.specificity == current.specificity && match.position < current.position)))
                if !better { continue }
            }
            best = (type, match.quality, match.specificity, match.position)
        }
        return best?.type
    }

    /// The media ranges of `Accept` field values, in order: `type/subtype` in lower case with their quality; a range
    /// that is malformed, or has a malformed `q`, is left out.
    static func mediaRanges(_ values: [String]) -> [(type: String, subtype: String, quality: Double)] {
        var ranges: [(type: String, subtype: String, quality: Double)] = []
        for value in values {
            for element in value.split(separator: ",") {
                let parameters = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let range = parameters.first?.lowercased() else { continue }
                let parts = range.split(separator: "/", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0] != "*" || parts[1] == "*"
                else { continue }
                var quality = 1.0
                var valid = true
                for parameter in parameters.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                    if let q = Double(pair[1]), (0...1).contains(q), pair[1].count <= 5 {
                        quality = q
                    } else {
                        valid = false
                    }
                }
                if valid { ranges.append((parts[0], parts[1], quality)) }
            }
        }
        return ranges
    }
}
