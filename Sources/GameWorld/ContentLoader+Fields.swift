import ParleyBasics
import ParleyJSON

// MARK: - Reading fields

extension ContentLoader {
    /// `string "abc"`, `number 12`, `an array`...: how a value is named in "expected X, found Y".
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .number(let number): return "number \(number.text)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            return "string \(JSONValue.string(shown).jsonString())"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as an object, or an error saying what was expected.
    mutating func object(_ value: JSONValue, at path: JSONPath, what: String) -> JSONObject? {
        guard case .object(let object) = value else {
            error(path, "expected \(what) (an object), found \(Self.describe(value))")
            return nil
        }
        return object
    }

    /// The member `key` as an object; missing is an error when `required`.
    mutating func object(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool, what: String
    )
        -> JSONObject?
    {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        return self.object(value, at: path.key(key), what: what)
    }

    mutating func missing(_ key: String, at path: JSONPath) {
        error(path, "missing required field \"\(key)\"")
    }

    /// The member `key` as a string; missing is an error when `required`, an empty string always.
    mutating func string(_ key: String, in object: JSONObject, at path: JSONPath, required: Bool) -> String? {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        guard case .string(let text) = value else {
            error(path.key(key), "expected a string, found \(Self.describe(value))")
            return nil
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            error(path.key(key), "\"\(key)\" must not be empty")
            return nil
        }
        return text
    }

    /// The member `key` as a well-formed id (lowercase letters, digits and `_`).
    mutating func identifier(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool, kind: String
    )
        -> String?
    {
        guard let text = string(key, in: object, at: path, required: required) else { return nil }
        guard ItemID.isWellFormed(text) else {
            error(
                path.key(key), "\"\(text)\" is not a valid \(kind) id",
                hint:
                    "use lowercase letters, digits and _, starting with a letter, like \"\(Self.suggestedID(for: text))\""
            )
            return nil
        }
        return text
    }

