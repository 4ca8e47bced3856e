import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - The `dialogue` field of npcs/<id>.json

extension ContentLoader {
    static let dialogueFields = ["synonyms", "rules"]
    static let ruleFields = ["id", "when", "replies", "outcomes", "calls", "effects"]
    static let conditionFields = ["intent", "keywords", "item", "number", "if", "event", "aboutPlayer"]
    static let callFields = ["tool", "arguments"]
    /// The most calls one rule makes (the scripted model makes one per round, at most three rounds a turn).
    static let maximumCalls = 3

    /// Decodes an NPC's dialogue rules, reporting every problem. Returns `nil` when any is an error.
    ///
    /// - Parameters:
    ///   - object: The `dialogue` object.
    ///   - path: Its path, `$.dialogue`.
    ///   - scope: The NPC's inventory (to warn about gifts it cannot give) and what its conditions may name.
    mutating func decodeDialogue(_ object: JSONObject, at path: JSONPath, scope: ScriptScope) -> DialogueRules? {
        var valid = true
        let synonyms = decodeSynonyms(object, at: path, valid: &valid)
        var rules: [DialogueRule] = []
        var firstUse: [String: JSONPath] = [:]
        var usedGroups: Set<String> = []
        if let elements = array("rules", in: object, at: path, required: true) {
            for (index, element) in elements.enumerated() {
                let rulePath = path.key("rules").index(index)
                guard let ruleObject = self.object(element, at: rulePath, what: "a dialogue rule") else {
                    valid = false
                    continue
                }
                let rule = decodeRule(
                    ruleObject, at: rulePath, synonyms: synonyms ?? [:], scope: scope, usedGroups: &usedGroups)
                guard let rule else {
                    valid = false
                    continue
                }
                if let first = firstUse[rule.id] {
                    error(
                        rulePath.key("id"), "duplicate rule id \"\(rule.id)\"",
                        hint: "first used at \(first); rule ids must be unique per NPC")
                    valid = false
                    continue
                }
                firstUse[rule.id] = rulePath.key("id")
                rules.append(rule)
            }
        } else {
            valid = false
        }
        unknownFields(object, at: path, known: Self.dialogueFields)
        for name in (synonyms ?? [:]).keys.sorted() where !usedGroups.contains(name) {
            warning(
                path.key("synonyms").key(name), "the synonym group \"\(name)\" is not used by any rule",
                hint: "use it as \"@\(name)\" in a rule's keywords, or remove it")
        }
        guard valid, let synonyms else { return nil }
        return DialogueRules(synonyms: synonyms, rules: rules)
    }

    // MARK: - Synonyms

    private mutating func decodeSynonyms(
        _ object: JSONObject, at path: JSONPath, valid: inout Bool
    ) -> [String: [String]]? {
        guard object["synonyms"] != nil else { return [:] }
        guard let groups = self.object("synonyms", in: object, at: path, required: false, what: "synonym groups")
        else {
            valid = false
            return nil
        }
        var synonyms: [String: [String]] = [:]
        for (name, value) in groups {
            let groupPath = path.key("synonyms").key(name)
            guard ItemID.isWellFormed(name) else {
                error(
                    groupPath, "\"\(name)\" is not a valid synonym group name",
                    hint: "use lowercase letters, digits and _, starting with a letter, like "
                        + "\"\(ItemID.suggestion(for: name))\"")
                valid = false
                continue
            }
            guard case .array(let elements) = value else {
                error(groupPath, "expected an array of words, found \(Self.describe(value))")
                valid = false
                continue
            }
            guard !elements.isEmpty else {
                error(groupPath, "a synonym group needs at least one word")
                valid = false
                continue
            }
            var words: [String] = []
            for (index, element) in elements.enumerated() {
                if let word = keyword(element, at: groupPath.index(index), allowingGroups: false) {
                    words.append(word)
                } else {
                    valid = false
                }
            }
            synonyms[name] = words
        }
        return synonyms
    }

    /// A keyword: a string with at least one letter or digit.
    private mutating func keyword(_ value: JSONValue, at path: JSONPath, allowingGroups: Bool) -> String? {
        guard case .string(let text) = value else {
            error(path, "expected a string, found \(Self.describe(value))")
            return nil
        }
        if allowingGroups, text.hasPrefix("@") { return text }
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else {
            error(
                path, "\(Self.describe(value)) has no word to match",
                hint: "keywords are words or phrases; punctuation and case are ignored")
            return nil
        }
        return text
    }

