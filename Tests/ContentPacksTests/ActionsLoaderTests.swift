import ContentPacks
import Foundation
import GameWorld
import ParleyJSON
import Testing

/// `actions.json`: the actions a game lets NPCs take, how they load, and every mistake the checker names (file, JSON
/// path, did-you-mean), in the file and in the dialogue rules that call them.
@Suite struct ActionsLoaderTests {
    /// A two-NPC pack with this `actions.json` (none when `nil`) and these dialogue rules for the guard.
    static func pack(actions: String?, rules: String = "[]") -> [String: String] {
        var files = [
            "world.json": """
            { "id": "t", "title": "T", "start": { "name": "P", "location": "gate" },
              "locations": [{ "id": "gate", "name": "Gate", "description": "A gate." }],
              "goal": { "description": "Be here.", "requirements": [{ "type": "playerAt", "location": "gate" }] } }
            """,
            "items.json": """
            { "items": [{ "id": "bread", "name": "Bread", "description": "A loaf.", "value": 2, "category": "food" }] }
            """,
            "npcs/oona.json": """
            { "id": "oona", "name": "Oona", "persona": "A guard.", "location": "gate",
              "dialogue": { "rules": \(rules) } }
            """,
            "npcs/mira.json": """
            { "id": "mira", "name": "Mira", "persona": "A merchant.", "location": "gate" }
            """,
        ]
        if let actions { files["actions.json"] = actions }
        return files
    }

    static let openGate = """
        { "$schema": "schema/actions.schema.json",
          "actions": [{ "id": "openGate", "description": "Opens the gate.", "npcs": ["oona"], "await": true,
            "timeoutSeconds": 2.5,
            "arguments": { "type": "object", "properties": { "gate": { "enum": ["north", "south"] },
                           "why": { "type": "string" } }, "required": ["gate"], "additionalProperties": false } }] }
        """

    static func diagnostics(actions: String?, rules: String = "[]") -> [String] {
        ContentPack.load(files: pack(actions: actions, rules: rules), displayPath: "P").diagnostics.map(\.description)
    }

    @Test func anActionLoadsWithItsSchemaAndReachesTheNPCsItLists() throws {
        let result = ContentPack.load(
            files: Self.pack(
                actions: Self.openGate,
                rules: """
                    [{ "id": "open", "when": { "keywords": ["open"] },
                       "calls": [{ "tool": "openGate", "arguments": { "gate": "north", "why": "{player} asks" } }],
                       "replies": ["Hm."], "outcomes": { "answered": ["{result.message}"], "unanswered": ["No."] } }]
                    """), displayPath: "P")
        #expect(result.diagnostics == [])
        let world = try result.get().world
        let action = try #require(world.actions["openGate"])
        #expect(action.npcs == ["oona"])
        #expect(action.awaitsAnswer)
        #expect(action.timeout == .milliseconds(2_500))
        #expect(action.arguments["required"] == ["gate"])
        #expect(world.actions(for: "oona").map(\.id) == ["openGate"])
        #expect(world.actions(for: "mira").isEmpty)
        let rule = try #require(world.npcs["oona"]?.dialogue.rules.first)
        #expect(rule.calls == [DialogueCall(action: "openGate", arguments: ["gate": "north", "why": "{player} asks"])])
        #expect(rule.calls?.first?.tool == nil)
        // The action is part of the pack: its fingerprint changes with it.
        let without = try ContentPack.load(files: Self.pack(actions: nil), displayPath: "P").get()
        #expect(without.contentHash != (try result.get()).contentHash)
    }

