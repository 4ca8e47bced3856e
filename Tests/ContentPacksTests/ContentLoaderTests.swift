import ContentPacks
import Foundation
import GameWorld
import ParleyJSON
import Testing

/// Loader diagnostics on small in-memory packs.
@Suite struct ContentLoaderTests {
    /// A small valid pack; tests change one file at a time.
    static let valid: [String: String] = [
        "world.json": """
        {
          "$schema": "schema/world.schema.json",
          "id": "tiny",
          "title": "Tiny",
          "start": { "name": "Hero", "location": "hall", "gold": 10, "inventory": [{ "item": "bread" }] },
          "locations": [
            { "id": "hall", "name": "Hall", "description": "A hall.", "exits": [{ "direction": "north", "to": "yard" }] },
            { "id": "yard", "name": "Yard", "description": "A yard.", "exits": [{ "direction": "south", "to": "hall" }],
              "items": [{ "item": "gem" }] }
          ],
          "goal": { "description": "Give the gem to Mira.",
                    "requirements": [{ "type": "npcHasItem", "npc": "mira", "item": "gem" }] }
        }
        """,
        "items.json": """
        { "items": [
          { "id": "bread", "name": "Bread", "description": "Bread.", "value": 2, "category": "food" },
          { "id": "silver_sword", "name": "Silver Sword", "description": "A sword.", "value": 40, "category": "weapon" },
          { "id": "gem", "name": "Gem", "description": "A gem.", "value": 90, "category": "curio", "tags": ["quest"] }
        ] }
        """,
        "npcs/mira.json": """
        { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall", "gold": 5,
          "inventory": [{ "item": "silver_sword" }, { "item": "bread", "quantity": 3 }],
          "trade": { "sells": ["weapon", "food"], "buys": ["food"], "sellMarkup": 1.5, "buyBackRate": 0.5,
                     "minimumPriceRatio": 1.2 } }
        """,
    ]

    func load(_ changes: [String: String?] = [:]) -> ContentLoadResult {
        var files = Self.valid
        for (name, text) in changes { files[name] = text }
        return ContentPack.load(files: files, displayPath: "Pack")
    }

    func lines(_ result: ContentLoadResult) -> [String] { result.diagnostics.map(\.description) }

    // MARK: - A valid pack

    @Test func aValidPackLoadsWithoutDiagnostics() throws {
        let result = load()
        #expect(result.diagnostics == [])
        let pack = try result.get()
        #expect(pack.worldID == "tiny")
        #expect(result.counts == ContentCounts(locations: 2, npcs: 1, items: 3))
        let mira = try #require(pack.world.npcs["mira"])
        #expect(mira.trade.sellMarkup == PriceRatio(hundredths: 150))
        #expect(mira.trade.buys == ["food"])
        #expect(mira.inventory == ["silver_sword": 1, "bread": 3])
        #expect(mira.source["persona"]?.stringValue == "A merchant.")
        #expect(pack.startingPlayer == Player(name: "Hero", location: "hall", gold: 10, inventory: ["bread": 1]))
        #expect(pack.world.goal.requirements == [.npcHasItem(npc: "mira", item: "gem", quantity: 1)])
        #expect(pack.world.locations["hall"]?.exit(toward: "North")?.destination == "yard")
    }

    // MARK: - Errors

