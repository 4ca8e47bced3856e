import ContentPacks
import Foundation
import GameWorld
import ParleyJSON

/// Generates large content packs from a seed, for scale tests and benchmarks.
///
/// The same seed and sizes always give the same files, on every platform. The pack is a grid of locations
/// (every location reachable), a catalog of items in eight categories, NPCs with random stock and trade
/// policies, and a goal: bring the quest item `item_0` to the collector `npc_0`. Generated packs pass
/// `parley content check` without errors or warnings.
///
/// ```swift
/// let pack = SyntheticWorld.generate(seed: 7, locations: 2_000, npcs: 5_000, items: 3_000)
/// ```
public enum SyntheticWorld {
    static let categories = ["weapon", "tool", "food", "drink", "clothing", "curio", "gem", "book"]
    static let adjectives = [
        "Mossy", "Gilded", "Crooked", "Silent", "Windy", "Amber", "Hollow", "Iron", "Misty", "Old", "Red", "Sunken",
        "Bright", "Copper", "Dusky", "Frosty",
    ]
    static let places = [
        "Crossroads", "Market", "Lane", "Square", "Bridge", "Orchard", "Wharf", "Alley", "Court", "Gate", "Yard",
        "Terrace",
    ]
    static let things: [String: [String]] = [
        "weapon": ["Sword", "Dagger", "Axe", "Spear", "Mace"], "tool": ["Hammer", "Saw", "Rope", "Lantern", "Chisel"],
        "food": ["Loaf", "Pie", "Cheese", "Apple", "Sausage"], "drink": ["Ale", "Cider", "Wine", "Tea", "Mead"],
        "clothing": ["Cloak", "Boots", "Hat", "Gloves", "Scarf"],
        "curio": ["Figurine", "Locket", "Coin", "Mask", "Bell"],
        "gem": ["Ruby", "Opal", "Garnet", "Pearl", "Topaz"], "book": ["Almanac", "Atlas", "Ledger", "Primer", "Codex"],
    ]
    static let firstNames = [
        "Ada", "Bram", "Cora", "Dunstan", "Elsa", "Fenn", "Greta", "Hal", "Isolde", "Jory", "Kestra", "Lorcan", "Maud",
        "Nils", "Orla", "Piet",
    ]
    static let lastNames = [
        "Ashby", "Brook", "Carrow", "Dale", "Eld", "Finch", "Gorse", "Hale", "Ives", "Joss", "Kell", "Lark",
    ]

    /// The pack's files as JSON text, by path inside the pack (`world.json`, `items.json`, `npcs/npc_0.json`).
    ///
    /// - Parameters:
    ///   - seed: The seed; the same seed gives the same files.
    ///   - locations: How many locations, at least 1.
    ///   - npcs: How many NPCs, at least 1.
    ///   - items: How many kinds of item, at least 2.
    /// - Returns: The files.
    public static func files(seed: UInt64, locations: Int, npcs: Int, items: Int) -> [String: String] {
        precondition(locations >= 1 && npcs >= 1 && items >= 2, "a synthetic world needs 1 location, 1 NPC, 2 items")
        var random = SplitMix64(seed: seed)
        var files: [String: String] = [:]

        // Items: item_0 is the quest item.
        var itemObjects: [JSONValue] = []
        var categoryOf: [String] = []
        for index in 0..<items {
            let category = index == 0 ? "curio" : random.pick(categories)
            let name =
                index == 0 ? "Lost Heirloom" : "\(random.pick(adjectives)) \(random.pick(things[category]!)) \(index)"
            categoryOf.append(category)
            let item: JSONValue = [
                "id": .string("item_\(index)"), "name": .string(name),
                "description": .string("A \(name.lowercased()), item number \(index)."),
                "value": .integer(index == 0 ? 100 : random.next(in: 1...500)), "category": .string(category),
                "tags": index == 0 ? ["quest"] : [],
            ]
            itemObjects.append(item)
        }
        files["items.json"] = document(["$schema": "schema/items.schema.json", "items": .array(itemObjects)])
        let tradeable = Array(1..<items)

        // Locations: a grid, so that every location can be reached.
        let width = Int(Double(locations).squareRoot().rounded(.up))
        var locationObjects: [JSONValue] = []
        let questLocation = random.next(below: locations)
        for index in 0..<locations {
            let (x, y) = (index % width, index / width)
            var exits: [JSONValue] = []
            let neighbours = [("north", x, y - 1), ("south", x, y + 1), ("east", x + 1, y), ("west", x - 1, y)]
            for (direction, nx, ny) in neighbours where nx >= 0 && nx < width && ny >= 0 {
                let target = ny * width + nx
                if target < locations {
                    exits.append(["direction": .string(direction), "to": .string("loc_\(target)")])
                }
            }
            var lying = stacks(&random, from: tradeable, count: random.next(in: 0...2))
            if index == questLocation { lying.append(["item": "item_0"]) }
            let name = "\(random.pick(adjectives)) \(random.pick(places))"
            locationObjects.append(
                [
                    "id": .string("loc_\(index)"), "name": .string(name),
                    "description": .string("The \(name.lowercased()), place number \(index)."),
                    "exits": .array(exits), "items": .array(lying),
                ])
        }
        let world: JSONValue = [
            "$schema": "schema/world.schema.json", "id": .string("synthetic_\(seed)"),
            "title": .string("Synthetic World \(seed)"),
            "introduction": .string("A generated world of \(locations) locations."),
            "start": [
                "name": "Tester", "location": "loc_0", "gold": 100,
                "inventory": .array(stacks(&random, from: tradeable, count: min(3, tradeable.count))),
            ],
            "locations": .array(locationObjects),
            "goal": [
                "description": "Bring the Lost Heirloom to npc_0.",
                "requirements": [["type": "npcHasItem", "npc": "npc_0", "item": "item_0"]],
            ],
        ]
        files["world.json"] = document(world)

        // NPCs: stock from the catalog, sells what they stock, buys a few categories that exist.
        let existing = Array(Set(tradeable.map { categoryOf[$0] })).sorted()
        for index in 0..<npcs {
            let stock = stacks(&random, from: tradeable, count: random.next(in: 1...min(5, tradeable.count)))
            let stocked = Array(
                Set(stock.compactMap { $0["item"]?.stringValue }.map { categoryOf[Int($0.dropFirst(5))!] })
            ).sorted()
            var trade: JSONValue
            if random.chance(80) {
                let markup = random.next(in: 100...200)
                let minimum = random.next(in: 80...markup)
                let buyBack = random.next(in: 10...min(90, minimum))
                var buys: [JSONValue] = []
                for _ in 0..<random.next(in: 1...3) {
                    let category = JSONValue.string(random.pick(existing))
                    if !buys.contains(category) { buys.append(category) }
                }
                trade = [
                    "trades": true, "sells": .array(stocked.map { .string($0) }), "buys": .array(buys),
                    "sellMarkup": ratio(markup), "buyBackRate": ratio(buyBack), "minimumPriceRatio": ratio(minimum),
                ]
            } else {
                trade = ["trades": false]
            }
            let name = "\(random.pick(firstNames)) \(random.pick(lastNames))"
            let npc: JSONValue = [
                "$schema": "../schema/npc.schema.json", "id": .string("npc_\(index)"), "name": .string(name),
                "persona": .string("\(name), a trader of the synthetic world who speaks plainly."),
                "location": .string("loc_\(random.next(below: locations))"),
                "gold": .integer(random.next(in: 0...1_000)),
                "inventory": .array(stock), "trade": trade,
            ]
            files["npcs/npc_\(index).json"] = document(npc)
        }
        return files
    }

