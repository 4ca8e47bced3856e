import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - Conditions and effects, wherever an NPC file uses them

extension ContentLoader {
    /// What an NPC's conditions and effects are checked against.
    struct ScriptScope {
        /// What `topic` may name: every item id and the NPC's synonym groups.
        var topics: Set<String>
        /// The NPC's inventory, to warn about gifts it cannot make.
        var inventory: Inventory?
        /// Whether the NPC trades, to warn about offers it cannot make.
        var trades: Bool
        /// The NPC's id, when it could be read: the game's actions its rules call must list it.
        var npc: String? = nil
    }

    /// The scope of an NPC file: its synonym groups (read from the raw JSON), inventory and trade policy.
    func scriptScope(of object: JSONObject, inventory: Inventory?, trade: TradePolicy?) -> ScriptScope {
        var topics = itemIDs
        if case .object(let groups)? = object["dialogue"]?["synonyms"] { topics.formUnion(groups.keys) }
        return ScriptScope(
            topics: topics, inventory: inventory, trades: trade?.trades ?? true, npc: object["id"]?.stringValue)
    }

    // MARK: - Conditions

    /// The member `key` as a condition: an expression, or an array of expressions that must all hold.
    ///
    /// - Returns: `.some(nil)` when the member is missing, `nil` after reporting an error.
    mutating func condition(
        _ key: String, in object: JSONObject, at path: JSONPath, scope: ScriptScope
    ) -> Condition?? {
        guard let value = object[key] else { return .some(nil) }
        guard let condition = condition(value, at: path.key(key), scope: scope) else { return nil }
        warnIfContradictory(condition, at: path.key(key))
        return .some(condition)
    }

    /// A condition: a string, or a non-empty array of strings meaning all of them.
    mutating func condition(_ value: JSONValue, at path: JSONPath, scope: ScriptScope) -> Condition? {
        switch value {
        case .string(let text) where text.allSatisfy(\.isWhitespace):
            error(
                path, "must not be empty",
                hint: "write a condition such as \"flag met_aurelio\", or leave the field out")
            return nil
        case .string(let text):
            return parseCondition(text, at: path, scope: scope)
        case .array(let elements) where !elements.isEmpty:
            var conditions: [Condition] = []
            var valid = true
            for (index, element) in elements.enumerated() {
                let elementPath = path.index(index)
                guard case .string = element else {
                    error(elementPath, "expected a condition (a string), found \(Self.describe(element))")
                    valid = false
                    continue
                }
                if let condition = condition(element, at: elementPath, scope: scope) {
                    conditions.append(condition)
                } else {
                    valid = false
                }
            }
            guard valid else { return nil }
            return conditions.count == 1 ? conditions[0] : .all(conditions)
        case .array:
            error(path, "must not be empty", hint: "write a condition, or leave the field out")
            return nil
        default:
            error(
                path, "expected a condition, found \(Self.describe(value))",
                hint: "write a string such as \"has lantern\" or \"gold >= 20\", or an array of them for all of them")
            return nil
        }
    }

    /// Parses an expression and checks every term against the pack.
    private mutating func parseCondition(_ text: String, at path: JSONPath, scope: ScriptScope) -> Condition? {
        let parsed: ConditionParser.Parsed
        switch ConditionParser.parse(text) {
        case .failure(let problem):
            error(path, "\(problem.message) in \(Self.quoted(text))", hint: problem.hint)
            return nil
        case .success(let result):
            parsed = result
        }
        var valid = true
        for (term, termText) in parsed.terms {
            let shown = Self.quoted(termText)
            switch term {
            case .has(let item, _):
                if !known(item.rawValue, kind: "item", among: itemIDs, at: path, in: shown) { valid = false }
            case .location(let location):
                if !known(location.rawValue, kind: "location", among: locationIDs, at: path, in: shown) {
                    valid = false
                }
            case .quest(let quest, _, let stage):
                if !knownStage(stage, of: quest.rawValue, at: path, in: shown) { valid = false }
            case .flag(let name):
                flagTests.append(NameUse(file: file, rank: fileRank, path: path, name: name, text: termText))
            case .counter(let name, _, _):
                counterTests.append(NameUse(file: file, rank: fileRank, path: path, name: name, text: termText))
            case .attitude(_, let value) where !StoryState.attitudeRange.contains(value):
                warning(
                    path, "attitudes are from -100 to 100, so \(shown) is always true or always false",
                    hint: "compare with a number from -100 to 100")
            case .topic(let name) where !scope.topics.contains(name) && !unresolvedKinds.contains("item"):
                let hint =
                    Suggestions.didYouMean(name, in: scope.topics.sorted())
                    ?? "a topic is an item id or the name of one of the NPC's synonym groups"
                warning(path, "unknown topic \"\(name)\" in \(shown)", hint: hint)
            default:
                break
            }
        }
        return valid ? parsed.condition : nil
    }

