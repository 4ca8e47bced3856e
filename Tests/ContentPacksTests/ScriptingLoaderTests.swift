import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import ParleyJSON
import Testing

/// How the loader reads scripting: quests in `world.json`; conditions and effects on dialogue rules.
@Suite struct ScriptingLoaderTests {
    @Test func questsLoadIntoTheWorld() throws {
        let pack = try StoryPack.pack()
        #expect(StoryPack.result.diagnostics.map(\.description) == [])
        let quest = try #require(pack.world.quests["gem"])
        #expect(quest == Quest(id: "gem", name: "The Lost Gem", stages: ["unstarted", "asked", "found", "returned"]))
        #expect(quest.firstStage == "unstarted")
        #expect(quest.index(of: "found") == 2)
        #expect(quest.index(of: "lost") == nil)
    }

    @Test func aRuleMayHaveAConditionAndEffects() throws {
        let mira = try #require(try StoryPack.pack().world.npcs["mira"])
        let known = mira.dialogue.rules[0]
        #expect(known.when.keywords == ["@gem"])
        #expect(known.when.condition == .quest("gem", .atLeast, stage: "asked"))
        #expect(known.effects == [.addToCounter("gem_talk", amount: 1)])
        #expect(!known.when.isUnconditional)
        let talked = mira.dialogue.rules[2]
        #expect(talked.when.intents.isEmpty && talked.when.keywords.isEmpty)
        #expect(!talked.when.isUnconditional, "a rule with only a condition is not unconditional")
        #expect(mira.dialogue.rules[1].when.condition == nil && mira.dialogue.rules[1].effects.isEmpty)
    }

    @Test func aRuleWithoutConditionOrEffectsEncodesAsItAlwaysDid() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plain = DialogueRule(id: "hi", when: .intent(.greet), replies: ["Hello."])
        #expect(
            String(decoding: try encoder.encode(plain), as: UTF8.self)
                == #"{"id":"hi","outcomes":{},"replies":["Hello."],"when":{"intents":["greet"],"keywords":[]}}"#)
        let scripted = DialogueRule(
            id: "hi", when: DialogueCondition(intents: [.greet], condition: .flag("met")), replies: ["Again!"],
            effects: [.setFlag("met")])
        let json = String(decoding: try encoder.encode(scripted), as: UTF8.self)
        #expect(json.contains(#""if":"flag met""#) && json.contains(#""effects":[{"set":"met"}]"#))
        #expect(try JSONDecoder().decode(DialogueRule.self, from: Data(json.utf8)) == scripted)
    }

    @Test func anArrayOfConditionsMeansAllOfThem() throws {
        var files = StoryPack.files
        files["npcs/oona.json"] = """
            { "id": "oona", "name": "Oona", "persona": "A guard.", "location": "yard",
              "knowledge": [{ "id": "k", "when": ["has lantern", "gold >= 5"], "text": "T." },
                            { "id": "one", "when": ["flag gem_returned"], "text": "T." }] }
            """
        let oona = try #require(try ContentPack.load(files: files).get().world.npcs["oona"])
        #expect(oona.knowledge[0].condition == .all([.has(item: "lantern", quantity: 1), .gold(.atLeast, amount: 5)]))
        #expect(oona.knowledge[1].condition == .flag("gem_returned"))
    }

    @Test func flagsAndCountersTestedButNeverChangedAreWarnedAbout() {
        var files = StoryPack.files
        files["npcs/oona.json"] = """
            { "id": "oona", "name": "Oona", "persona": "A guard.", "location": "yard",
              "knowledge": [{ "id": "k", "when": "flag gem_returnd or counter gem_talks > 2", "text": "T." }] }
            """
        let lines = ContentPack.load(files: files, displayPath: "P").diagnostics.map(\.description)
        #expect(
            lines == [
                #"P/npcs/oona.json: $.knowledge[0].when: warning: "flag gem_returnd" tests the flag "gem_returnd", which nothing sets (did you mean "gem_returned"?)"#,
                #"P/npcs/oona.json: $.knowledge[0].when: warning: "counter gem_talks > 2" tests the counter "gem_talks", which nothing changes (did you mean "gem_talk"?)"#,
            ])
    }

    @Test func referencesAreNotCheckedAgainstAFileThatCouldNotBeRead() {
        var files = StoryPack.files
        files["world.json"] = "{ not json"
        let lines = ContentPack.load(files: files, displayPath: "P").diagnostics.map(\.description)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("P/world.json: $: invalid JSON") == true)
    }
}