    @Test func anUnknownItemGetsADidYouMean() {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall",
              "inventory": [{ "item": "bread" }, { "item": "gem" }, { "item": "silver_swrod" }] }
            """
        ])
        #expect(result.pack == nil)
        #expect(
            lines(result) == [
                #"Pack/npcs/mira.json: $.inventory[2].item: unknown item "silver_swrod" (did you mean "silver_sword"?)"#
            ])
    }

    @Test func everyErrorIsReportedAtOnceAcrossFiles() {
        let result = load([
            "items.json": """
            { "items": [
              { "id": "bread", "name": "Bread", "description": "Bread.", "value": -1, "category": "food" },
              { "id": "silver_sword", "name": "Silver Sword", "description": "A sword.", "value": "40", "category": "weapon" },
              { "id": "gem", "description": "A gem.", "value": 90, "category": "curio" }
            ] }
            """,
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hal", "gold": 1.5 }
            """,
        ])
        #expect(
            lines(result) == [
                #"Pack/items.json: $.items[0].value: value must be from 0 to 1000000, found -1"#,
                #"Pack/items.json: $.items[1].value: expected a whole number, found string "40" (write 40 without quotes)"#,
                #"Pack/items.json: $.items[2]: missing required field "name""#,
                #"Pack/npcs/mira.json: $.location: unknown location "hal" (did you mean "hall"?)"#,
                #"Pack/npcs/mira.json: $.gold: expected a whole number, found 1.5"#,
            ])
    }

    @Test func missingFilesAreErrors() {
        let result = ContentPack.load(files: ["npcs/mira.json": Self.valid["npcs/mira.json"]!], displayPath: "Pack")
        #expect(result.errors.map(\.file) == ["Pack/world.json", "Pack/items.json"])
        #expect(result.errors.allSatisfy { $0.message == "file not found" })
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        let result = load(["items.json": "{\n  \"items\": [\n    { \"id\": \"bread\" \"name\": \"Bread\" }\n  ]\n}\n"])
        let error = try #require(result.errors.first)
        #expect(error.file == "Pack/items.json")
        #expect(error.line == 3)
        #expect(error.column == 21)
        #expect(error.description.hasPrefix("Pack/items.json: $: invalid JSON at line 3, column 21: "))
    }

    @Test func aDuplicateKeyIsAnErrorAndTheRestOfTheFileIsStillChecked() {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "name": "Mira Two", "persona": "A merchant.", "location": "nowhere" }
            """
        ])
        #expect(
            lines(result) == [
                #"Pack/npcs/mira.json: $: invalid JSON at line 1, column 33: the object has the key "name" twice (JSON objects must not repeat a key; remove one)"#,
                #"Pack/npcs/mira.json: $.location: unknown location "nowhere""#,
            ])
    }

    @Test func priceRatiosAreCheckedForRangeAndSense() {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall",
              "inventory": [{ "item": "silver_sword" }],
              "trade": { "sells": ["weapon"], "sellMarkup": 0.8, "buyBackRate": 1.5, "minimumPriceRatio": 1.125 } }
            """
        ])
        #expect(
            lines(result) == [
                "Pack/npcs/mira.json: $.trade.sellMarkup: sellMarkup must be from 1 to 10, found 0.8 (an NPC asks at least an item's value; let the player haggle with minimumPriceRatio)",
                "Pack/npcs/mira.json: $.trade.buyBackRate: buyBackRate must be from 0 to 1, found 1.5 (an NPC pays at most an item's value)",
                "Pack/npcs/mira.json: $.trade.minimumPriceRatio: 1.125 has more than two decimal places (prices are computed in hundredths; write for example 1.25)",
            ])
    }

    @Test func aMinimumAboveTheMarkupIsAnError() {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall",
              "inventory": [{ "item": "silver_sword" }],
              "trade": { "sells": ["weapon"], "sellMarkup": 1.2, "minimumPriceRatio": 1.5 } }
            """
        ])
        #expect(
            lines(result) == [
                "Pack/npcs/mira.json: $.trade.minimumPriceRatio: minimumPriceRatio 1.5 is above sellMarkup 1.2 (the NPC would refuse its own asking price; lower minimumPriceRatio or raise sellMarkup)"
            ])
    }

    @Test func badIDsAndGoalsAreErrors() {
        let world = Self.valid["world.json"]!
            .replacingOccurrences(of: #""id": "tiny""#, with: #""id": "Tiny World""#)
            .replacingOccurrences(of: #""type": "npcHasItem""#, with: #""type": "npcHasItm""#)
        #expect(
            lines(load(["world.json": world])) == [
                #"Pack/world.json: $.id: "Tiny World" is not a valid world id (use lowercase letters, digits and _, starting with a letter, like "tiny_world")"#,
                #"Pack/world.json: $.goal.requirements[0].type: unknown requirement type "npcHasItm" (did you mean "npcHasItem"?)"#,
            ])
    }

    // MARK: - Warnings

    @Test func unknownFieldsAreWarningsWithAHint() throws {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall", "gol": 5,
              "schedule": { "morning": "hall" } }
            """
        ])
        #expect(
            lines(result) == [
                #"Pack/npcs/mira.json: $.gol: warning: unknown field "gol" (did you mean "gold"?)"#,
                #"Pack/npcs/mira.json: $.schedule: warning: unknown field "schedule" (known fields: id, name, aliases, description, persona, location, gold, inventory, trade, dialogue, context, beats, knowledge, goals, voice, language, speech)"#,
            ])
        let pack = try result.get()
        #expect(pack.world.npcs["mira"]?.source["schedule"]?["morning"]?.stringValue == "hall")
    }

    @Test func sellingACategoryWithoutStockIsAWarning() throws {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall",
              "inventory": [{ "item": "bread" }],
              "trade": { "sells": ["weapon", "food", "wepon"] } }
            """
        ])
        #expect(
            lines(result) == [
                #"Pack/npcs/mira.json: $.trade.sells[2]: warning: no item has the category "wepon" (did you mean "weapon"?)"#,
                #"Pack/npcs/mira.json: $.trade.sells[0]: warning: sells "weapon" but has no weapon items it can sell (add some to its inventory, or remove "weapon" from sells)"#,
            ])
        #expect(result.pack != nil)
    }

    @Test func unreachableLocationsAndImpossibleGoalsAreWarnings() {
        let world = Self.valid["world.json"]!
            .replacingOccurrences(of: #""exits": [{ "direction": "north", "to": "yard" }]"#, with: #""exits": []"#)
            .replacingOccurrences(of: #""items": [{ "item": "gem" }]"#, with: #""items": []"#)
        #expect(
            lines(load(["world.json": world])) == [
                #"Pack/world.json: $.locations[1]: warning: "yard" cannot be reached from the start (add an exit that leads to it)"#,
                #"Pack/world.json: $.locations[0]: warning: "hall" has no exits: a player who comes here cannot leave (add an exit back)"#,
                #"Pack/world.json: $.goal.requirements[0]: warning: the goal cannot be reached: it needs 1 × gem and the pack has 0 (put the item in a location or an inventory)"#,
            ])
    }

    @Test func aFileNamedDifferentlyFromItsIDIsAWarning() {
        var files = Self.valid
        files["npcs/merchant.json"] = files.removeValue(forKey: "npcs/mira.json")
        let result = ContentPack.load(files: files, displayPath: "Pack")
        #expect(
            lines(result) == [
                #"Pack/npcs/merchant.json: $.id: warning: the id "mira" differs from the file name "merchant.json" (name the file mira.json)"#
            ])
    }

    @Test func errorsComeBeforeWarnings() {
        let result = load([
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall", "colour": "red",
              "inventory": [{ "item": "bred" }] }
            """
        ])
        #expect(result.diagnostics.map(\.severity) == [.error, .warning])
    }

    // MARK: - Identity

    @Test func theContentHashIgnoresLayoutButNotValues() throws {
        let original = try load().get().contentHash
        let reformatted = Self.valid.mapValues { text in
            (try? JSONValue(parsing: text))?.jsonString(.prettyPrinted) ?? text
        }
        #expect(try ContentPack.load(files: reformatted).get().contentHash == original)
        let changed = Self.valid["items.json"]!.replacingOccurrences(of: #""value": 2"#, with: #""value": 3"#)
        #expect(try load(["items.json": changed]).get().contentHash != original)
        #expect(original.hex.count == 16)
        #expect(ContentHash(hex: original.hex) == original)
    }

    @Test func displayPathsAreWrittenAsTyped() {
        let result = ContentPack.load(files: ["world.json": "{"], displayPath: "packs/mine/")
        #expect(result.diagnostics.first?.file == "packs/mine/world.json")
        let bare = ContentPack.load(files: ["world.json": "{"], displayPath: ".")
        #expect(bare.diagnostics.first?.file == "world.json")
    }

    @Test func getThrowsEveryDiagnostic() {
        let result = load(["items.json": "[]"])
        #expect(throws: ContentErrors.self) { try result.get() }
        #expect(
            result.errors.map(\.description).contains(
                "Pack/items.json: $: expected the item catalog (an object), found an array"))
    }
}

