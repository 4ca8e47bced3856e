/// Makes a URL safe to print in errors and logs.
///
/// Query strings often carry API keys (`?key=…`) and the authority may carry `user:password@`, so both go.
/// Pure Swift on purpose: it must also work on URLs that libcurl rejects, to name them in the error.
enum URLRedactor {
    /// URLs longer than this are cut, so a hostile or broken URL cannot flood a log line.
    static let maximumLength = 2_000

    static func redact(_ url: String) -> String {
        var kept = Substring(url)
        if let end = kept.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            kept = kept[..<end]
        }
        if let separator = kept.range(of: "://") {
            let authorityStart = separator.upperBound
            let authorityEnd = kept[authorityStart...].firstIndex(of: "/") ?? kept.endIndex
            if let at = kept[authorityStart..<authorityEnd].lastIndex(of: "@") {
                kept = kept[..<authorityStart] + kept[kept.index(after: at)...]
            }
        }
        var printable = ""
        for scalar in kept.unicodeScalars.prefix(maximumLength) {
            // Control characters would let a URL forge extra log lines.
            if scalar.properties.generalCategory == .control {
                printable += "%" + String(scalar.value, radix: 16, uppercase: true)
            } else {
                printable.unicodeScalars.append(scalar)
            }
        }
        if kept.unicodeScalars.count > maximumLength {
            printable += "…"
        }
        return printable
    }
}
