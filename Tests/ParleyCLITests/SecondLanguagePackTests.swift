import Foundation
import Testing

/// `Examples/Marktplatz`, a small town in German: the built-in German lexicon (extended by its own) lets the scripted
/// model understand German players and speak German, its commands are German, and its evaluation corpus and test plan
/// pass in full. Run as a modder runs it: the built binary.
@Suite struct SecondLanguagePackTests {
    static let pack = "Examples/Marktplatz"

    @Test func theGermanPackChecksCleanAndEveryEvalCasePasses() async throws {
        let check = try await runParley(["content", "check", Self.pack])
        #expect(check.status == 0, "\(check.out)\(check.err)")
        #expect(check.out.hasSuffix("0 errors, 0 warnings\n"), "\(check.out)")

        let eval = try await runParley(["eval", Self.pack, "--min-accuracy", "100"])
        #expect(eval.status == 0, "\(eval.out)\(eval.err)")
        #expect(!eval.out.contains("FAIL "), "\(eval.out)")
        #expect(eval.out.contains("False claims: 0\n"), "\(eval.out)")
        #expect(eval.out.hasSuffix("100.0%\n"), "\(eval.out)")
    }

    /// The same pack without its language (no lexicon.json, no `language` in world.json) is read with the built-in
    /// English lexicon, and then fails its cases: the German is understood because of the lexicon, not by chance.
    /// Without only its lexicon.json it still passes: `"language": "de"` gives it the built-in German lexicon.
    @Test func withoutItsLanguageTheSamePackIsNotUnderstood() async throws {
        let source = ParleyBinary.packageRoot.appendingPathComponent(Self.pack)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("parley-de-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: source, to: copy)
        try FileManager.default.removeItem(at: copy.appendingPathComponent("lexicon.json"))

        let german = try await runParley(["eval", copy.path, "--min-accuracy", "100"])
        #expect(german.status == 0, "\(german.out)\(german.err)")

        let world = copy.appendingPathComponent("world.json")
        let text = try String(contentsOf: world, encoding: .utf8)
        #expect(text.contains(#""language": "de","#))
        try text.replacingOccurrences(of: #""language": "de","#, with: "").write(
            to: world, atomically: true, encoding: .utf8)
        let eval = try await runParley(["eval", copy.path, "--min-accuracy", "60"])
        #expect(eval.status == 1, "\(eval.out)\(eval.err)")
        #expect(eval.err.contains("is below the minimum"), "\(eval.err)")
    }

    /// `parley play` in German: the start describes the place (no English "look" behind it), the commands are
    /// German, speech wins while talking, and Greta, her offers and her built-in lines speak German.
    @Test func aGameIsPlayedInGermanEndToEnd() async throws {
        let saves = FileManager.default.temporaryDirectory.appendingPathComponent("parley-de-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: saves) }
        let lines = [
            "rede mit greta", "Was kostet die Laterne?", "gib mir zwei Kerzen, bitte", "ablehnen",
            "Würdest du zwölf für die Laterne nehmen?", "annehmen", "Was habe ich bei dir gekauft?",
            "gehe nach norden", "nimm apfel", "inventar", "beenden",
        ]
        let run = try await runParley(
            ["--content", Self.pack, "--saves", saves.path], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.err)")
        let out = run.out
        #expect(out.contains("Tippe hilfe für die Befehle."), "\(out)")
        #expect(!out.contains("Das verstehe ich nicht"), "\(out)")
        #expect(out.contains("Greta Krämer: Grüß dich, Wanderer!"), "\(out)")
        #expect(out.contains("Greta Krämer: Laterne? 15 Gold"), "\(out)")
        #expect(out.contains("Gern! 2 × Kerze für 2 Gold. Sag annehmen"), "\(out)")
        #expect(out.contains("12 Gold für Laterne. Sag annehmen."), "\(out)")
        #expect(out.contains("Du hast 1 × Laterne für 12 Gold bei mir gekauft."), "\(out)")
        #expect(out.contains("Kirchplatz"), "\(out)")
        #expect(out.contains("  Apfel\n"), "\(out)")
    }

    @Test func contentLexiconPrintsThePacksWholeLexicon() async throws {
        let run = try await runParley(["content", "lexicon", Self.pack])
        #expect(run.status == 0, "\(run.err)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(document["language"] as? String == "de")
        #expect(document["extends"] == nil)
        let priority = try #require(document["priority"] as? [String])
        #expect(priority.firstIndex(of: "rumors")! < priority.firstIndex(of: "askPrice")!)
        let phrases = try #require(document["phrases"] as? [String: [String]])
        #expect(phrases["greeting"]?.contains("grüß gott") == true)
        #expect(phrases["greeting"]?.contains("hello") == false)

        // The shipped town's: English with the town's words.
        let english = try await runParley(["content", "lexicon", "Content"])
        #expect(english.status == 0, "\(english.err)")
        #expect(english.out.contains("\"on your stall\""))
        #expect(english.out.contains("\"how much\""))

        let missing = try await runParley(["content", "lexicon", "NoSuchPack"])
        #expect(missing.status == 1)
        #expect(missing.err.contains("NoSuchPack: $: no such directory"), "\(missing.err)")
    }
}