@Suite struct ContextPolicyLoadingTests {
    @Test(arguments: [
        (#""context": {"policy": "firstAndLast"},"#, "", ContextPolicy.firstAndLast),
        ("", "", ContextPolicy.summary),
        (
            #""context": {"policy": "sumary"},"#,
            #"Pack/npcs/mira.json: $.context.policy: unknown context policy "sumary" (did you mean "summary"?)"#, nil
        ),
        (
            #""context": "summary","#,
            #"Pack/npcs/mira.json: $.context: expected a context policy (an object), found string "summary""#, nil
        ),
    ])
    func theContextPolicyIsReadAndChecked(_ field: String, _ diagnostic: String, _ policy: ContextPolicy?) throws {
        let npc = """
            {"id": "mira", "name": "Mira", "persona": "A merchant.", "location": "square", \(field) "gold": 1}
            """
        let result = ContentPack.load(
            files: [
                "world.json":
                    #"{"id": "w", "title": "W", "start": {"name": "Ada", "location": "square"}, "locations": [{"id": "square", "name": "Square", "description": "A square."}], "goal": {"description": "Be.", "requirements": [{"type": "npcHasItem", "npc": "mira", "item": "coin"}]}}"#,
                "items.json":
                    #"{"items": [{"id": "coin", "name": "Coin", "description": "A coin.", "value": 1, "category": "curio"}]}"#,
                "npcs/mira.json": npc,
            ], displayPath: "Pack")
        if let policy {
            #expect(
                result.pack?.world.npcs["mira"]?.contextPolicy == policy, "\(result.diagnostics.map(\.description))")
        } else {
            #expect(
                result.diagnostics.map(\.description).contains(diagnostic), "\(result.diagnostics.map(\.description))")
        }
    }
}

