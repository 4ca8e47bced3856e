import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - items.json

extension ContentLoader {
    static let itemsFileFields = ["items"]
    static let itemFields = ["id", "name", "aliases", "description", "value", "category", "tags"]

    mutating func decodeItems(_ value: JSONValue) {
        guard let root = object(value, at: .root, what: "the item catalog") else { return }
        unknownFields(root, at: .root, known: Self.itemsFileFields)
        guard let elements = array("items", in: root, at: .root, required: true) else { return }
        counts.items = elements.count
        if elements.isEmpty { warning(JSONPath.root.key("items"), "the catalog has no items") }
        for (index, element) in elements.enumerated() {
            let path = JSONPath.root.key("items").index(index)
            guard let object = object(element, at: path, what: "an item") else { continue }
            let id = identifier("id", in: object, at: path, required: true, kind: "item")
            let name = string("name", in: object, at: path, required: true)
            let aliases = strings("aliases", in: object, at: path).map(\.0)
            let description = string("description", in: object, at: path, required: true)
            let itemValue = integer("value", in: object, at: path, required: true, range: Limits.value)
            let category = identifier("category", in: object, at: path, required: true, kind: "category")
            var tags: Set<ItemTag> = []
            for (tag, tagPath) in strings("tags", in: object, at: path) {
                let known = ItemTag.known.map(\.rawValue)
                if !known.contains(tag), let suggestion = Suggestions.closest(to: tag, in: known) {
                    warning(
                        tagPath, "unknown tag \"\(tag)\"",
                        hint:
                            Suggestions.didYouMean(suggestion)
                            + " Custom tags are allowed, but the rules only know \(known.joined(separator: " and "))"
                    )
                }
                tags.insert(ItemTag(tag))
            }
            unknownFields(object, at: path, known: Self.itemFields)
            guard let id else { continue }
            let itemID = ItemID(id)
            if let first = itemPaths[itemID] {
                error(path.key("id"), "duplicate item id \"\(id)\"", hint: "first defined at \(first.key("id"))")
                continue
            }
            itemPaths[itemID] = path
            guard let name, let description, let itemValue, let category else { continue }
            items.append(
                Item(
                    id: itemID, name: name, aliases: aliases, description: description, value: itemValue,
                    category: category, tags: tags))
        }
        itemsByID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
