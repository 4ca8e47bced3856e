import ContentPacks
import Foundation
import GameWorld
import ParleyJSON
import Testing

/// Dialogue rules that answer a game's own events: `"when": {"event": KIND}` (the kind the game gives the event), or
/// keywords on its words with the `gameEvent` intent.
@Suite struct WorldEventRuleTests {
    static func rules(_ dialogue: String) throws -> [DialogueRule] {
        let pack = try ContentPack.load(files: DialogueLoaderTests.pack(dialogue: dialogue), displayPath: "P").get()
        return try #require(pack.initialState.world.npcs["mira"]).dialogue.rules
    }

    @Test func aKindImpliesTheGameEventIntentAndAnArrayNamesSeveral() throws {
        let rules = try Self.rules(
            #"""
            { "rules": [
              { "id": "a", "when": { "event": "swordDrawn" }, "replies": ["Put it away."] },
              { "id": "b", "when": { "intent": "gameEvent", "event": ["bell_rang", "hornBlown"] }, "replies": ["Hark."] },
              { "id": "c", "when": { "intent": "gameEvent", "keywords": ["fire"] }, "replies": ["Fire!"] } ] }
            """#)
        #expect(rules[0].when.intents == [.gameEvent] && rules[0].when.events == ["swordDrawn"])
        #expect(rules[1].when.events == ["bell_rang", "hornBlown"])
        #expect(rules[2].when.events.isEmpty && rules[2].when.keywords == ["fire"])
        // Keywords with the gameEvent intent match a game's event by its words: no warning.
        #expect(
            DialogueLoaderTests.diagnostics(
                #"{ "rules": [{ "id": "c", "when": { "intent": "gameEvent", "keywords": ["fire"] }, "replies": ["x"] }] }"#
            )
                == [])
    }

    @Test(arguments: [
        (
            #"{ "rules": [{ "id": "a", "when": { "event": "9lives" }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.event: string "9lives" is not a kind of event (a kind is a letter, then letters, digits and _ (at most 64), as the game sends it: "swordDrawn")"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "event": [] }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.event: must not be empty (name at least one kind of event, or leave the field out)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "event": ["ok", 3] }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.event[1]: number 3 is not a kind of event (a kind is a letter, then letters, digits and _ (at most 64), as the game sends it: "swordDrawn")"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "intent": "greet", "event": "swordDrawn" }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.event: a rule with "event" answers the game's events, so its intent can only be "gameEvent" (remove the intent ("gameEvent" is implied), or the "event")"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "evnt": "x" }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.evnt: warning: unknown field "evnt" (did you mean "event"?)"#
        ),
    ])
    func aBadKindIsReportedPrecisely(dialogue: String, diagnostic: String) {
        let diagnostics = DialogueLoaderTests.diagnostics(dialogue)
        #expect(diagnostics.contains(diagnostic), "\(diagnostics)")
    }

    @Test(arguments: [
        ("swordDrawn", true), ("bell_rang2", true), ("x", true), ("9x", false), ("", false), ("a-b", false),
        ("é", false), (String(repeating: "a", count: 64), true), (String(repeating: "a", count: 65), false),
    ])
    func kindsAreLettersDigitsAndUnderscores(kind: String, valid: Bool) {
        #expect(DialogueCondition.isWellFormedEventKind(kind) == valid)
    }

    @Test func aConditionWithKindsEncodesThemAndOneWithoutEncodesAsBefore() throws {
        let rules = try Self.rules(
            #"{ "rules": [{ "id": "a", "when": { "event": "swordDrawn" }, "replies": ["x"] }, { "id": "b", "when": {}, "replies": ["y"] }] }"#
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let withKinds = String(decoding: try encoder.encode(rules[0].when), as: UTF8.self)
        let without = String(decoding: try encoder.encode(rules[1].when), as: UTF8.self)
        #expect(withKinds == #"{"events":["swordDrawn"],"intents":["gameEvent"],"keywords":[]}"#)
        #expect(without == #"{"intents":[],"keywords":[]}"#)
        #expect(try JSONDecoder().decode(DialogueCondition.self, from: Data(without.utf8)) == rules[1].when)
        #expect(try JSONDecoder().decode(DialogueCondition.self, from: Data(withKinds.utf8)) == rules[0].when)
    }
}
