import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - Reading fields

extension ContentLoader {
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
                    "use lowercase letters, digits and _, starting with a letter, like \"\(ItemID.suggestion(for: text))\""
            )
            return nil
        }
        return text
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
