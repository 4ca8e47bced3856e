import LanguageModels

/// The arguments of the tools that move one item between the NPC and the player (`giveItem`, `acceptGift`).
struct ItemArguments {
    /// The properties of the schema: `item`, and `quantity` at least 1.
    static var schemaProperties: [GenerationSchema.Property] {
        [
            .init(name: "item", type: String.self),
            .init(name: "quantity", type: Int?.self, guides: [.minimum(1)]),
        ]
    }

    /// `{"item", "quantity"?}`.
    static func content(item: String, quantity: Int?) -> GeneratedContent {
        var builder = ContentBuilder()
        builder.add("item", item)
        builder.add("quantity", quantity)
        return builder.content
    }

    /// Reads `{"item", "quantity"?}`.
    static func read(_ content: GeneratedContent, as type: Any.Type) throws -> (item: String, quantity: Int?) {
        let reader = ContentReader(content, reading: type)
        return (try reader.string("item"), try reader.optionalInteger("quantity"))
    }
}
