import GameWorld
import ParleyBasics
import ParleyJSON

// Inventories as people write them: in a content pack (the player's start, an NPC's stock, a location's items), in
// a conversation test plan, in an evaluation case. One reader for all of them, so every place takes both forms and
// says the same thing about the same mistake.

extension Inventory {
    /// Reads an inventory written in either form, reporting every problem on the file and JSON path concerned.
    ///
    /// The two forms hold the same thing:
    ///
    /// ```json
    /// {"bread": 2, "lantern": 1}
    /// [{"item": "bread", "quantity": 2}, {"item": "lantern"}]
    /// ```
    ///
    /// In an array, `quantity` is 1 when left out. Errors: a value that is neither an object nor an array, an entry
    /// that is not an object or has no `item`, an item id that is not a string or is empty, a quantity that is not a
    /// whole number from 1 to `GameLimits.maximumQuantity`, an item listed twice, and (when `knownItems` is given) an
    /// item the pack does not have, with the id it probably meant. An unknown member of an entry is a warning.
    ///
    /// ```
    /// tests/mira.json: $.player.inventory.bread: quantity must be from 1 to 10000, found 0
    /// npcs/mira.json: $.inventory[2].item: unknown item "silver_swrod" (did you mean "silver_sword"?)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The inventory's JSON value.
    ///   - file: The file, as messages show it.
    ///   - path: The value's JSON path in the file, for example `$.player.inventory`.
    ///   - knownItems: The items the pack has; `nil` leaves item ids unchecked (when the pack is not known yet).
    /// - Returns: The inventory, `nil` when there is any error; and every diagnostic, in document order.
    public static func read(
        _ value: JSONValue, file: String, path: String, knownItems: Set<ItemID>? = nil
    ) -> (inventory: Inventory?, diagnostics: [ContentDiagnostic]) {
        read(value, file: file, at: JSONPath(written: path), knownItems: knownItems.map { Set($0.map(\.rawValue)) })
    }

    /// Reads an inventory in either form; see `read(_:file:path:knownItems:)`.
    static func read(
        _ value: JSONValue, file: String, at path: JSONPath, knownItems: Set<String>?
    ) -> (inventory: Inventory?, diagnostics: [ContentDiagnostic]) {
        var reader = InventoryReader(file: file, knownItems: knownItems)
        let inventory = reader.read(value, at: path)
        return (reader.hasErrors ? nil : inventory, reader.diagnostics)
    }
}

/// Reads one inventory, collecting diagnostics.
private struct InventoryReader {
    let file: String
    let knownItems: Set<String>?
    var diagnostics: [ContentDiagnostic] = []
    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    init(file: String, knownItems: Set<String>?) {
        self.file = file
        self.knownItems = knownItems
    }

    mutating func report(_ severity: ContentDiagnostic.Severity, _ path: JSONPath, _ message: String, hint: String?) {
        diagnostics.append(
            ContentDiagnostic(severity, file: file, path: path.description, message: message, hint: hint))
    }

    mutating func error(_ path: JSONPath, _ message: String, hint: String? = nil) {
        report(.error, path, message, hint: hint)
    }

    mutating func read(_ value: JSONValue, at path: JSONPath) -> Inventory {
        var inventory = Inventory()
        switch value {
        case .object(let object):
            for (item, amount) in object {
                let entryPath = path.key(item)
                let known = self.item(item, at: entryPath)
                if let count = quantity(amount, at: entryPath), known { inventory.add(ItemID(item), quantity: count) }
            }
        case .array(let elements):
            var seen: [String: JSONPath] = [:]
            for (index, element) in elements.enumerated() {
                let entryPath = path.index(index)
                guard case .object(let entry) = element else {
                    error(
                        entryPath,
                        "expected an item and its quantity (an object), found \(ContentLoader.describe(element))")
                    continue
                }
                let item = itemMember(of: entry, at: entryPath)
                let count = entry["quantity"].map { quantity($0, at: entryPath.key("quantity")) } ?? 1
                for key in entry.keys where key != "item" && key != "quantity" {
                    let hint =
                        Suggestions.didYouMean(key, in: ["item", "quantity"])
                        ?? "known fields: item, quantity"
                    report(.warning, entryPath.key(key), "unknown field \"\(key)\"", hint: hint)
                }
                guard let item else { continue }
                if let first = seen[item] {
                    error(
                        entryPath.key("item"), "\"\(item)\" is listed twice (first at \(first))",
                        hint: "add the quantities up in one entry")
                    continue
                }
                seen[item] = entryPath.key("item")
                if let count { inventory.add(ItemID(item), quantity: count) }
            }
        default:
            error(
                path, "expected an inventory (an object or an array), found \(ContentLoader.describe(value))",
                hint: #"write {"bread": 2} or [{"item": "bread", "quantity": 2}]"#)
        }
        return inventory
    }

    /// An entry's `item`: a known item id; `nil` (after reporting why) when it is missing, not a string, empty or
    /// unknown.
    mutating func itemMember(of entry: JSONObject, at path: JSONPath) -> String? {
        guard let value = entry["item"] else {
            error(path, "missing required field \"item\"")
            return nil
        }
        guard case .string(let item) = value else {
            error(path.key("item"), "expected a string, found \(ContentLoader.describe(value))")
            return nil
        }
        return self.item(item, at: path.key("item")) ? item : nil
    }

    /// Whether an item id is usable: not empty, and one of the known items when they are known.
    mutating func item(_ item: String, at path: JSONPath) -> Bool {
        guard !item.allSatisfy(\.isWhitespace) else {
            error(path, "an item id must not be empty")
            return false
        }
        guard let knownItems, !knownItems.contains(item) else { return true }
        error(
            path, "unknown item \"\(item)\"",
            hint: Suggestions.didYouMean(item, in: knownItems.sorted()))
        return false
    }

    /// A quantity: a whole number from 1 to `GameLimits.maximumQuantity`.
    mutating func quantity(_ value: JSONValue, at path: JSONPath) -> Int? {
        let range = ContentLoader.Limits.quantity
        guard case .number = value, let quantity = value.intValue else {
            if case .string(let text) = value, let number = Int(text) {
                error(
                    path, "expected a whole number, found \(ContentLoader.describe(value))",
                    hint: "write \(number) without quotes")
            } else if case .number(let number) = value {
                error(path, "expected a whole number, found \(number.text)")
            } else {
                error(path, "expected a whole number, found \(ContentLoader.describe(value))")
            }
            return nil
        }
        guard range.contains(quantity) else {
            error(path, "quantity must be from \(range.lowerBound) to \(range.upperBound), found \(quantity)")
            return nil
        }
        return quantity
    }
}
