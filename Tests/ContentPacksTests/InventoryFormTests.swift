import ContentPacks
import GameWorld
import ParleyJSON
import Testing

/// Inventories are written the same way everywhere, in either form (`{"bread": 2}` or
/// `[{"item": "bread", "quantity": 2}]`), by one reader: the player's start, an NPC's inventory, a location's items
/// (and test plans and evaluation cases, tested with them).
@Suite struct InventoryFormTests {
    static let items: Set<ItemID> = ["bread", "gem", "silver_sword"]

    func read(_ json: String, items: Set<ItemID>? = Self.items) throws -> (Inventory?, [String]) {
        let read = Inventory.read(try JSONValue(parsing: json), file: "f.json", path: "$.inventory", knownItems: items)
        return (read.inventory, read.diagnostics.map(\.description))
    }

    @Test(arguments: [
        #"{"bread": 2, "gem": 1}"#, #"[{"item": "bread", "quantity": 2}, {"item": "gem"}]"#,
        #"[{"item": "gem", "quantity": 1}, {"item": "bread", "quantity": 2}]"#,
    ])
    func bothFormsReadTheSame(json: String) throws {
        let (inventory, diagnostics) = try read(json)
        #expect(diagnostics == [])
        #expect(inventory == ["bread": 2, "gem": 1])
    }

    @Test func emptyInventoriesInBothForms() throws {
        for json in ["{}", "[]"] {
            let (inventory, diagnostics) = try read(json)
            #expect(inventory == Inventory())
            #expect(diagnostics == [])
        }
    }