    /// Checks that `id` is a known id of `kind`, reporting it in the words of a condition otherwise.
    private mutating func known(
        _ id: String, kind: String, among known: Set<String>, at path: JSONPath, in shown: String
    ) -> Bool {
        guard !known.contains(id), !unresolvedKinds.contains(kind) else { return true }
        let hint = Suggestions.didYouMean(id, in: known.sorted())
        error(path, "unknown \(kind) \"\(id)\" in \(shown)", hint: hint)
        return false
    }

    /// Checks that `quest` is declared in `world.json` and has `stage`.
    private mutating func knownStage(_ stage: String, of quest: String, at path: JSONPath, in shown: String) -> Bool {
        guard !unresolvedKinds.contains("quest") else { return true }
        guard let stages = questStages[quest] else {
            let hint =
                Suggestions.didYouMean(quest, in: questStages.keys.sorted())
                ?? (questStages.isEmpty
                    ? "declare it under \"quests\" in world.json"
                    : "quests are declared under \"quests\" in world.json")
            error(path, "unknown quest \"\(quest)\" in \(shown)", hint: hint)
            return false
        }
        guard stages.contains(stage) else {
            let hint =
                Suggestions.didYouMean(stage, in: stages)
                ?? "its stages are: " + stages.joined(separator: ", ")
            error(path, "the quest \"\(quest)\" has no stage \"\(stage)\" in \(shown)", hint: hint)
            return false
        }
        return true
    }

    // MARK: - Effects

