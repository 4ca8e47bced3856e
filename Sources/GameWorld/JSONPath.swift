/// A JSON path in the notation of diagnostics: `$`, `$.inventory[2].item`, `$["odd key"]`.
package struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's text.
    package private(set) var description: String

    /// The whole document, `$`.
    package static let root = JSONPath(description: "$")

    /// The member `key` of the object at this path.
    package func key(_ key: String) -> JSONPath {
        let simple =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || $0 == "_" || $0 == "$" || ("0"..."9").contains($0)
            }
            && !("0"..."9").contains(key.unicodeScalars.first!)
        if simple { return JSONPath(description: description + "." + key) }
        var quoted = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return JSONPath(description: description + "[\"" + quoted + "\"]")
    }

    /// The element at `index` of the array at this path.
    package func index(_ index: Int) -> JSONPath { JSONPath(description: description + "[\(index)]") }
}

extension JSONPath {
    /// A path already written out in this notation, such as `$.player.inventory`.
    package init(written description: String) {
        self.description = description
    }
}