    // MARK: - Rules

    private mutating func decodeRule(
        _ object: JSONObject, at path: JSONPath, synonyms: [String: [String]], scope: ScriptScope,
        usedGroups: inout Set<String>
    ) -> DialogueRule? {
        var valid = true
        let id = identifier("id", in: object, at: path, required: true, kind: "rule")
        if id == nil { valid = false }

        var condition: DialogueCondition?
        if let when = self.object("when", in: object, at: path, required: true, what: "a condition") {
            condition = decodeCondition(
                when, at: path.key("when"), synonyms: synonyms, scope: scope, usedGroups: &usedGroups)
        }
        if condition == nil { valid = false }

        var calls: [DialogueCall]?
        if let elements = array("calls", in: object, at: path, required: false) {
            var decoded: [DialogueCall] = []
            for (index, element) in elements.enumerated() {
                let callPath = path.key("calls").index(index)
                guard let callObject = self.object(element, at: callPath, what: "a call") else {
                    valid = false
                    continue
                }
                if let call = decodeCall(callObject, at: callPath, scope: scope) {
                    decoded.append(call)
                } else {
                    valid = false
                }
            }
            if elements.count > Self.maximumCalls {
                error(
                    path.key("calls"), "a rule makes at most \(Self.maximumCalls) calls, found \(elements.count)",
                    hint: "split the actions over several rules")
                valid = false
            }
            calls = decoded
        } else if object["calls"] != nil {
            valid = false
        }

        let replies = replyList("replies", in: object, at: path)
        if replies == nil { valid = false }
        var outcomes: [DialogueOutcome: [String]] = [:]
        var outcomePaths: [(DialogueOutcome, JSONPath)] = []
        if let outcomeObject = self.object(
            "outcomes", in: object, at: path, required: false, what: "replies by outcome")
        {
            let known = DialogueOutcome.allCases.map(\.rawValue)
            for (name, _) in outcomeObject {
                let outcomePath = path.key("outcomes").key(name)
                guard let outcome = DialogueOutcome(rawValue: name) else {
                    let hint =
                        Suggestions.didYouMean(name, in: known)
                        ?? "known outcomes: " + known.joined(separator: ", ")
                    error(outcomePath, "unknown outcome \"\(name)\"", hint: hint)
                    valid = false
                    continue
                }
                if let list = replyList(name, in: outcomeObject, at: path.key("outcomes")) {
                    outcomes[outcome] = list
                    outcomePaths.append((outcome, outcomePath))
                } else {
                    valid = false
                }
            }
        } else if object["outcomes"] != nil {
            valid = false
        }
        if object["replies"] == nil, object["outcomes"] == nil {
            error(path, "a rule needs \"replies\" or \"outcomes\"", hint: "add at least one reply")
            valid = false
        }
        let effects = effects("effects", in: object, at: path, scope: scope)
        unknownFields(object, at: path, known: Self.ruleFields)

        guard valid, let id, let condition, let replies, let effects else { return nil }
        let rule = DialogueRule(
            id: id, when: condition, replies: replies, outcomes: outcomes, calls: calls, effects: effects)
        let possible = Self.possibleOutcomes(of: rule)
        for (outcome, outcomePath) in outcomePaths where !possible.contains(outcome) {
            let hint =
                possible.isEmpty
                ? "this rule's replies have no outcomes; write them in \"replies\""
                : "its outcomes are: " + possible.map(\.rawValue).joined(separator: ", ")
            warning(outcomePath, "the outcome \"\(outcome)\" never happens for this rule", hint: hint)
        }
        return rule
    }

    /// The outcomes a rule can end in: those of its calls, of its intents' flows, or only `offerPending`.
    static func possibleOutcomes(of rule: DialogueRule) -> [DialogueOutcome] {
        var result: [DialogueOutcome] = []
        func add(_ outcomes: [DialogueOutcome]) {
            for outcome in outcomes where !result.contains(outcome) { result.append(outcome) }
        }
        if let calls = rule.calls {
            if calls.isEmpty {
                add([.offerPending])
            } else {
                for call in calls { add(call.tool?.outcomes ?? GameAction.outcomes) }
                add([.unavailable])
            }
        } else if rule.when.intents.isEmpty {
            add([.offerPending])
        } else {
            for intent in rule.when.intents { add(intent.possibleOutcomes) }
        }
        return result
    }

    // MARK: - Conditions