    @Test func defaultsAreNoArgumentsNoWaitAndFiveSeconds() throws {
        let pack = try ContentPack.load(
            files: Self.pack(actions: #"{"actions": [{"id": "ringBell", "description": "Rings.", "npcs": ["mira"]}]}"#),
            displayPath: "P"
        ).get()
        let action = try #require(pack.world.actions["ringBell"])
        #expect(action.arguments == GameAction.noArguments)
        #expect(!action.awaitsAnswer)
        #expect(action.timeoutSeconds == 5)
    }

    @Test(arguments: [
        (
            #"{"actions": [{"id": "openGate", "description": "x", "npcs": ["oonna"]}]}"#,
            #"P/actions.json: $.actions[0].npcs[0]: unknown NPC "oonna" (did you mean "oona"?)"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"]}, {"id": "a", "description": "y", "npcs": ["oona"]}]}"#,
            #"P/actions.json: $.actions[1].id: duplicate action id "a" (first declared at $.actions[0].id; action ids must be unique)"#
        ),
        (
            #"{"actions": [{"id": "offerTrade", "description": "x", "npcs": ["oona"]}]}"#,
            #"P/actions.json: $.actions[0].id: "offerTrade" is the name of the built-in NPC tool offerTrade (give the action an id of its own; offerTrade is already every NPC's tool)"#
        ),
        (
            #"{"actions": [{"id": "open gate", "description": "x", "npcs": ["oona"]}]}"#,
            #"P/actions.json: $.actions[0].id: "open gate" is not a valid action id (use a letter, then letters, digits and _ (at most 64), like "open_gate")"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "await": true, "timeoutSeconds": 90}]}"#,
            "P/actions.json: $.actions[0].timeoutSeconds: timeoutSeconds must be more than 0 and at most 60, found 90 "
                + "(the wait is part of the NPC's turn, and --turn-timeout limits the whole turn)"
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "await": true, "timeoutSeconds": 0}]}"#,
            "P/actions.json: $.actions[0].timeoutSeconds: timeoutSeconds must be more than 0 and at most 60, found 0 "
                + "(the wait is part of the NPC's turn, and --turn-timeout limits the whole turn)"
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "arguments": {"type": "object", "properties": {"gate": {"type": "strin"}}}}]}"#,
            #"P/actions.json: $.actions[0].arguments.properties.gate.type: unknown type string "strin" (did you mean "string"?)"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "arguments": {"type": "object", "properties": {"gate": {}}, "required": ["gat"]}}]}"#,
            #"P/actions.json: $.actions[0].arguments.required[0]: "gat" is required but not among the properties (did you mean "gate"?)"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "arguments": {"type": "array"}}]}"#,
            #"P/actions.json: $.actions[0].arguments.type: the arguments are an object: "type" must be "object", found string "array" (a call's arguments are always a JSON object; describe its members under "properties")"#
        ),
        (
            ##"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "arguments": {"type": "object", "properties": {"g": {"$ref": "#/$defs/gate"}}}}]}"##,
            ##"P/actions.json: $.actions[0].arguments.properties.g.$ref: the reference "#/$defs/gate" leads nowhere (refer to a schema of this action's arguments: "#/$defs/NAME" with NAME under "$defs")"##
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "arguments": {"type": "object", "properties": {"g": {"pattern": "(("}}}}]}"#,
            #"P/actions.json: $.actions[0].arguments.properties.g.pattern: "((" is not a regular expression"#
        ),
        (
            #"{"actions": [{"id": "a", "npcs": []}]}"#,
            #"P/actions.json: $.actions[0]: missing required field "description""#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": []}]}"#,
            #"P/actions.json: $.actions[0].npcs: must not be empty (list the NPCs who may take the action)"#
        ),
        (#"{"action": []}"#, #"P/actions.json: $: missing required field "actions""#),
    ])
    func mistakesInTheFileAreErrors(actions: String, expected: String) {
        let diagnostics = Self.diagnostics(actions: actions)
        #expect(diagnostics.contains(expected), "\(diagnostics)")
        #expect(ContentPack.load(files: Self.pack(actions: actions), displayPath: "P").pack == nil)
    }

    @Test(arguments: [
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona", "oona"]}]}"#,
            #"P/actions.json: $.actions[0].npcs[1]: warning: "oona" is listed twice (remove one)"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "arguments": {"type": "object", "propertys": {}}}]}"#,
            #"P/actions.json: $.actions[0].arguments.propertys: warning: the keyword "propertys" is not checked: calls are not held to it (did you mean "properties"?)"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "timeoutSeconds": 3}]}"#,
            #"P/actions.json: $.actions[0].timeoutSeconds: warning: timeoutSeconds is set but the action does not await the game's answer (add "await": true for the NPC to wait for the answer; without it the game is only told, and the handler is given this long at most)"#
        ),
        (
            #"{"actions": [{"id": "a", "description": "x", "npcs": ["oona"], "awiat": true}]}"#,
            #"P/actions.json: $.actions[0].awiat: warning: unknown field "awiat" (did you mean "await"?)"#
        ),
    ])
    func doubtfulThingsAreWarnings(actions: String, expected: String) {
        let result = ContentPack.load(files: Self.pack(actions: actions), displayPath: "P")
        #expect(result.diagnostics.map(\.description).contains(expected), "\(result.diagnostics)")
        #expect(result.pack != nil)
    }

    @Test(arguments: [
        (
            #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGat", "arguments": {"gate": "north"}}]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].calls[0].tool: unknown tool "openGat" (did you mean "openGate"?)"#
        ),
        (
            #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate", "arguments": {"gate": "nort"}}]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].calls[0].arguments.gate: string "nort" is not one of the values the action allows (did you mean "north"?)"#
        ),
        (
            #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate", "arguments": {"gate": "north", "gaet": 1}}]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].calls[0].arguments.gaet: openGate has no argument "gaet" (did you mean "gate"?)"#
        ),
        (
            #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate", "arguments": {"why": "me"}}]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].calls[0].arguments: openGate needs the argument "gate""#
        ),
        (
            #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate", "arguments": {"gate": "north", "why": 3}}]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].calls[0].arguments.why: expected a string, found number 3"#
        ),
        (
            #"[{"id": "r", "when": {}, "replies": ["{result.}"], "calls": [{"tool": "openGate", "arguments": {"gate": "north"}}]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].replies[0]: "{result.}" is not a member placeholder (write {result.NAME}, NAME a member of the game's answer (letters, digits, _ and -), and {result.NAME.INNER} for one inside it)"#
        ),
        (
            #"[{"id": "r", "when": {}, "replies": ["{item.name}"]}]"#,
            #"P/npcs/oona.json: $.dialogue.rules[0].replies[0]: unknown placeholder "{item.name}" (only {result.NAME} has members)"#
        ),
    ])
    func mistakesInARulesCallAreErrors(rules: String, expected: String) {
        let diagnostics = Self.diagnostics(actions: Self.openGate, rules: rules)
        #expect(diagnostics.contains(expected), "\(diagnostics)")
    }

    @Test func anNPCTheActionDoesNotListMayNotCallIt() {
        let actions = #"{"actions": [{"id": "openGate", "description": "x", "npcs": ["mira"]}]}"#
        let rules = #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate"}]}]"#
        #expect(
            Self.diagnostics(actions: actions, rules: rules) == [
                #"P/npcs/oona.json: $.dialogue.rules[0].calls[0].tool: oona may not take the action "openGate" (add "oona" to the npcs of openGate in actions.json)"#
            ])
    }

    @Test func aRuleCallingAnActionOfAPackWithoutActionsSaysWhereTheyAreDeclared() {
        let rules = #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate"}]}]"#
        let diagnostics = Self.diagnostics(actions: nil, rules: rules)
        #expect(diagnostics.count == 1)
        #expect(
            diagnostics.first?.hasSuffix("; a game's own actions are declared in actions.json)") == true,
            "\(diagnostics)")
    }

    @Test func anActionsFileThatIsNotJSONLeavesRulesCallingActionsUnchecked() {
        // Every call would otherwise be an error that fixing the file removes.
        let rules = #"[{"id": "r", "when": {}, "replies": ["x"], "calls": [{"tool": "openGate"}]}]"#
        let diagnostics = Self.diagnostics(actions: "{ nope", rules: rules)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("P/actions.json: $: invalid JSON") == true, "\(diagnostics)")
    }

    @Test func aRuleThatCallsAnActionMayAnswerItsOutcomes() {
        let rules = """
            [{"id": "r", "when": {}, "calls": [{"tool": "openGate", "arguments": {"gate": "north"}}],
              "outcomes": {"answered": ["a"], "failed": ["b"], "unanswered": ["c"], "told": ["d"], "refused": ["e"],
                           "pending": ["f"]}}]
            """
        #expect(
            Self.diagnostics(actions: Self.openGate, rules: rules) == [
                #"P/npcs/oona.json: $.dialogue.rules[0].outcomes.pending: warning: the outcome "pending" never happens for this rule (its outcomes are: answered, failed, unanswered, told, refused, unavailable)"#
            ])
    }
}