    @Test(arguments: [
        (#"{"bread": 0}"#, "f.json: $.inventory.bread: quantity must be from 1 to 10000, found 0"),
        (#"{"bread": -3}"#, "f.json: $.inventory.bread: quantity must be from 1 to 10000, found -3"),
        (
            #"[{"item": "bread", "quantity": 0}]"#,
            "f.json: $.inventory[0].quantity: quantity must be from 1 to 10000, found 0"
        ),
        (#"{"bread": 10001}"#, "f.json: $.inventory.bread: quantity must be from 1 to 10000, found 10001"),
        (#"{"bread": 2.5}"#, "f.json: $.inventory.bread: expected a whole number, found 2.5"),
        (
            #"{"bread": "2"}"#,
            #"f.json: $.inventory.bread: expected a whole number, found string "2" (write 2 without quotes)"#
        ),
        (
            #"[{"item": "bread", "quantity": true}]"#,
            "f.json: $.inventory[0].quantity: expected a whole number, found boolean true"
        ),
        (#"{"bred": 1}"#, #"f.json: $.inventory.bred: unknown item "bred" (did you mean "bread"?)"#),
        (
            #"[{"item": "silver_swrod"}]"#,
            #"f.json: $.inventory[0].item: unknown item "silver_swrod" (did you mean "silver_sword"?)"#
        ),
        (#"{"": 1}"#, #"f.json: $.inventory[""]: an item id must not be empty"#),
        (#"[{"item": " "}]"#, "f.json: $.inventory[0].item: an item id must not be empty"),
        (#"[{"item": 3}]"#, "f.json: $.inventory[0].item: expected a string, found number 3"),
        (#"[{"quantity": 2}]"#, #"f.json: $.inventory[0]: missing required field "item""#),
        (
            #"["bread"]"#,
            #"f.json: $.inventory[0]: expected an item and its quantity (an object), found string "bread""#
        ),
        (
            #"[{"item": "bread"}, {"item": "bread", "quantity": 2}]"#,
            #"f.json: $.inventory[1].item: "bread" is listed twice (first at $.inventory[0].item) (add the quantities up in one entry)"#
        ),
        (
            #""bread""#,
            #"f.json: $.inventory: expected an inventory (an object or an array), found string "bread" (write {"bread": 2} or [{"item": "bread", "quantity": 2}])"#
        ),
        (
            "12",
            #"f.json: $.inventory: expected an inventory (an object or an array), found number 12 (write {"bread": 2} or [{"item": "bread", "quantity": 2}])"#
        ),
    ])
    func aBadEntryIsAnErrorOnItsPath(json: String, line: String) throws {
        let (inventory, diagnostics) = try read(json)
        #expect(inventory == nil)
        #expect(diagnostics == [line])
    }

    @Test func everyBadEntryIsReportedNotOnlyTheFirst() throws {
        let (inventory, diagnostics) = try read(#"{"bread": 0, "gem": 1, "gme": 2, "silver_sword": "x"}"#)
        #expect(inventory == nil)
        #expect(
            diagnostics == [
                "f.json: $.inventory.bread: quantity must be from 1 to 10000, found 0",
                #"f.json: $.inventory.gme: unknown item "gme" (did you mean "gem"?)"#,
                #"f.json: $.inventory.silver_sword: expected a whole number, found string "x""#,
            ])
    }

    @Test func anUnknownMemberOfAnEntryIsOnlyAWarning() throws {
        let (inventory, diagnostics) = try read(#"[{"item": "bread", "quantitty": 2}]"#)
        #expect(inventory == ["bread": 1])
        #expect(
            diagnostics == [
                #"f.json: $.inventory[0].quantitty: warning: unknown field "quantitty" (did you mean "quantity"?)"#
            ])
    }

    @Test func itemsAreCheckedOnlyAgainstKnownItems() throws {
        // Before the pack is known (a test plan or an evaluation case being read), any item id reads.
        let (inventory, diagnostics) = try read(#"{"unicorn": 1}"#, items: nil)
        #expect(inventory == ["unicorn": 1])
        #expect(diagnostics == [])
        #expect(try read(#"{"unicorn": 1}"#, items: []).1 == [#"f.json: $.inventory.unicorn: unknown item "unicorn""#])
    }

    @Test func keysThatAreNotPlainNamesAreQuotedInThePath() throws {
        let (_, diagnostics) = try read(#"{"two words": 1}"#)
        #expect(diagnostics == [#"f.json: $.inventory["two words"]: unknown item "two words""#])
    }

    // MARK: - In a content pack

    func load(_ changes: [String: String]) -> ContentLoadResult {
        var files = ContentLoaderTests.valid
        for (name, text) in changes { files[name] = text }
        return ContentPack.load(files: files, displayPath: "Pack")
    }

    /// `ContentLoaderTests.valid`, with every inventory written as an object.
    static let objectForm: [String: String] = [
        "world.json": ContentLoaderTests.valid["world.json"]!
            .replacingOccurrences(of: #""inventory": [{ "item": "bread" }]"#, with: #""inventory": { "bread": 1 }"#)
            .replacingOccurrences(of: #""items": [{ "item": "gem" }]"#, with: #""items": { "gem": 1 }"#),
        "npcs/mira.json": ContentLoaderTests.valid["npcs/mira.json"]!.replacingOccurrences(
            of: #""inventory": [{ "item": "silver_sword" }, { "item": "bread", "quantity": 3 }]"#,
            with: #""inventory": { "silver_sword": 1, "bread": 3 }"#),
    ]

    @Test func everyPlaceInAPackTakesBothForms() throws {
        for (name, text) in Self.objectForm {
            #expect(text != ContentLoaderTests.valid[name], "\(name) was not rewritten")
        }
        let arrays = try load([:]).get()
        let objects = load(Self.objectForm)
        #expect(objects.diagnostics == [])
        let pack = try objects.get()
        #expect(pack.startingPlayer.inventory == ["bread": 1])
        #expect(pack.world.npcs["mira"]?.inventory == ["silver_sword": 1, "bread": 3])
        #expect(pack.world.locations["yard"]?.items == ["gem": 1])
        #expect(pack.startingPlayer == arrays.startingPlayer)
        #expect(pack.world.npcs["mira"]?.inventory == arrays.world.npcs["mira"]?.inventory)
        #expect(pack.world.locations == arrays.world.locations)
    }

    @Test(arguments: [
        (
            "world.json", #""inventory": [{ "item": "bread" }]"#, #""inventory": { "bred": 1 }"#,
            #"Pack/world.json: $.start.inventory.bred: unknown item "bred" (did you mean "bread"?)"#
        ),
        (
            "world.json", #""items": [{ "item": "gem" }]"#, #""items": "gem""#,
            #"Pack/world.json: $.locations[1].items: expected an inventory (an object or an array), found string "gem" (write {"bread": 2} or [{"item": "bread", "quantity": 2}])"#
        ),
        (
            "world.json", #""items": [{ "item": "gem" }]"#, #""items": { "gem": 0 }"#,
            "Pack/world.json: $.locations[1].items.gem: quantity must be from 1 to 10000, found 0"
        ),
        (
            "npcs/mira.json", #"{ "item": "bread", "quantity": 3 }"#, #"{ "item": "bread", "quantity": -1 }"#,
            "Pack/npcs/mira.json: $.inventory[1].quantity: quantity must be from 1 to 10000, found -1"
        ),
        (
            "npcs/mira.json", #""inventory": [{ "item": "silver_sword" }, { "item": "bread", "quantity": 3 }]"#,
            #""inventory": { "silver_sword": 1, "bread": [3] }"#,
            "Pack/npcs/mira.json: $.inventory.bread: expected a whole number, found an array"
        ),
    ])
    func aBadInventoryNamesItsFileAndPath(file: String, original: String, replacement: String, line: String) {
        let text = ContentLoaderTests.valid[file]!
        #expect(text.contains(original))
        let result = load([file: text.replacingOccurrences(of: original, with: replacement)])
        #expect(result.pack == nil)
        #expect(result.diagnostics.map(\.description).contains(line), "\(result.diagnostics)")
    }
}