    private mutating func decodeCondition(
        _ object: JSONObject, at path: JSONPath, synonyms: [String: [String]], scope: ScriptScope,
        usedGroups: inout Set<String>
    ) -> DialogueCondition? {
        var valid = true
        var condition = DialogueCondition()

        if let value = object["intent"] {
            let intentPath = path.key("intent")
            var named: [(JSONValue, JSONPath)] = []
            switch value {
            case .string: named = [(value, intentPath)]
            case .array(let elements) where !elements.isEmpty:
                named = elements.enumerated().map { ($0.element, intentPath.index($0.offset)) }
            case .array:
                error(intentPath, "must not be empty", hint: "name at least one intent, or leave the field out")
                valid = false
            default:
                error(intentPath, "expected an intent or an array of intents, found \(Self.describe(value))")
                valid = false
            }
            let known = DialogueIntent.allCases.map(\.rawValue)
            for (element, elementPath) in named {
                guard case .string(let name) = element else {
                    error(elementPath, "expected an intent, found \(Self.describe(element))")
                    valid = false
                    continue
                }
                guard let intent = DialogueIntent(rawValue: name) else {
                    let hint =
                        Suggestions.didYouMean(name, in: known)
                        ?? "known intents: " + known.joined(separator: ", ")
                    error(elementPath, "unknown intent \"\(name)\"", hint: hint)
                    valid = false
                    continue
                }
                if !condition.intents.contains(intent) { condition.intents.append(intent) }
            }
        }

        if let elements = array("keywords", in: object, at: path, required: false) {
            if elements.isEmpty {
                error(path.key("keywords"), "must not be empty", hint: "add a keyword, or leave the field out")
                valid = false
            }
            for (index, element) in elements.enumerated() {
                let keywordPath = path.key("keywords").index(index)
                guard let keyword = keyword(element, at: keywordPath, allowingGroups: true) else {
                    valid = false
                    continue
                }
                if keyword.hasPrefix("@") {
                    let group = String(keyword.dropFirst())
                    guard synonyms[group] != nil else {
                        let hint =
                            Suggestions.closest(to: group, in: synonyms.keys.sorted()).map {
                                Suggestions.didYouMean("@\($0)")
                            }
                            ?? (synonyms.isEmpty
                                ? "define it under \"synonyms\""
                                : "define it under \"synonyms\", next to "
                                    + synonyms.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))
                        error(keywordPath, "unknown synonym group \"\(keyword)\"", hint: hint)
                        valid = false
                        continue
                    }
                    usedGroups.insert(group)
                }
                condition.keywords.append(keyword)
            }
            // Keywords match a game's own event by its words (a `gameEvent`), never another event.
            if !condition.keywords.isEmpty, !condition.intents.isEmpty,
                condition.intents.allSatisfy({ $0.isGameEvent && $0 != .gameEvent }), object["event"] == nil
            {
                warning(
                    path.key("keywords"), "keywords never match a game event, and this rule only answers game events",
                    hint: "remove the keywords, or add an intent for something the player says")
            }
        } else if object["keywords"] != nil {
            valid = false
        }

        if let value = object["item"] {
            let itemPath = path.key("item")
            if case .string(let text) = value, text == "*" {
                condition.item = .any
            } else if case .string(let text) = value {
                if reference(text, at: itemPath, kind: "item", known: itemIDs) {
                    condition.item = .item(ItemID(text))
                } else {
                    valid = false
                }
            } else {
                error(itemPath, "expected an item id or \"*\", found \(Self.describe(value))")
                valid = false
            }
        }

