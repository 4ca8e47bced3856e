import Foundation
import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - actions.json: the actions the game lets NPCs take

extension ContentLoader {
    /// The fields of one action.
    static let actionFields = ["id", "description", "arguments", "npcs", "await", "timeoutSeconds"]

    /// A dialogue rule's call of one of the game's actions, checked once `actions.json` is read.
    struct ActionCallUse {
        var file: String
        var rank: Int
        /// The call's path.
        var path: JSONPath
        /// The action called.
        var action: String
        /// The NPC whose rule calls it, when its id could be read.
        var npc: String?
        /// The call's arguments as written.
        var arguments: JSONObject
    }

    /// Collects the ids `actions.json` declares (first pass), so that dialogue rules may call them whatever the order
    /// the files are read in.
    mutating func collectActionIDs(_ value: JSONValue?) {
        guard let value else { return }
        guard let actions = value["actions"]?.arrayValue else {
            unresolvedKinds.insert("action")
            return
        }
        for action in actions {
            if let id = action["id"]?.stringValue { actionIDs.insert(id) }
        }
    }

    /// Decodes `actions.json`: `{"actions": [...]}`, reporting every problem. Returns only the valid actions.
    mutating func decodeActions(_ value: JSONValue) -> [GameAction] {
        guard let root = object(value, at: .root, what: "the actions file") else { return [] }
        unknownFields(root, at: .root, known: ["actions"])
        guard let elements = array("actions", in: root, at: .root, required: true) else { return [] }
        var actions: [GameAction] = []
        var firstUse: [String: JSONPath] = [:]
        for (index, element) in elements.enumerated() {
            let path = JSONPath.root.key("actions").index(index)
            guard let object = self.object(element, at: path, what: "an action") else { continue }
            if let id = object["id"]?.stringValue {
                if let first = firstUse[id] {
                    error(
                        path.key("id"), "duplicate action id \"\(id)\"",
                        hint: "first declared at \(first); action ids must be unique")
                    continue
                }
                firstUse[id] = path.key("id")
            }
            if let action = decodeAction(object, at: path) { actions.append(action) }
        }
        return actions
    }

    private mutating func decodeAction(_ object: JSONObject, at path: JSONPath) -> GameAction? {
        var valid = true
        var id: String?
        if let text = string("id", in: object, at: path, required: true) {
            if !GameAction.isWellFormedID(text) {
                let suggested = Self.suggestedActionID(for: text)
                error(
                    path.key("id"), "\"\(text)\" is not a valid action id",
                    hint: "use a letter, then letters, digits and _ (at most 64), like \"\(suggested)\"")
            } else if let tool = NPCTool.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
                error(
                    path.key("id"), "\"\(text)\" is the name of the built-in NPC tool \(tool)",
                    hint: "give the action an id of its own; \(tool) is already every NPC's tool")
            } else {
                id = text
            }
        }
        if id == nil { valid = false }
        let description = string("description", in: object, at: path, required: true)
        if description == nil { valid = false }

        var arguments = GameAction.noArguments
        if let schema = object["arguments"] {
            if checkArgumentsSchema(schema, at: path.key("arguments")) { arguments = schema } else { valid = false }
        }

        var npcs: [NPCID] = []
        if let elements = array("npcs", in: object, at: path, required: true) {
            if elements.isEmpty {
                error(path.key("npcs"), "must not be empty", hint: "list the NPCs who may take the action")
                valid = false
            }
            for (index, element) in elements.enumerated() {
                let npcPath = path.key("npcs").index(index)
                guard case .string(let name) = element else {
                    error(npcPath, "expected an NPC id, found \(Self.describe(element))")
                    valid = false
                    continue
                }
                guard reference(name, at: npcPath, kind: "NPC", known: npcIDs) else {
                    valid = false
                    continue
                }
                if npcs.contains(NPCID(name)) {
                    warning(npcPath, "\"\(name)\" is listed twice", hint: "remove one")
                    continue
                }
                npcs.append(NPCID(name))
            }
        } else {
            valid = false
        }

