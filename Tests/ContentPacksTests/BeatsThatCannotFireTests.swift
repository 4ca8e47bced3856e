import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import Testing

/// The content checker warns about beats and conditions that can never fire: a `firstTalk` beat waiting for a flag
/// only `firstTalk` beats of its NPC set, and a condition whose parts exclude each other.
@Suite struct BeatsThatCannotFireTests {
    /// The story pack with Oona's file replaced by one with these beats.
    static func warnings(oonaBeats beats: String, extraOonaFields: String = "") -> [String] {
        var files = StoryPack.files
        files["npcs/oona.json"] = """
            { "id": "oona", "name": "Oona", "persona": "A guard.", "location": "yard", \(extraOonaFields)
              "beats": \(beats) }
            """
        return ContentPack.load(files: files, displayPath: "P").diagnostics.map(\.description)
    }

    @Test func aFirstTalkBeatWaitingForAnEarlierFirstTalksFlagIsWarnedAbout() {
        let lines = Self.warnings(
            oonaBeats: """
                [{ "id": "hello", "on": "firstTalk", "lines": ["Halt."], "effects": [{ "set": "met_oona" }] },
                 { "id": "again", "on": "firstTalk", "when": "flag met_oona and gold > 5", "lines": ["You again."] }]
                """)
        #expect(
            lines == [
                #"P/npcs/oona.json: $.beats[1].when: warning: this firstTalk beat needs the flag "met_oona", which only the firstTalk beat "hello" sets: the first talk fires one beat and never comes again, so this beat can never fire (set the flag before the first talk, with another NPC or an arrive beat, or join the beats)"#
            ])
    }

    @Test func aFirstTalkBeatSettingItsOwnFlagIsWarnedAbout() {
        let lines = Self.warnings(
            oonaBeats: """
                [{ "id": "loop", "on": "firstTalk", "when": "flag seen_oona", "lines": ["Hm."], "effects": [{ "set": "seen_oona" }] }]
                """)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#"needs the flag "seen_oona", which only this beat sets"#) == true, "\(lines)")
    }

    /// The flag may also be set elsewhere, the beat may wait for a flag of another kind of beat, or need it only on one
    /// branch of an `or`: then it can fire, and nothing is said.
    @Test(arguments: [
        // Another NPC's first talk sets it: talk to Mira first.
        """
        [{ "id": "hello", "on": "firstTalk", "lines": ["Halt."], "effects": [{ "set": "met_mira" }] },
         { "id": "again", "on": "firstTalk", "when": "flag met_mira", "lines": ["Mira sent you?"] }]
        """,
        // An arrive beat sets it before the first talk.
        """
        [{ "id": "spot", "on": "arrive", "effects": [{ "set": "spotted" }] },
         { "id": "hello", "on": "firstTalk", "lines": ["Halt."], "effects": [{ "set": "spotted" }] },
         { "id": "again", "on": "firstTalk", "when": "flag spotted", "lines": ["I saw you coming."] }]
        """,
        // Only needed on one side of an or.
        """
        [{ "id": "hello", "on": "firstTalk", "lines": ["Halt."], "effects": [{ "set": "met_oona" }] },
         { "id": "again", "on": "firstTalk", "when": "flag met_oona or gold > 5", "lines": ["You again."] }]
        """,
        // Not a first-talk beat.
        """
        [{ "id": "hello", "on": "firstTalk", "lines": ["Halt."], "effects": [{ "set": "met_oona" }] },
         { "id": "again", "on": "arrive", "when": "flag met_oona", "lines": ["You again."] }]
        """,
    ])
    func aBeatThatCanFireIsNotWarnedAbout(beats: String) {
        #expect(Self.warnings(oonaBeats: beats) == [])
    }

    @Test(arguments: [
        ("flag met_mira and not flag met_mira", "flag met_mira", "not flag met_mira"),
        ("gold >= 20 and has lantern and gold < 10", "gold >= 20", "gold < 10"),
        ("counter visits = 1 and counter visits = 2", "counter visits = 1", "counter visits = 2"),
        ("has 2 lantern and not has lantern", "has 2 lantern", "not has lantern"),
        ("location yard and location square", "location yard", "location square"),
        ("turns > 3 and turns <= 3", "turns > 3", "turns <= 3"),
    ])
    func aConditionThatCanNeverHoldIsWarnedAbout(condition: String, first: String, second: String) {
        let lines = Self.warnings(
            oonaBeats: """
                [{ "id": "never", "on": "arrive", "when": "\(condition)", "lines": ["Never."] }]
                """)
        #expect(
            lines == [
                "P/npcs/oona.json: $.beats[0].when: warning: \"\(condition)\" can never hold: \"\(first)\" and "
                    + "\"\(second)\" exclude each other (remove one of them, or join them with \"or\")"
            ])
        // The same parts as a list of conditions, and in a dialogue rule's "if".
        let listed = condition.components(separatedBy: " and ").map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(
            Self.warnings(
                oonaBeats: "[{ \"id\": \"never\", \"on\": \"arrive\", \"when\": [\(listed)], \"lines\": [\"No.\"] }]"
            )
            .count == 1)
        let rule = Self.warnings(
            oonaBeats: "[]",
            extraOonaFields: """
                "dialogue": { "rules": [{ "id": "r", "when": { "keywords": ["gem"], "if": "\(condition)" }, "replies": ["No."] }] },
                """)
        #expect(rule.count == 1 && rule.first?.contains("$.dialogue.rules[0].when.if: warning:") == true, "\(rule)")
    }

    @Test(arguments: [
        "flag met_mira or not flag met_mira", "gold >= 10 and gold < 20", "counter visits >= 1 and counter visits != 2",
        "has lantern and not has 2 lantern", "not not flag met_mira and flag met_mira", "gold = 5 and gold != 6",
    ])
    func aConditionThatCanHoldIsNotWarnedAbout(condition: String) {
        #expect(
            Self.warnings(
                oonaBeats: """
                    [{ "id": "maybe", "on": "arrive", "when": "\(condition)", "lines": ["Maybe."] }]
                    """) == [])
    }

    @Test func aDoubleNegationIsItsPart() throws {
        let condition = try Condition.parse("not not flag x and not flag x").get()
        #expect(condition.contradiction?.0 == .flag("x"))
        #expect(try Condition.parse("flag a and (flag b or flag a)").get().requiredFlags == ["a"])
        #expect(try Condition.parse("(flag a and flag b) or (flag b and flag c)").get().requiredFlags == ["b"])
        #expect(try Condition.parse("not flag a").get().requiredFlags == [])
    }
}