    /// `Silver Sword!` becomes `silver_sword`.
    static func suggestedID(for text: String) -> String {
        var id = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty, !id.hasSuffix("_") {
                id += "_"
            }
        }
        while id.hasSuffix("_") { id.removeLast() }
        if id.isEmpty { return "my_id" }
        if let first = id.unicodeScalars.first, ("0"..."9").contains(first) { id = "id_" + id }
        return id
    }

    /// The member `key` as a whole number within `range`.
    mutating func integer(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool, range: ClosedRange<Int>
    ) -> Int? {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        let fieldPath = path.key(key)
        guard case .number = value, let number = value.intValue else {
            if case .string(let text) = value, let number = Int(text) {
                error(
                    fieldPath, "expected a whole number, found \(Self.describe(value))",
                    hint: "write \(number) without quotes")
            } else if case .number(let number) = value {
                error(fieldPath, "expected a whole number, found \(number.text)")
            } else {
                error(fieldPath, "expected a whole number, found \(Self.describe(value))")
            }
            return nil
        }
        guard range.contains(number) else {
            outOfRange(
                key, at: fieldPath, value: "\(number)", lower: "\(range.lowerBound)", upper: "\(range.upperBound)")
            return nil
        }
        return number
    }

    mutating func outOfRange(
        _ key: String, at path: JSONPath, value: String, lower: String, upper: String, hint: String? = nil
    ) {
        error(path, "\(key) must be from \(lower) to \(upper), found \(value)", hint: hint)
    }

    /// The member `key` as a price ratio with at most two decimals, within `range` (in hundredths).
    mutating func ratio(
        _ key: String, in object: JSONObject, at path: JSONPath, range: ClosedRange<Int>, hint: String? = nil
    ) -> PriceRatio? {
        guard let value = object[key] else { return nil }
        let fieldPath = path.key(key)
        guard case .number(let number) = value else {
            error(fieldPath, "expected a number, found \(Self.describe(value))")
            return nil
        }
        let scaled = number.doubleValue * 100
        guard scaled >= Double(range.lowerBound) - 1e-6, scaled <= Double(range.upperBound) + 1e-6 else {
            outOfRange(
                key, at: fieldPath, value: number.text, lower: "\(PriceRatio(hundredths: range.lowerBound))",
                upper: "\(PriceRatio(hundredths: range.upperBound))", hint: hint)
            return nil
        }
        guard let ratio = PriceRatio(number.doubleValue) else {
            error(
                fieldPath, "\(number.text) has more than two decimal places",
                hint: "prices are computed in hundredths; write for example 1.25")
            return nil
        }
        return ratio
    }

    /// The member `key` as a Boolean.
    mutating func bool(_ key: String, in object: JSONObject, at path: JSONPath) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else {
            var hint: String?
            if case .string(let text) = value, text == "true" || text == "false" {
                hint = "write \(text) without quotes"
            }
            error(path.key(key), "expected true or false, found \(Self.describe(value))", hint: hint)
            return nil
        }
        return flag
    }

    /// The member `key` as an array; missing is an error when `required`.
    mutating func array(_ key: String, in object: JSONObject, at path: JSONPath, required: Bool) -> [JSONValue]? {
        guard let value = object[key] else {
            if required { missing(key, at: path) }
            return nil
        }
        guard case .array(let elements) = value else {
            error(path.key(key), "expected an array, found \(Self.describe(value))")
            return nil
        }
        return elements
    }

    /// The member `key` as an array of non-empty strings, each with its path; bad elements are reported and
    /// left out.
    mutating func strings(_ key: String, in object: JSONObject, at path: JSONPath) -> [(String, JSONPath)] {
        guard let elements = array(key, in: object, at: path, required: false) else { return [] }
        var result: [(String, JSONPath)] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.key(key).index(index)
            guard case .string(let text) = element else {
                error(elementPath, "expected a string, found \(Self.describe(element))")
                continue
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                error(elementPath, "must not be empty")
                continue
            }
            result.append((text, elementPath))
        }
        return result
    }

    /// Warns about members not in `known` (except `$schema`), with a did-you-mean hint.
    mutating func unknownFields(_ object: JSONObject, at path: JSONPath, known: [String]) {
        for key in object.keys where key != "$schema" && !known.contains(key) {
            let hint =
                Suggestions.didYouMean(key, in: known)
                ?? "known fields: " + known.joined(separator: ", ")
            warning(path.key(key), "unknown field \"\(key)\"", hint: hint)
        }
    }

    /// Checks a reference to an id of `kind` (`item`, `location`, `NPC`): unknown is an error with a hint.
    @discardableResult
    mutating func reference(_ id: String, at path: JSONPath, kind: String, known: Set<String>) -> Bool {
        guard !known.contains(id), !unresolvedKinds.contains(kind) else { return true }
        let hint = Suggestions.didYouMean(id, in: known.sorted())
        error(path, "unknown \(kind) \"\(id)\"", hint: hint)
        return false
    }

    /// The member `key` as a reference (a string id) to an id of `kind`.
    mutating func reference(
        _ key: String, in object: JSONObject, at path: JSONPath, required: Bool, kind: String, known: Set<String>
    ) -> String? {
        guard let id = string(key, in: object, at: path, required: required) else { return nil }
        return reference(id, at: path.key(key), kind: kind, known: known) ? id : nil
    }

    /// The member `key` as an inventory, in either form (`Inventory.read`): `{"bread": 2}` or
    /// `[{"item": "bread", "quantity": 2}]`; empty when missing. Returns `nil` when any entry is wrong (after
    /// reporting every one).
    mutating func inventory(_ key: String, in object: JSONObject, at path: JSONPath) -> Inventory? {
        guard let value = object[key] else { return Inventory() }
        let known = unresolvedKinds.contains("item") ? nil : itemIDs
        let read = Inventory.read(value, file: file, at: path.key(key), knownItems: known)
        for diagnostic in read.diagnostics {
            report(diagnostic.severity, JSONPath(written: diagnostic.path), diagnostic.message, hint: diagnostic.hint)
        }
        return read.inventory
    }
}