        if object["number"] != nil {
            if let number = bool("number", in: object, at: path) { condition.number = number } else { valid = false }
        }
        if object["aboutPlayer"] != nil {
            if let about = bool("aboutPlayer", in: object, at: path) {
                condition.aboutPlayer = about
                if about, condition.keywords.isEmpty, object["keywords"] == nil {
                    warning(
                        path.key("aboutPlayer"),
                        "aboutPlayer only reads where a keyword is said, and this rule has none",
                        hint: "add \"keywords\", or remove \"aboutPlayer\"")
                }
            } else {
                valid = false
            }
        }
        if let value = object["event"] {
            if !decodeEventKinds(value, at: path.key("event"), into: &condition) { valid = false }
        }
        if let state = self.condition("if", in: object, at: path, scope: scope) {
            condition.condition = state
        } else {
            valid = false
        }
        unknownFields(object, at: path, known: Self.conditionFields)
        return valid ? condition : nil
    }

    // MARK: - Calls

    private mutating func decodeCall(_ object: JSONObject, at path: JSONPath, scope: ScriptScope) -> DialogueCall? {
        let inventory = scope.inventory
        var valid = true
        var tool: NPCTool?
        var action: String?
        if let name = string("tool", in: object, at: path, required: true) {
            tool = NPCTool(rawValue: name)
            if tool == nil, actionIDs.contains(name) || unresolvedKinds.contains("action") {
                // One of the game's actions (actions.json): checked against its declaration once that is read.
                action = name
            } else if tool == nil {
                let known = NPCTool.allCases.map(\.rawValue) + actionIDs.sorted()
                let hint =
                    Suggestions.didYouMean(name, in: known)
                    ?? "known tools: " + known.joined(separator: ", ")
                    + (actionIDs.isEmpty ? "; a game's own actions are declared in actions.json" : "")
                error(path.key("tool"), "unknown tool \"\(name)\"", hint: hint)
            }
        }
        if tool == nil, action == nil { valid = false }
        var arguments = JSONObject()
        if let argumentObject = self.object("arguments", in: object, at: path, required: false, what: "arguments") {
            arguments = argumentObject
        } else if object["arguments"] != nil {
            valid = false
        }
        unknownFields(object, at: path, known: Self.callFields)
        if let action {
            actionCalls.append(
                ActionCallUse(
                    file: file, rank: fileRank, path: path, action: action, npc: scope.npc, arguments: arguments))
            return valid ? DialogueCall(action: GameActionID(action), arguments: .object(arguments)) : nil
        }
        guard let tool else { return nil }

        let argumentsPath = path.key("arguments")
        let names = tool.arguments.map(\.name)
        for (name, value) in arguments {
            let argumentPath = argumentsPath.key(name)
            guard let argument = tool.arguments.first(where: { $0.name == name }) else {
                let hint =
                    Suggestions.didYouMean(name, in: names)
                    ?? (names.isEmpty
                        ? "\(tool) takes no arguments" : "its arguments are: " + names.joined(separator: ", "))
                error(argumentPath, "\(tool) has no argument \"\(name)\"", hint: hint)
                valid = false
                continue
            }
            if !checkArgument(argument, value, at: argumentPath, tool: tool, inventory: inventory) { valid = false }
        }
        for argument in tool.arguments where argument.isRequired && arguments[argument.name] == nil {
            error(argumentsPath, "\(tool) needs the argument \"\(argument.name)\"")
            valid = false
        }
        return valid ? DialogueCall(tool: tool, arguments: .object(arguments)) : nil
    }

    /// Checks one call argument: a whole number or a placeholder for one; an action; an item id or a reply
    /// template.
    private mutating func checkArgument(
        _ argument: NPCTool.Argument, _ value: JSONValue, at path: JSONPath, tool: NPCTool, inventory: Inventory?
    ) -> Bool {
        if argument.isInteger {
            if case .number = value, let number = value.intValue, number >= 0 { return true }
            if case .string(let text) = value, ["{quantity}", "{price}", "{number}"].contains(text) { return true }
            error(
                path, "expected a whole number or a placeholder for one, found \(Self.describe(value))",
                hint: "write a number such as 1, or \"{quantity}\", \"{price}\" or \"{number}\"")
            return false
        }
        guard case .string(let text) = value, !text.allSatisfy(\.isWhitespace) else {
            error(path, "expected a non-empty string, found \(Self.describe(value))")
            return false
        }
        if argument.name == "action" {
            guard text == "sell" || text == "buy" else {
                error(
                    path, "the action must be \"sell\" or \"buy\", found \"\(text)\"",
                    hint: "\"sell\": the NPC sells to the player; \"buy\": the NPC buys from the player")
                return false
            }
            return true
        }
        switch DialogueTemplate.parse(text) {
        case .failure(let problem):
            error(path, problem.message, hint: problem.hint)
            return false
        case .success(let template) where !template.placeholders.isEmpty:
            return true
        case .success:
            break
        }
        guard argument.name == "item" else { return true }
        guard reference(text, at: path, kind: "item", known: itemIDs) else { return false }
        if tool == .giveItem, let inventory, !inventory.contains(ItemID(text)) {
            warning(
                path, "gives \"\(text)\" but does not carry any",
                hint: "add it to the NPC's inventory, or the game will refuse the gift")
        }
        return true
    }
}