    /// The member `key` as a list of effects; `[]` when missing, `nil` after reporting an error.
    mutating func effects(_ key: String, in object: JSONObject, at path: JSONPath, scope: ScriptScope) -> [Effect]? {
        guard object[key] != nil else { return [] }
        guard let elements = array(key, in: object, at: path, required: false) else { return nil }
        var effects: [Effect] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            if let effect = effect(element, at: path.key(key).index(index), scope: scope) {
                effects.append(effect)
            } else {
                valid = false
            }
        }
        return valid ? effects : nil
    }

    /// The fields each kind of effect may have besides its kind.
    static let effectFields: [String: [String]] = [
        "set": [], "clear": [], "counter": ["add", "set"], "attitude": [], "quest": ["stage"], "give": ["quantity"],
        "take": ["quantity"], "giveGold": [], "takeGold": [], "offer": [],
    ]
    static let offerFields = ["action", "item", "quantity", "price"]
    /// The largest amount a counter effect adds or removes.
    static let counterStep = 1_000_000_000

    /// One effect: an object with exactly one kind member (see `Effect`).
    private mutating func effect(_ value: JSONValue, at path: JSONPath, scope: ScriptScope) -> Effect? {
        guard let object = object(value, at: path, what: "an effect") else { return nil }
        var kinds = Effect.kinds.filter { object[$0] != nil }
        if kinds.contains("counter") { kinds.removeAll { $0 == "set" } }
        guard let kind = kinds.first else {
            let hint =
                object.keys.lazy.compactMap { Suggestions.closest(to: $0, in: Effect.kinds) }.first.map {
                    Suggestions.didYouMean($0)
                } ?? "for example {\"set\": \"met_aurelio\"} or {\"quest\": \"locket\", \"stage\": \"found\"}"
            error(path, "an effect needs one of: " + Effect.kinds.joined(separator: ", "), hint: hint)
            return nil
        }
        guard kinds.count == 1 else {
            error(
                path, "an effect does one thing, found " + kinds.map { "\"\($0)\"" }.joined(separator: " and "),
                hint: "write one effect for each")
            return nil
        }
        unknownFields(object, at: path, known: [kind] + (Self.effectFields[kind] ?? []))
        switch kind {
        case "set", "clear":
            guard let name = identifier(kind, in: object, at: path, required: true, kind: "flag") else { return nil }
            if kind == "set" {
                flagsSet.insert(name)
                flagSetCounts[name, default: 0] += 1
            }
            return kind == "set" ? .setFlag(name) : .clearFlag(name)
        case "counter":
            return counterEffect(object, at: path)
        case "attitude":
            let limit = GameState.maximumAttitudeChange
            guard let amount = integer("attitude", in: object, at: path, required: true, range: -limit...limit) else {
                return nil
            }
            if amount == 0 { warning(path.key("attitude"), "changes the attitude by 0, which does nothing") }
            return .changeAttitude(by: amount)
        case "quest":
            return questEffect(object, at: path)
        case "give", "take":
            let item = reference(kind, in: object, at: path, required: true, kind: "item", known: itemIDs)
            let quantity =
                object["quantity"] == nil
                ? 1 : integer("quantity", in: object, at: path, required: false, range: Limits.quantity)
            guard let item, let quantity else { return nil }
            if kind == "give", let inventory = scope.inventory, !inventory.contains(ItemID(item), quantity: quantity) {
                warning(
                    path.key("give"),
                    "gives \(quantity) × \"\(item)\" but carries \(inventory.quantity(of: ItemID(item)))",
                    hint: "add it to the NPC's inventory, or the game will refuse the effect")
            }
            return kind == "give"
                ? .give(ItemID(item), quantity: quantity) : .take(ItemID(item), quantity: quantity)
        case "giveGold", "takeGold":
            guard let amount = integer(kind, in: object, at: path, required: true, range: 1...Limits.gold.upperBound)
            else { return nil }
            return kind == "giveGold" ? .giveGold(amount) : .takeGold(amount)
        default:
            return offerEffect(object, at: path, scope: scope)
        }
    }

    private mutating func counterEffect(_ object: JSONObject, at path: JSONPath) -> Effect? {
        let name = identifier("counter", in: object, at: path, required: true, kind: "counter")
        switch (object["add"] != nil, object["set"] != nil) {
        case (true, true):
            error(path, "a counter effect either adds or sets, not both", hint: "write two effects")
            return nil
        case (false, false):
            error(
                path, "a counter effect needs \"add\" or \"set\"",
                hint: "for example {\"counter\": \"\(name ?? "visits")\", \"add\": 1}")
            return nil
        case (true, false):
            let amount = integer(
                "add", in: object, at: path, required: true, range: -Self.counterStep...Self.counterStep)
            guard let name, let amount else { return nil }
            if amount == 0 { warning(path.key("add"), "adds 0, which does nothing") }
            countersChanged.insert(name)
            return .addToCounter(name, amount: amount)
        case (false, true):
            let value = integer("set", in: object, at: path, required: true, range: StoryState.counterRange)
            guard let name, let value else { return nil }
            countersChanged.insert(name)
            return .setCounter(name, value: value)
        }
    }

    private mutating func questEffect(_ object: JSONObject, at path: JSONPath) -> Effect? {
        let quest = identifier("quest", in: object, at: path, required: true, kind: "quest")
        let stage = string("stage", in: object, at: path, required: true)
        guard let quest, let stage else { return nil }
        guard !unresolvedKinds.contains("quest") else { return .advanceQuest(QuestID(quest), stage: stage) }
        guard let stages = questStages[quest] else {
            let hint =
                Suggestions.didYouMean(quest, in: questStages.keys.sorted())
                ?? "declare it under \"quests\" in world.json"
            error(path.key("quest"), "unknown quest \"\(quest)\"", hint: hint)
            return nil
        }
        guard let index = stages.firstIndex(of: stage) else {
            let hint =
                Suggestions.didYouMean(stage, in: stages)
                ?? "its stages are: " + stages.joined(separator: ", ")
            error(path.key("stage"), "the quest \"\(quest)\" has no stage \"\(stage)\"", hint: hint)
            return nil
        }
        if index == 0 {
            warning(
                path.key("stage"), "\"\(stage)\" is where the quest starts, so advancing to it does nothing",
                hint: "quests only move forward; name a later stage")
        }
        return .advanceQuest(QuestID(quest), stage: stage)
    }

    private mutating func offerEffect(_ object: JSONObject, at path: JSONPath, scope: ScriptScope) -> Effect? {
        guard let offer = self.object("offer", in: object, at: path, required: true, what: "the terms of an offer")
        else { return nil }
        let offerPath = path.key("offer")
        var action: OfferTerms.Action?
        if let name = string("action", in: offer, at: offerPath, required: true) {
            action = OfferTerms.Action(rawValue: name)
            if action == nil {
                error(
                    offerPath.key("action"), "the action must be \"sell\" or \"buy\", found \"\(name)\"",
                    hint: "\"sell\": the NPC sells to the player; \"buy\": the NPC buys from the player")
            }
        }
        let item = reference("item", in: offer, at: offerPath, required: true, kind: "item", known: itemIDs)
        let quantity =
            offer["quantity"] == nil
            ? 1 : integer("quantity", in: offer, at: offerPath, required: false, range: Limits.quantity)
        let price = integer("price", in: offer, at: offerPath, required: true, range: 0...GameLimits.maximumPrice)
        unknownFields(offer, at: offerPath, known: Self.offerFields)
        guard let action, let item, let quantity, let price else { return nil }
        if !scope.trades {
            warning(
                offerPath, "the NPC does not trade, so the game will refuse this offer",
                hint: "give the NPC a \"trade\" policy, or remove the effect")
        }
        return .offer(OfferTerms(action: action, item: ItemID(item), quantity: quantity, price: price))
    }
}
