import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import ParleyJSON
import Testing

/// Languages: the built-in English and German lexicons (what players type and what NPCs say without rules of their
/// own), a pack's and an NPC's `language`, and the lexicon's one reader of number words.
@Suite struct LanguageTests {
    /// The small valid pack of the loader tests with some files changed.
    func load(_ changes: [String: String?]) -> ContentLoadResult {
        var files = ContentLoaderTests.valid
        for (name, text) in changes { files[name] = text }
        return ContentPack.load(files: files, displayPath: "Pack")
    }

    /// The small pack's world.json with a `language`.
    static func world(language: String) -> String {
        ContentLoaderTests.valid["world.json"]!.replacingOccurrences(
            of: #""title": "Tiny","#, with: #""title": "Tiny", "language": "\#(language)","#)
    }

    /// The small pack's Mira with a `language`.
    static func mira(language: String) -> String {
        ContentLoaderTests.valid["npcs/mira.json"]!.replacingOccurrences(
            of: #""name": "Mira","#, with: #""name": "Mira", "language": "\#(language)","#)
    }

    // MARK: - The built-in lexicons

    /// Both built-in lexicons have every command, every built-in rule's lines and every text; German has no English
    /// word for a command, and its lines are its own.
    @Test(arguments: ["en", "de"])
    func aBuiltInLexiconHasEveryPartOfTheGamesWords(language: String) throws {
        let lexicon = try #require(Lexicon.builtIn(language))
        #expect(lexicon.language == language)
        for table in Lexicon.CommandTable.allCases { #expect(!lexicon.commands(table).isEmpty, "\(language) \(table)") }
        for text in Lexicon.Text.allCases { #expect(lexicon.texts[text] != nil, "\(language) \(text)") }
        #expect(Set(lexicon.lines.keys) == Set(Lexicon.english.lines.keys))
        #expect(Set(lexicon.directions.keys) == Set(Lexicon.english.directions.keys))
        // It reads back from its own JSON.
        #expect(try Lexicon(json: lexicon.jsonValue) == lexicon)
    }

    @Test func theGermanLexiconSaysItsOwnWords() throws {
        let german = Lexicon.german
        for table in Lexicon.CommandTable.commands {
            for word in german.commands(table) where word.count > 3 {
                #expect(!Lexicon.english.commands(table).contains(word), "\(table): \(word)")
            }
        }
        for (id, lines) in german.lines where id != "builtin_last_resort" && id != "builtin_plain_game_event" {
            #expect(lines != Lexicon.english.lines[id], "\(id) is still English")
        }
        #expect(german.commands(.accept).contains("annehmen"))
        #expect(german.commands(.talk).contains("rede mit"))
        #expect(german.direction(named: "Norden") == "north")
        #expect(german.numbers.words["fünfundzwanzig"] == 25)
        #expect(german.list(["Brot", "Käse", "Seil"]) == "Brot, Käse und Seil")
        #expect(german.list(["Brot", "Käse"], conjunction: .or) == "Brot oder Käse")
        #expect(
            german.text(.offerBuy, ["npc": "Greta", "goods": "1 Laterne", "price": "15"])
                == "Greta bietet dir 1 Laterne für 15 Gold an.")
    }

    /// The built-in German file, read as a pack's lexicon, has nothing the checker warns about but words for
    /// categories the small pack has no items of.
    @Test func theBuiltInGermanFileChecksClean() throws {
        let url = TestWorld.packageRoot.appendingPathComponent("Sources/GameWorld/Resources/lexicon.de.json")
        let result = load(["lexicon.json": try String(contentsOf: url, encoding: .utf8)])
        #expect(
            result.diagnostics.filter { !$0.message.contains("no item has the category") }.map(\.description) == [])
        #expect(try result.get().world.lexicon == .german)
    }

    @Test func aTextLeavesOutAPlaceholderWithoutAValue() {
        #expect(Lexicon.english.text(.stockLine, ["item": "Rope"]) == "Rope ( gold)")
        #expect(Lexicon.english.text(.and) == "and")
        var lexicon = Lexicon(language: "xx")
        lexicon.texts = [:]
        #expect(lexicon.text(.or) == "or", "a text the lexicon lacks is English")
    }

    // MARK: - A pack's language

    @Test func aWorldInGermanWithoutALexiconFileSpeaksTheBuiltInGerman() throws {
        let result = load(["world.json": Self.world(language: "de")])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(try result.get().world.lexicon == .german)
    }

    @Test func aPackLexiconMayExtendGerman() throws {
        let result = load([
            "world.json": Self.world(language: "de"),
            "lexicon.json": #"{"language": "de", "extends": "de", "commands": {"accept": ["einverstanden"]}}"#,
        ])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let lexicon = try result.get().world.lexicon
        #expect(lexicon.commands(.accept) == Lexicon.german.commands(.accept) + ["einverstanden"])
        #expect(lexicon.lines == Lexicon.german.lines)
    }

    @Test(arguments: [
        (
            ["world.json": world(language: "fr")], "Pack/world.json: $.language",
            #"no built-in lexicon for "fr" (write a lexicon.json for it"#
        ),
        (
            ["world.json": world(language: "de"), "lexicon.json": #"{"language": "en", "extends": "en"}"#],
            "Pack/world.json: $.language", #"the world speaks "de" but lexicon.json is for "en""#
        ),
        (
            ["world.json": world(language: "deutsch")], "Pack/world.json: $.language",
            #""deutsch" is not a language tag"#
        ),
        (
            ["npcs/mira.json": mira(language: "fr")], "Pack/npcs/mira.json: $.language",
            #"no lexicon for "fr" (an NPC speaks the pack's language (en) or one with a built-in lexicon: en, de)"#
        ),
    ])
    func aLanguageWithoutALexiconIsAnError(changes: [String: String], path: String, message: String) {
        let result = load(changes)
        #expect(result.pack == nil)
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.contains { $0.hasPrefix(path) && $0.contains(message) }, "\(errors)")
    }

    /// An NPC may speak another language than the pack's: its lexicon is that language's built-in one.
    @Test func anNPCSpeaksItsOwnLanguage() throws {
        let world = try load(["npcs/mira.json": Self.mira(language: "de")]).get().world
        #expect(world.lexicon == .english)
        #expect(world.npcs["mira"]?.language == "de")
        #expect(world.lexicon(for: "mira") == .german)
        #expect(world.lexicon(for: "nobody") == .english)
        // A save keeps it.
        let decoded = try JSONDecoder().decode(World.self, from: try JSONEncoder().encode(world))
        #expect(decoded.lexicon(for: "mira") == .german)
        // Of the pack's own language, the pack's lexicon (with its own words).
        let same = try load(["npcs/mira.json": Self.mira(language: "en-GB")]).get().world
        #expect(same.lexicon(for: "mira") == same.lexicon)
    }

    // MARK: - Numbers

    @Test(arguments: [
        (["25", "gold"], 0, 25, 1), (["twenty", "five", "gold"], 0, 25, 2),
        (["a", "hundred", "and", "five"], 0, 105, 4), (["two", "thousand", "five"], 0, 2005, 3),
        (["five", "twenty"], 0, 5, 1), (["one", "hundred", "twenty", "three"], 0, 123, 4),
        (["only", "three", "left"], 1, 3, 2), (["twenty", "", "five"], 0, 20, 1),
    ])
    func englishNumberWordsAreReadAsWritten(words: [String], index: Int, value: Int, end: Int) throws {
        let read = try #require(Lexicon.english.numbers.number(in: words, at: index))
        #expect(read.value == value)
        #expect(read.end == end)
    }

    @Test(arguments: [
        (["fünfundzwanzig", "gold"], 25, 1), (["hundert", "und", "fünf"], nil, nil), (["ein", "hundert"], 100, 2),
        (["zwölf"], 12, 1), (["drei", "tausend", "zwanzig"], 3020, 3),
    ])
    func germanNumberWordsAreTheGermanLexicons(words: [String], value: Int?, end: Int?) {
        let read = Lexicon.german.numbers.number(in: words, at: 0)
        #expect(read?.value == value)
        #expect(read?.end == end)
        #expect(Lexicon.english.numbers.number(in: words, at: 0) == nil || words[0].first?.isNumber == true)
    }

    @Test func noNumberStartsAtAWordThatIsNone() {
        #expect(Lexicon.english.numbers.number(in: ["a", "lantern"], at: 0) == nil)
        #expect(Lexicon.english.numbers.number(in: ["hundred"], at: 0) == nil)
        #expect(Lexicon.english.numbers.number(in: [], at: 0) == nil)
        #expect(Lexicon.english.numbers.number(in: ["99999999999999999999"], at: 0) == nil)
    }
}
