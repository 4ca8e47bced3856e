/// File names for exported reports, made from ids that come from saves and so cannot be trusted.
///
/// A report's id is read from a save file, which may have been shared or edited: `../../.bashrc` is as possible
/// as a UUID. The file name keeps only the id's ASCII letters and digits, `-` and `_`, so it is always one plain
/// name inside the output folder, never a path, never hidden, never an option.
enum ExportFileNames {
    /// The longest base name, in characters (all ASCII): a UUID is 36.
    static let maximumLength = 64

    /// The file's base name (without extension) for an id.
    ///
    /// ASCII letters and digits, `-` and `_` are kept as they are (case too: a UUID id keeps its file name
    /// `<id>.json`); every other run of characters (`/`, `.`, spaces, controls, other scripts) becomes one `-`;
    /// leading and trailing `-` and `_` are dropped and the name is cut to ``maximumLength``. An id with nothing
    /// left is named `report`.
    ///
    /// ```swift
    /// ExportFileNames.baseName(for: "5E0B3C5A-6A0C-4E8B-9C55-3F1A8B2D7E10")  // the same
    /// ExportFileNames.baseName(for: "../../escaped-report")                  // "escaped-report"
    /// ExportFileNames.baseName(for: "..")                                    // "report"
    /// ```
    ///
    /// - Parameter id: The report's id, as stored.
    /// - Returns: A non-empty name of ASCII letters, digits, `-` and `_`.
    static func baseName(for id: String) -> String {
        var name = ""
        var pendingSeparator = false
        for scalar in id.unicodeScalars {
            if isKept(scalar) {
                if pendingSeparator, !name.isEmpty { name.append("-") }
                pendingSeparator = false
                name.unicodeScalars.append(scalar)
            } else {
                pendingSeparator = true
            }
        }
        let trimmed = name.drop { $0 == "-" || $0 == "_" }.prefix(maximumLength)
        let result = String(trimmed.reversed().drop { $0 == "-" || $0 == "_" }.reversed())
        return result.isEmpty ? "report" : result
    }

    /// Distinct file names for ids, in order: `<baseName>.<fileExtension>`, with `-2`, `-3`, … added to a base
    /// name an earlier id already took.
    ///
    /// Names are compared ignoring case, so that two files never share a name on a case-insensitive file system
    /// either. The same ids in the same order always get the same names.
    ///
    /// ```swift
    /// ExportFileNames.fileNames(for: ["a/b", "a-b", "A-B"], fileExtension: "json")
    /// // ["a-b.json", "a-b-2.json", "A-B-3.json"]
    /// ```
    ///
    /// - Parameters:
    ///   - ids: The reports' ids.
    ///   - fileExtension: The extension, without the dot.
    /// - Returns: One file name per id.
    static func fileNames(for ids: [String], fileExtension: String) -> [String] {
        var taken = Set<String>()
        return ids.map { id in
            let base = baseName(for: id)
            var name = "\(base).\(fileExtension)"
            var number = 2
            while taken.contains(name.lowercased()) {
                name = "\(base)-\(number).\(fileExtension)"
                number += 1
            }
            taken.insert(name.lowercased())
            return name
        }
    }

    /// Whether a character is kept in a file name as it is: an ASCII letter or digit, `-` or `_`.
    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }
}
