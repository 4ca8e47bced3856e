import ContentPacks
import Foundation
import GameWorld
import GameWorldFixtures
import ParleyJSON
import Testing

/// The `dialogue` field of NPC files: how it loads, how it is checked, and the shipped NPCs' rules.
@Suite struct DialogueLoaderTests {
    /// A one-NPC pack whose NPC has this `dialogue` value.
    static func pack(dialogue: String) -> [String: String] {
        [
            "world.json": """
            { "id": "t", "title": "T", "start": { "name": "P", "location": "hall" },
              "locations": [{ "id": "hall", "name": "Hall", "description": "A hall." }],
              "goal": { "description": "Be here.", "requirements": [{ "type": "playerAt", "location": "hall" }] } }
            """,
            "items.json": """
            { "items": [
              { "id": "lantern", "name": "Brass Lantern", "description": "A lamp.", "value": 20, "category": "tool" },
              { "id": "bread", "name": "Bread", "description": "A loaf.", "value": 2, "category": "food" } ] }
            """,
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "hall",
              "inventory": [{ "item": "bread" }], "trade": { "sells": ["food"] },
              "dialogue": \(dialogue) }
            """,
        ]
    }

    static func diagnostics(_ dialogue: String) -> [String] {
        ContentPack.load(files: pack(dialogue: dialogue), displayPath: "P").diagnostics.map(\.description)
    }

    @Test func aDialogueLoadsIntoRules() throws {
        let result = ContentPack.load(
            files: Self.pack(
                dialogue: """
                    { "synonyms": { "light": ["lamp", "light"] },
                      "rules": [
                        { "id": "a", "when": { "intent": ["buy", "haggle"], "item": "lantern", "number": false },
                          "replies": ["The {item}!"], "outcomes": { "refused": ["No: {reasons}"] } },
                        { "id": "b", "when": { "keywords": ["@light", "candle"], "item": "*" }, "replies": ["Light."],
                          "calls": [{ "tool": "giveItem", "arguments": { "item": "bread", "quantity": "{quantity}" } }] },
                        { "id": "c", "when": {}, "replies": ["Hm."], "calls": [] } ] }
                    """), displayPath: "P")
        #expect(result.diagnostics == [])
        let dialogue = try #require(try result.get().world.npcs["mira"]).dialogue
        #expect(dialogue.synonyms == ["light": ["lamp", "light"]])
        #expect(dialogue.rules.map(\.id) == ["a", "b", "c"])
        #expect(
            dialogue.rules[0].when
                == DialogueCondition(intents: [.buy, .haggle], item: .item("lantern"), number: false))
        #expect(dialogue.rules[0].replies(for: .refused) == ["No: {reasons}"])
        #expect(dialogue.rules[0].replies(for: .pending) == ["The {item}!"])
        #expect(dialogue.rules[0].calls == nil)
        #expect(dialogue.rules[1].when.keywords == ["@light", "candle"])
        #expect(dialogue.keywords(of: dialogue.rules[1].when) == ["lamp", "light", "candle"])
        #expect(dialogue.rules[1].when.item == .any)
        #expect(
            dialogue.rules[1].calls
                == [
                    DialogueCall(
                        tool: .giveItem,
                        arguments: .object(JSONObject([("item", "bread"), ("quantity", "{quantity}")])))
                ])
        #expect(dialogue.rules[2].when.isUnconditional)
        #expect(dialogue.rules[2].calls == [])
    }

    @Test(arguments: [
        (
            #"{ "rules": [{ "id": "a", "when": { "intent": "gret" }, "replies": ["Hi"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.intent: unknown intent "gret" (did you mean "greet"?)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": {}, "replies": ["{npcc}"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].replies[0]: unknown placeholder "{npcc}" (did you mean "{npc}"?)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": {}, "replies": ["a } b"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].replies[0]: "}" without an opening "{" (write }} for a literal brace)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "item": "lanter" }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.item: unknown item "lanter" (did you mean "lantern"?)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "item": 3 }, "replies": ["x"] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].when.item: expected an item id or "*", found number 3"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": {}, "outcomes": { "pendig": ["x"] } }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].outcomes.pendig: unknown outcome "pendig" (did you mean "pending"?)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": {}, "replies": ["x"], "calls": [{ "tool": "lookUpStock", "arguments": { "itme": "x" } }] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].calls[0].arguments.itme: lookUpStock has no argument "itme" (did you mean "item"?)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": {}, "replies": ["x"], "calls": [{ "tool": "giveItem", "arguments": { "item": "lantern" } }] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].calls[0].arguments.item: warning: gives "lantern" but does not carry any (add it to the NPC's inventory, or the game will refuse the gift)"#
        ),
        (
            #"{ "rules": [] , "synonyms": { "x": "y" } }"#,
            #"P/npcs/mira.json: $.dialogue.synonyms.x: expected an array of words, found string "y""#
        ),
        (#"{ "synonyms": {} }"#, #"P/npcs/mira.json: $.dialogue: missing required field "rules""#),
        (
            #"{ "rules": [{ "id": "a", "when": {}, "replies": ["x"], "calls": [{ "tool": "inspectPlayer" }, { "tool": "inspectPlayer" }, { "tool": "inspectPlayer" }, { "tool": "inspectPlayer" }] }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].calls: a rule makes at most 3 calls, found 4 (split the actions over several rules)"#
        ),
        (
            #"{ "rules": [{ "id": "a", "when": { "intent": "greet" }, "outcomes": { "refused": ["x"] } }] }"#,
            #"P/npcs/mira.json: $.dialogue.rules[0].outcomes.refused: warning: the outcome "refused" never happens for this rule (this rule's replies have no outcomes; write them in "replies")"#
        ),
    ])
    func problemsAreReportedPrecisely(dialogue: String, diagnostic: String) {
        #expect(Self.diagnostics(dialogue).contains(diagnostic), "\(Self.diagnostics(dialogue))")
    }

    @Test func aBuyRuleMayAnswerWhenThePlayerCannotPay() {
        // `buy` ends in `priced` when the NPC sees the player cannot pay: it names its price instead of offering.
        #expect(
            Self.diagnostics(
                """
                { "rules": [{ "id": "a", "when": { "intent": "buy" },
                  "outcomes": { "pending": ["{summary}"], "priced": ["{price} gold, and you've {gold}."] } }] }
                """) == [])
    }

    @Test(arguments: [
        ("Hello, {player}!", ["player"]), ("{item}? {price} gold.", ["item", "price"]), ("{{braces}} stay", []),
        ("{price}{price}", ["price"]), ("plain", []),
    ])
    func templatesFindTheirPlaceholders(text: String, placeholders: [String]) throws {
        let template = try DialogueTemplate.parse(text).get()
        #expect(template.placeholders.map(\.rawValue) == placeholders)
    }

    @Test func templatesRenderWithLiteralBraces() throws {
        let template = try DialogueTemplate.parse("{{{item}}} costs {price}").get()
        #expect(template.render { $0 == .item ? "Lamp" : "3" } == "{Lamp} costs 3")
    }

    @Test func anNPCWithoutDialogueHasNone() throws {
        let npc = NPC(id: "x", name: "X", persona: "P.", location: "hall")
        #expect(npc.dialogue == .none)
        #expect(npc.dialogue.isEmpty)
    }

    @Test func anNPCSavedBeforeDialogueExistedStillDecodes() throws {
        let npc = NPC(id: "x", name: "X", persona: "P.", location: "hall")
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(npc)) as? [String: Any])
        #expect(json["dialogue"] != nil)
        json["dialogue"] = nil
        let decoded = try JSONDecoder().decode(NPC.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(decoded == npc)
    }

    @Test func dialogueRoundTripsThroughCodable() throws {
        let mira = try #require(try TestWorld.shippedPack().world.npcs["mira"])
        let decoded = try JSONDecoder().decode(NPC.self, from: JSONEncoder().encode(mira))
        #expect(decoded.dialogue == mira.dialogue)
    }

    // MARK: - The shipped NPCs

    @Test(arguments: ["mira", "brannoc", "hesper", "oona", "aurelio", "pip"] as [NPCID])
    func everyShippedNPCHasRichDialogue(npc id: NPCID) throws {
        let npc = try #require(try TestWorld.shippedPack().world.npcs[id])
        let rules = npc.dialogue.rules
        #expect(rules.count >= 20)
        let answered = Set(rules.flatMap(\.when.intents))
        let talk: Set<DialogueIntent> = [
            .greet, .greetAgain, .returning, .farewell, .thanks, .yes, .no, .introduce,
            .smallTalk, .rumors, .unknown, .gift,
        ]
        #expect(answered.isSuperset(of: talk), "\(id) lacks \(talk.subtracting(answered))")
        if npc.trade.trades {
            #expect(answered.isSuperset(of: [.askStock, .askPrice, .buy, .haggle, .sell, .offerGift, .offerAccepted]))
        }
        #expect(rules.contains { $0.when.intents.isEmpty && !$0.when.keywords.isEmpty }, "\(id) has topics")
        #expect(rules.allSatisfy { $0.replies.count + $0.outcomes.count > 0 })
    }

    @Test func theShippedVoicesAreDistinct() throws {
        let npcs = try TestWorld.shippedPack().world.npcs
        let greetings = npcs.values.map { npc in npc.dialogue.rules.first { $0.id == "greet" }?.replies ?? [] }
        #expect(Set(greetings.flatMap { $0 }).count == greetings.flatMap { $0 }.count)
        #expect(npcs["mira"]?.dialogue.rules.flatMap(\.replies).filter { $0.contains("friend") }.count ?? 0 >= 10)
        #expect(npcs["oona"]?.dialogue.rules.flatMap(\.replies).filter { $0.contains("citizen") }.count ?? 0 >= 10)
        #expect(npcs["hesper"]?.dialogue.rules.flatMap(\.replies).contains { $0.contains("love") } == true)
    }
}