@Suite struct NPCVoiceLoadingTests {
    @Test(arguments: [
        (#""voice": {"sentences": 1},"#, "", NPCVoice(sentences: 1)),
        (#""voice": {"sentences": 6},"#, "", NPCVoice(sentences: 6)),
        (#""voice": {},"#, "", NPCVoice.default),
        ("", "", NPCVoice.default),
        (
            #""voice": {"sentences": 0},"#,
            "Pack/npcs/mira.json: $.voice.sentences: sentences must be from 1 to 6, found 0", nil
        ),
        (
            #""voice": {"sentences": 7},"#,
            "Pack/npcs/mira.json: $.voice.sentences: sentences must be from 1 to 6, found 7", nil
        ),
        (
            #""voice": {"sentences": "2"},"#,
            #"Pack/npcs/mira.json: $.voice.sentences: expected a whole number, found string "2" (write 2 without quotes)"#,
            nil
        ),
        (
            #""voice": 2,"#, "Pack/npcs/mira.json: $.voice: expected a voice (an object), found number 2", nil
        ),
    ])
    func theVoiceIsReadAndChecked(_ field: String, _ diagnostic: String, _ voice: NPCVoice?) throws {
        let npc = """
            {"id": "mira", "name": "Mira", "persona": "A merchant.", "location": "square", \(field) "gold": 1}
            """
        let result = ContentPack.load(
            files: [
                "world.json":
                    #"{"id": "w", "title": "W", "start": {"name": "Ada", "location": "square"}, "locations": [{"id": "square", "name": "Square", "description": "A square."}], "goal": {"description": "Be.", "requirements": [{"type": "npcHasItem", "npc": "mira", "item": "coin"}]}}"#,
                "items.json":
                    #"{"items": [{"id": "coin", "name": "Coin", "description": "A coin.", "value": 1, "category": "curio"}]}"#,
                "npcs/mira.json": npc,
            ], displayPath: "Pack")
        let shown = result.diagnostics.map(\.description)
        if let voice {
            #expect(result.pack?.world.npcs["mira"]?.voice == voice, "\(shown)")
            #expect(result.errors.isEmpty, "\(shown)")
        } else {
            #expect(result.pack == nil, "\(shown)")
            #expect(shown.contains(diagnostic), "\(shown)")
        }
    }

    @Test func anUnknownVoiceFieldIsAWarningWithAHint() {
        let result = ContentPack.load(
            files: [
                "world.json":
                    #"{"id": "w", "title": "W", "start": {"name": "Ada", "location": "square"}, "locations": [{"id": "square", "name": "Square", "description": "A square."}], "goal": {"description": "Be.", "requirements": [{"type": "npcHasItem", "npc": "mira", "item": "coin"}]}}"#,
                "items.json":
                    #"{"items": [{"id": "coin", "name": "Coin", "description": "A coin.", "value": 1, "category": "curio"}]}"#,
                "npcs/mira.json":
                    #"{"id": "mira", "name": "Mira", "persona": "A merchant.", "location": "square", "voice": {"sentence": 2}}"#,
            ], displayPath: "Pack")
        #expect(
            result.diagnostics.map(\.description).contains(
                #"Pack/npcs/mira.json: $.voice.sentence: warning: unknown field "sentence" (did you mean "sentences"?)"#
            ),
            "\(result.diagnostics.map(\.description))")
    }

    @Test func aSavedNPCWithoutAVoiceDecodesWithTheDefault() throws {
        let npc = NPC(
            id: "mira", name: "Mira", persona: "A merchant.", location: "square", voice: NPCVoice(sentences: 2))
        var object = try #require(
            try JSONValue(parsing: String(decoding: JSONEncoder().encode(npc), as: UTF8.self)).objectValue)
        #expect(object["voice"] != nil)
        let withVoice = try JSONDecoder().decode(NPC.self, from: Data(JSONValue.object(object).jsonString().utf8))
        #expect(withVoice.voice.sentences == 2)
        object["voice"] = nil
        let older = try JSONDecoder().decode(NPC.self, from: Data(JSONValue.object(object).jsonString().utf8))
        #expect(older.voice == .default)
    }
}