    /// Generates a pack and loads it.
    ///
    /// - Parameters:
    ///   - seed: The seed; the same seed gives the same pack.
    ///   - locations: How many locations, at least 1.
    ///   - npcs: How many NPCs, at least 1.
    ///   - items: How many kinds of item, at least 2.
    /// - Returns: The loaded pack.
    public static func generate(seed: UInt64, locations: Int, npcs: Int, items: Int) -> ContentPack {
        let result = ContentPack.load(
            files: files(seed: seed, locations: locations, npcs: npcs, items: items), displayPath: "synthetic")
        guard let pack = result.pack else {
            preconditionFailure("the synthetic world generator made a broken pack:\n\(ContentCheckReport(result).text)")
        }
        return pack
    }

    /// Writes a generated pack to a directory, creating it and its `npcs/` folder.
    ///
    /// The pack's `$schema` references point to `schema/` inside the directory, which is not written; copy
    /// `Content/schema` there for editors to validate the files.
    ///
    /// - Parameters:
    ///   - seed: The seed; the same seed gives the same pack.
    ///   - locations: How many locations, at least 1.
    ///   - npcs: How many NPCs, at least 1.
    ///   - items: How many kinds of item, at least 2.
    ///   - directory: Where to write the pack.
    /// - Throws: Errors from creating folders or writing files.
    public static func write(seed: UInt64, locations: Int, npcs: Int, items: Int, to directory: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(
            at: directory.appendingPathComponent(ContentPack.npcsDirectoryName), withIntermediateDirectories: true)
        for (path, text) in files(seed: seed, locations: locations, npcs: npcs, items: items) {
            try Data(text.utf8).write(to: directory.appendingPathComponent(path))
        }
    }

    // MARK: - Helpers

    /// `count` stacks of distinct items from `candidates`.
    private static func stacks(_ random: inout SplitMix64, from candidates: [Int], count: Int) -> [JSONValue] {
        var chosen: [Int] = []
        while chosen.count < min(count, candidates.count) {
            let candidate = random.pick(candidates)
            if !chosen.contains(candidate) { chosen.append(candidate) }
        }
        return chosen.map { ["item": .string("item_\($0)"), "quantity": .integer(random.next(in: 1...5))] }
    }

    private static func ratio(_ hundredths: Int) -> JSONValue {
        .number(JSONNumber(text: PriceRatio(hundredths: hundredths).description)!)
    }

    private static func document(_ value: JSONValue) -> String {
        value.jsonString(.prettyPrinted) + "\n"
    }
}