        var awaitsAnswer = false
        if object["await"] != nil {
            if let flag = bool("await", in: object, at: path) { awaitsAnswer = flag } else { valid = false }
        }
        var timeout = GameAction.defaultTimeoutSeconds
        if let value = object["timeoutSeconds"] {
            let timeoutPath = path.key("timeoutSeconds")
            if case .number(let number) = value {
                let seconds = number.doubleValue
                if seconds > 0, seconds <= GameAction.maximumTimeoutSeconds {
                    timeout = seconds
                } else {
                    error(
                        timeoutPath,
                        "timeoutSeconds must be more than 0 and at most \(Int(GameAction.maximumTimeoutSeconds)), "
                            + "found \(number.text)",
                        hint: "the wait is part of the NPC's turn, and --turn-timeout limits the whole turn")
                    valid = false
                }
            } else {
                var hint: String?
                if case .string(let text) = value, Double(text) != nil { hint = "write \(text) without quotes" }
                error(timeoutPath, "expected a number of seconds, found \(Self.describe(value))", hint: hint)
                valid = false
            }
            if !awaitsAnswer, valid {
                warning(
                    timeoutPath, "timeoutSeconds is set but the action does not await the game's answer",
                    hint: "add \"await\": true for the NPC to wait for the answer; without it the game is only told, "
                        + "and the handler is given this long at most")
            }
        }
        unknownFields(object, at: path, known: Self.actionFields)
        guard valid, let id, let description else { return nil }
        return GameAction(
            id: GameActionID(id), description: description, arguments: arguments, npcs: npcs,
            awaitsAnswer: awaitsAnswer, timeoutSeconds: timeout)
    }

    /// `open gate!` becomes `open_gate`, `2open` becomes `action_2open`.
    static func suggestedActionID(for text: String) -> String {
        var id = ""
        for scalar in text.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty, !id.hasSuffix("_") {
                id += "_"
            }
        }
        while id.hasSuffix("_") { id.removeLast() }
        if id.isEmpty { return "myAction" }
        if let first = id.unicodeScalars.first, ("0"..."9").contains(first) { id = "action_" + id }
        return String(id.prefix(64))
    }

    // MARK: - The arguments' schema

    /// The JSON Schema keywords whose rules Parley holds calls to (`GenerationSchema.validate`).
    static let checkedSchemaKeywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "not",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "minLength",
        "maxLength", "pattern", "$ref",
    ]
    /// Keywords that describe rather than constrain, which need no checking.
    static let annotationSchemaKeywords: Set<String> = [
        "title", "description", "default", "examples", "$comment", "$schema", "$id", "$defs", "definitions",
        "deprecated", "readOnly", "writeOnly",
    ]
    /// The types of JSON Schema.
    static let schemaTypes = ["null", "boolean", "integer", "number", "string", "array", "object"]

    /// Checks an action's `arguments`: a JSON Schema of an object, written with the keywords Parley checks calls
    /// against. Reports every problem; returns whether there was no error.
    mutating func checkArgumentsSchema(_ schema: JSONValue, at path: JSONPath) -> Bool {
        guard case .object(let root) = schema else {
            error(
                path, "expected a JSON Schema (an object), found \(Self.describe(schema))",
                hint: "for example {\"type\": \"object\", \"properties\": {\"gate\": {\"type\": \"string\"}}}")
            return false
        }
        let errorsBefore = errorCount
        if root["type"]?.stringValue != "object" {
            error(
                root["type"] == nil ? path : path.key("type"),
                root["type"] == nil
                    ? "the arguments' schema needs \"type\": \"object\""
                    : "the arguments are an object: \"type\" must be \"object\", found \(Self.describe(root["type"]!))",
                hint: "a call's arguments are always a JSON object; describe its members under \"properties\"")
        }
        checkSchema(schema, at: path, root: root, depth: 0)
        return errorCount == errorsBefore
    }

    /// Checks one schema of an action's arguments (or of a member, deeper).
    private mutating func checkSchema(_ schema: JSONValue, at path: JSONPath, root: JSONObject, depth: Int) {
        if case .bool = schema { return }
        guard case .object(let object) = schema else {
            error(path, "expected a JSON Schema (an object or a Boolean), found \(Self.describe(schema))")
            return
        }
        guard depth < 32 else {
            error(path, "the schema nests too deep", hint: "at most 32 levels")
            return
        }
        let known = Self.checkedSchemaKeywords.union(Self.annotationSchemaKeywords)
        for (keyword, value) in object {
            let keywordPath = path.key(keyword)
            switch keyword {
            case "type":
                let names: [(JSONValue, JSONPath)]
                switch value {
                case .string: names = [(value, keywordPath)]
                case .array(let elements) where !elements.isEmpty:
                    names = elements.enumerated().map { ($0.element, keywordPath.index($0.offset)) }
                default:
                    error(keywordPath, "expected a type or an array of types, found \(Self.describe(value))")
                    names = []
                }
                for (element, elementPath) in names {
                    guard let name = element.stringValue, Self.schemaTypes.contains(name) else {
                        let text = element.stringValue ?? ""
                        let hint =
                            Suggestions.didYouMean(text, in: Self.schemaTypes)
                            ?? "types: " + Self.schemaTypes.joined(separator: ", ")
                        error(elementPath, "unknown type \(Self.describe(element))", hint: hint)
                        continue
                    }
                }
            case "properties":
                guard case .object(let properties) = value else {
                    error(keywordPath, "expected an object of member schemas, found \(Self.describe(value))")
                    continue
                }
                for (name, member) in properties {
                    checkSchema(member, at: keywordPath.key(name), root: root, depth: depth + 1)
                }
            case "$defs", "definitions":
                guard case .object(let definitions) = value else {
                    error(keywordPath, "expected an object of named schemas, found \(Self.describe(value))")
                    continue
                }
                for (name, definition) in definitions {
                    checkSchema(definition, at: keywordPath.key(name), root: root, depth: depth + 1)
                }
            case "required":
                guard case .array(let elements) = value else {
                    error(keywordPath, "expected an array of member names, found \(Self.describe(value))")
                    continue
                }
                let properties = object["properties"]?.objectValue.map { Array($0.keys) }
                for (index, element) in elements.enumerated() {
                    guard let name = element.stringValue else {
                        error(keywordPath.index(index), "expected a member name, found \(Self.describe(element))")
                        continue
                    }
                    if let properties, !properties.contains(name) {
                        let hint =
                            Suggestions.didYouMean(name, in: properties)
                            ?? "add it to \"properties\""
                        error(
                            keywordPath.index(index), "\"\(name)\" is required but not among the properties", hint: hint
                        )
                    }
                }
            case "items", "not", "additionalProperties":
                checkSchema(value, at: keywordPath, root: root, depth: depth + 1)
            case "anyOf", "oneOf":
                guard case .array(let choices) = value, !choices.isEmpty else {
                    error(keywordPath, "expected a non-empty array of schemas, found \(Self.describe(value))")
                    continue
                }
                for (index, choice) in choices.enumerated() {
                    checkSchema(choice, at: keywordPath.index(index), root: root, depth: depth + 1)
                }
            case "enum":
                guard case .array(let choices) = value, !choices.isEmpty else {
                    error(
                        keywordPath, "expected a non-empty array of the values allowed, found \(Self.describe(value))")
                    continue
                }
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
                guard case .number = value else {
                    error(keywordPath, "expected a number, found \(Self.describe(value))")
                    continue
                }
            case "minItems", "maxItems", "minLength", "maxLength":
                guard case .number = value, let count = value.intValue, count >= 0 else {
                    error(keywordPath, "expected a whole number from 0, found \(Self.describe(value))")
                    continue
                }
            case "pattern":
                guard let pattern = value.stringValue else {
                    error(keywordPath, "expected a regular expression, found \(Self.describe(value))")
                    continue
                }
                if (try? NSRegularExpression(pattern: pattern)) == nil {
                    error(keywordPath, "\"\(pattern)\" is not a regular expression")
                }
            case "$ref":
                guard let reference = value.stringValue else {
                    error(keywordPath, "expected a reference such as \"#/$defs/gate\", found \(Self.describe(value))")
                    continue
                }
                if !Self.resolves(reference, in: root) {
                    error(
                        keywordPath, "the reference \"\(reference)\" leads nowhere",
                        hint: "refer to a schema of this action's arguments: \"#/$defs/NAME\" with NAME under \"$defs\""
                    )
                }
            default:
                guard !known.contains(keyword) else { continue }
                let hint =
                    Suggestions.didYouMean(keyword, in: known.sorted())
                    ?? "Parley holds calls to " + Self.checkedSchemaKeywords.sorted().joined(separator: ", ")
                warning(keywordPath, "the keyword \"\(keyword)\" is not checked: calls are not held to it", hint: hint)
            }
        }
    }

    /// Whether a `$ref` leads to a schema of the same document: `#`, or a name under `$defs` or `definitions`.
    private static func resolves(_ reference: String, in root: JSONObject) -> Bool {
        if reference == "#" { return true }
        for container in ["$defs", "definitions"] where reference.hasPrefix("#/\(container)/") {
            let name = String(reference.dropFirst(container.count + 3))
            return root[container]?[name] != nil
        }
        return false
    }

    // MARK: - Calls from dialogue rules

    /// Checks each dialogue rule's call of an action against the action: the NPC is one it lists, and the arguments
    /// fit its schema as far as they are written out (placeholders are filled, and checked, when the call is made).
    mutating func checkActionCalls(_ actions: [GameAction]) {
        let byID = Dictionary(actions.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        let (savedFile, savedRank) = (file, fileRank)
        defer { (file, fileRank) = (savedFile, savedRank) }
        for use in actionCalls {
            guard let action = byID[use.action] else { continue }
            (file, fileRank) = (use.file, use.rank)
            if let npc = use.npc, !action.isAvailable(to: NPCID(npc)) {
                error(
                    use.path.key("tool"), "\(npc) may not take the action \"\(use.action)\"",
                    hint: "add \"\(npc)\" to the npcs of \(use.action) in \(ContentPack.actionsFileName)")
            }
            guard case .object(let schema) = action.arguments else { continue }
            let properties = schema["properties"]?.objectValue ?? JSONObject()
            let closed = schema["additionalProperties"]?.boolValue == false
            let argumentsPath = use.path.key("arguments")
            for (name, value) in use.arguments {
                guard let property = properties[name] else {
                    let names = Array(properties.keys)
                    let hint =
                        Suggestions.didYouMean(name, in: names)
                        ?? (names.isEmpty
                            ? "\(use.action) takes no arguments"
                            : "its arguments are: " + names.joined(separator: ", "))
                    if closed {
                        error(argumentsPath.key(name), "\(use.action) has no argument \"\(name)\"", hint: hint)
                    } else {
                        warning(argumentsPath.key(name), "\(use.action) declares no argument \"\(name)\"", hint: hint)
                    }
                    continue
                }
                checkLiteralArgument(value, against: property, at: argumentsPath.key(name))
            }
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            where use.arguments[name] == nil {
                error(argumentsPath, "\(use.action) needs the argument \"\(name)\"")
            }
        }
    }

    /// Checks an argument written out in a rule (not a placeholder) against its property's `enum` and `type`.
    private mutating func checkLiteralArgument(_ value: JSONValue, against property: JSONValue, at path: JSONPath) {
        if case .string(let text) = value {
            switch DialogueTemplate.parse(text) {
            case .failure(let problem):
                return error(path, problem.message, hint: problem.hint)
            case .success(let template) where !template.placeholders.isEmpty || !template.members.isEmpty:
                return
            case .success:
                break
            }
        }
        if let allowed = property["enum"]?.arrayValue, !allowed.contains(value) {
            let texts = allowed.compactMap(\.stringValue)
            let hint =
                value.stringValue.flatMap { Suggestions.closest(to: $0, in: texts) }.map { Suggestions.didYouMean($0) }
                ?? "allowed: " + allowed.map { $0.jsonString() }.joined(separator: ", ")
            return error(path, "\(Self.describe(value)) is not one of the values the action allows", hint: hint)
        }
        guard let type = property["type"]?.stringValue else { return }
        let fits: Bool
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("number", .number), ("array", .array), ("object", .object),
            ("null", .null):
            fits = true
        case ("integer", .number): fits = value.intValue != nil
        default: fits = false
        }
        if !fits {
            error(path, "expected \(type == "integer" ? "a whole number" : "a \(type)"), found \(Self.describe(value))")
        }
    }
}
