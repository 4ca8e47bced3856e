import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import ParleyJSON
import Testing

/// The lexicon: the built-in English file, a pack's `lexicon.json` extending or replacing it, and the errors a modder
/// gets for a bad one.
@Suite struct LexiconTests {
    /// The small valid pack of the loader tests with `lexicon.json` set to `text`.
    func load(lexicon text: String?) -> ContentLoadResult {
        var files = ContentLoaderTests.valid
        files["lexicon.json"] = text
        return ContentPack.load(files: files, displayPath: "Pack")
    }

    /// The built-in English lexicon's file, as shipped in the package.
    static func englishFile() throws -> String {
        let url = TestWorld.packageRoot.appendingPathComponent("Sources/GameWorld/Resources/lexicon.en.json")
        return try String(contentsOf: url, encoding: .utf8)
    }

    // MARK: - The built-in English lexicon

    @Test func theBuiltInEnglishFileLoadsWithoutADiagnosticAndIsTheDefault() throws {
        let result = load(lexicon: try Self.englishFile())
        // The small pack has no clothing, drinks or tools; the English file has words for them.
        #expect(
            result.diagnostics.map(\.description)
                == ["clothing", "drink", "tool"].map {
                    "Pack/lexicon.json: $.categories.\($0): warning: no item has the category \"\($0)\""
                })
        #expect(try result.get().world.lexicon == .english)
        #expect(try load(lexicon: nil).get().world.lexicon == .english)
        #expect(Lexicon.english.language == "en")
        #expect(Lexicon.english.priority == Lexicon.Check.allCases)
        // Every table and set the scripted model reads is filled.
        for table in Lexicon.PhraseTable.allCases { #expect(!Lexicon.english.phrases(table).isEmpty, "\(table)") }
        for set in Lexicon.WordSet.allCases { #expect(!Lexicon.english.words(set).isEmpty, "\(set)") }
        #expect(Lexicon.english.numbers.words["twenty"] == 20)
        #expect(Lexicon.english.numbers.scales["hundred"] == 100)
    }

    @Test func aLexiconSurvivesItsOwnJSONAndAWorldsCoding() throws {
        #expect(try Lexicon(json: Lexicon.english.jsonValue) == .english)
        var world = TestWorld.world
        world.lexicon.language = "de"
        world.lexicon.phrases[.greeting] = ["hallo", "guten tag"]
        world.lexicon.numbers.amounts = [Lexicon.Amount(phrase: "ein fünfer", value: 5, isGold: true)]
        let data = try JSONEncoder().encode(world)
        #expect(try JSONDecoder().decode(World.self, from: data) == world)
        // The built-in lexicon is not written into every encoded world.
        let english = String(decoding: try JSONEncoder().encode(TestWorld.world), as: UTF8.self)
        #expect(!english.contains("\"lexicon\""))
        #expect(try JSONDecoder().decode(World.self, from: Data(english.utf8)).lexicon == .english)
    }

    // MARK: - A pack's lexicon

    @Test func extendingEnglishAddsToItsTablesAndReplacesOnlyWhatItNames() throws {
        let result = load(
            lexicon: """
                {"$schema": "schema/lexicon.schema.json", "language": "en-GB", "extends": "en",
                 "phrases": {"stock": ["on your stall", "wares"]}, "words": {"gold": ["quid"]},
                 "synonyms": {"innit": "is it not"}, "categories": {"weapon": ["steel"]},
                 "numbers": {"amounts": [{"phrase": "a score", "value": 20}]}, "limits": {"shortLine": 4}}
                """)
        #expect(result.diagnostics.map(\.description) == [])
        let lexicon = try result.get().world.lexicon
        let english = Lexicon.english
        #expect(lexicon.language == "en-GB")
        #expect(lexicon.phrases(.stock) == english.phrases(.stock) + ["on your stall"])
        #expect(lexicon.phrases(.sell) == english.phrases(.sell))
        #expect(lexicon.words(.gold) == english.words(.gold) + ["quid"])
        #expect(lexicon.synonyms["innit"] == "is it not")
        #expect(lexicon.categories["weapon"] == (english.categories["weapon"] ?? []) + ["steel"])
        #expect(lexicon.numbers.amounts.first == Lexicon.Amount(phrase: "a score", value: 20))
        #expect(lexicon.limits.shortLine == 4)
        #expect(lexicon.limits.shortAnswer == english.limits.shortAnswer)
        #expect(lexicon.priority == english.priority)
        // A changed lexicon is a changed pack: saves of the old one are told apart.
        #expect(try result.get().contentHash != load(lexicon: nil).get().contentHash)
    }

    @Test func aWholeLexiconHasOnlyWhatItSays() throws {
        let result = load(
            lexicon: """
                {"language": "de", "priority": ["greet", "farewell"],
                 "phrases": {"greeting": ["Hallo", "guten Tag"], "farewell": ["tschüss"]},
                 "numbers": {"words": {"eins": 1, "zwanzig": 20}, "scales": {"hundert": 100}}}
                """)
        // What a player says is only what the file says; the game's and the NPCs' words it leaves out stay English,
        // and the checker says so, part by part.
        let warnings = result.diagnostics.map(\.description)
        #expect(warnings.count == 4, "\(warnings)")
        for (index, part) in ["commands", "directions", "lines", "texts"].enumerated() where index < warnings.count {
            #expect(warnings[index].hasPrefix("Pack/lexicon.json: $.\(part): warning: no "), "\(warnings[index])")
            #expect(warnings[index].contains("the English ones are used"), "\(warnings[index])")
            #expect(warnings[index].contains(#"add "extends": "de""#), "\(warnings[index])")
        }
        let lexicon = try result.get().world.lexicon
        #expect(lexicon.priority == [.greet, .farewell])
        #expect(lexicon.phrases(.greeting) == ["hallo", "guten tag"])
        #expect(lexicon.phrases(.sell) == [])
        #expect(lexicon.words(.pronouns) == [])
        #expect(lexicon.numbers.words == ["eins": 1, "zwanzig": 20])
        #expect(lexicon.limits == Lexicon.Limits())
        #expect(lexicon.commands == Lexicon.english.commands)
        #expect(lexicon.lines == Lexicon.english.lines)
        #expect(lexicon.texts == Lexicon.english.texts)
    }

    @Test func categoryWordsNameTheCategoryTheyAreFor() {
        let english = Lexicon.english
        #expect(english.category(named: "weapons", among: ["weapon", "food"]) == "weapon")
        #expect(english.category(named: "some blades", among: ["weapon"]) == "weapon")
        #expect(english.category(named: "something to eat", among: ["food", "drink"]) == "food")
        #expect(english.category(named: "foods", among: ["drink"]) == nil)
        #expect(english.category(named: "the", among: ["food"]) == nil)
    }

    // MARK: - Mistakes

    @Test(arguments: [
        (#"{"language": "english"}"#, "$.language", #""english" is not a language tag"#),
        (#"{"language": "en", "extends": "fr"}"#, "$.extends", #"no built-in lexicon "fr""#),
        (#"{"language": "en", "priority": ["byu"]}"#, "$.priority[0]", #"unknown check "byu" (did you mean "buy"?)"#),
        (#"{"language": "en", "priority": ["buy", "buy"]}"#, "$.priority[1]", #""buy" is listed twice"#),
        (#"{"language": "en", "phrases": {"stok": ["x"]}}"#, "$.phrases.stok", #"(did you mean "stock"?)"#),
        (#"{"language": "en", "phrases": {"stock": "wares"}}"#, "$.phrases.stock", "expected an array of strings"),
        (#"{"language": "en", "phrases": {"stock": ["!!!"]}}"#, "$.phrases.stock[0]", "has no words"),
        (#"{"language": "en", "words": {"pronouns": ["that one"]}}"#, "$.words.pronouns[0]", "expected one word"),
        (#"{"language": "en", "synonyms": {"?!": "many"}}"#, "$.synonyms", "a synonym is a word or a phrase"),
        (#"{"language": "en", "numbers": {"words": {"zwei": -2}}}"#, "$.numbers.words.zwei", "must be from 0"),
        (#"{"language": "en", "numbers": {"amounts": [{"phrase": "a fiver"}]}}"#, "$.numbers.amounts[0]", "\"value\""),
        (#"{"language": "en", "limits": {"shortLine": 500}}"#, "$.limits.shortLine", "must be from 0 to 100"),
        (#"{"language": "en", "commands": {"goo": ["walk"]}}"#, "$.commands.goo", #"(did you mean "go"?)"#),
        (#"{"language": "en", "commands": {"articles": ["the old"]}}"#, "$.commands.articles[0]", "expected one word"),
        (#"{"language": "en", "directions": {"north": "n"}}"#, "$.directions.north", "expected an array of strings"),
        (
            #"{"language": "en", "lines": {"builtin_gret": {"replies": ["Hi."]}}}"#, "$.lines.builtin_gret",
            #"unknown built-in rule "builtin_gret" (did you mean "builtin_greet"?)"#
        ),
        (
            #"{"language": "en", "lines": {"builtin_greet": {"replies": ["Hi, {playr}."]}}}"#,
            "$.lines.builtin_greet.replies[0]", "{playr}"
        ),
        (
            #"{"language": "en", "lines": {"builtin_buy": {"outcomes": {"pendng": ["x"]}}}}"#,
            "$.lines.builtin_buy.outcomes.pendng", #"(did you mean "pending"?)"#
        ),
        (#"{"language": "en", "lines": {"builtin_greet": {}}}"#, "$.lines.builtin_greet", "need \"replies\""),
        (#"{"language": "en", "texts": {"ofer": "x"}}"#, "$.texts.ofer", #"unknown text "ofer""#),
        (
            #"{"language": "en", "texts": {"offerBuy": "{npc} sells {item}."}}"#, "$.texts.offerBuy",
            "unknown placeholder {item} in the text \"offerBuy\" (it may use {npc}, {goods}, {price})"
        ),
        (#"{"language": "en", "texts": {"and": 3}}"#, "$.texts.and", "expected a text"),
        (#"["en"]"#, "$", "expected the lexicon (an object)"),
        (#"{"priority": []}"#, "$", #"missing required field "language""#),
        ("{\"language\": \"en\",}", "$", "invalid JSON at line 1"),
    ])
    func aBadLexiconIsAnErrorNamingWhereAndWhy(text: String, path: String, message: String) {
        let result = load(lexicon: text)
        #expect(result.pack == nil)
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(
            errors.contains { $0.hasPrefix("Pack/lexicon.json: \(path)") && $0.contains(message) },
            "\(errors)")
    }

    @Test func wordsForACategoryNoItemHasAreAWarning() throws {
        let result = load(lexicon: #"{"language": "en", "extends": "en", "categories": {"weapn": ["arms"]}}"#)
        #expect(
            result.diagnostics.map(\.description) == [
                #"Pack/lexicon.json: $.categories.weapn: warning: no item has the category "weapn" (did you mean "weapon"?)"#
            ])
        #expect(result.pack != nil)
    }
}

/// The lexicon's JSON Schema and the shipped town's lexicon.
@Suite struct LexiconSchemaTests {
    /// The schema names every table, set, check and field the loader reads, and nothing else.
    @Test func theSchemaMatchesTheLoader() throws {
        let url = TestWorld.packageRoot.appendingPathComponent("Content/schema/lexicon.schema.json")
        let schema = try JSONValue(parsing: try String(contentsOf: url, encoding: .utf8))
        let properties = try #require(schema["properties"])
        #expect(
            Set(properties.objectValue?.keys ?? []) == [
                "$schema", "language", "extends", "priority", "phrases", "words", "synonyms", "categories", "numbers",
                "limits", "commands", "directions", "lines", "texts",
            ])
        #expect(
            properties["extends"]?["enum"]?.arrayValue?.compactMap(\.stringValue) == Lexicon.builtInLanguages)
        #expect(
            properties["commands"]?["properties"]?.objectValue?.keys == Lexicon.CommandTable.allCases.map(\.rawValue))
        #expect(properties["texts"]?["properties"]?.objectValue?.keys == Lexicon.Text.allCases.map(\.rawValue))
        #expect(
            Set(properties["lines"]?["propertyNames"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                == Set(Lexicon.english.lines.keys))
        #expect(
            properties["phrases"]?["properties"]?.objectValue?.keys == Lexicon.PhraseTable.allCases.map(\.rawValue))
        #expect(properties["words"]?["properties"]?.objectValue?.keys == Lexicon.WordSet.allCases.map(\.rawValue))
        #expect(
            properties["priority"]?["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
                == Lexicon.Check.allCases.map(\.rawValue))
        #expect(
            properties["limits"]?["properties"]?.objectValue?.keys
                == [
                    "shortLine", "shortAnswer", "choiceLine", "largestQuantity", "shortestSwapMended",
                    "shortestEditMended",
                ])
        // The defaults the schema states are the loader's.
        let limits = Lexicon.Limits()
        #expect(properties["limits"]?["properties"]?["shortLine"]?["default"]?.intValue == limits.shortLine)
        #expect(properties["limits"]?["properties"]?["shortAnswer"]?["default"]?.intValue == limits.shortAnswer)
        #expect(properties["limits"]?["properties"]?["choiceLine"]?["default"]?.intValue == limits.choiceLine)
        #expect(
            properties["limits"]?["properties"]?["largestQuantity"]?["default"]?.intValue == limits.largestQuantity)
    }

    /// The shipped town extends English with its own words, and loads without a diagnostic.
    @Test func theShippedTownExtendsEnglish() throws {
        let lexicon = try TestWorld.shippedPack().world.lexicon
        #expect(lexicon.language == "en")
        #expect(lexicon.phrases(.stock).starts(with: Lexicon.english.phrases(.stock)))
        #expect(lexicon.phrases(.stock).contains("on your stall"))
        #expect(lexicon.category(named: "ale", among: ["drink", "food"]) == "drink")
    }

    @Test(arguments: [
        ("my name is Tamsin", "Tamsin"), ("my name's tamsin", "Tamsin"), ("name's Wren. and you are?", "Wren"),
        ("I'm called Wren", "Wren"), ("hi, I'm Wren", "Wren"), ("im Wren", "Wren"), ("I go by Wren", "Wren"),
        ("call me Tam, please", "Tam"),
    ])
    func theNameAPlayerGivesIsFound(line: String, name: String) {
        #expect(PlayerNameFinder(Lexicon.english).name(in: line) == name)
    }

    @Test(arguments: [
        "i am hungry", "I'm looking for rope", "my name is not important", "call me a cab", "what's my name?",
    ])
    func aLineThatGivesNoNameGivesNone(line: String) {
        #expect(PlayerNameFinder(Lexicon.english).name(in: line) == nil)
    }

}
