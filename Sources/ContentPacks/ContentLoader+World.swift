import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - world.json

extension ContentLoader {
    static let worldFields = ["id", "title", "language", "introduction", "start", "locations", "goal", "quests"]
    static let startFields = ["name", "location", "gold", "inventory"]
    static let locationFields = ["id", "name", "description", "exits", "items"]
    static let exitFields = ["direction", "to", "requires", "lockedMessage"]
    static let goalFields = ["description", "requirements"]

    mutating func decodeWorld(_ value: JSONValue) {
        guard let root = object(value, at: .root, what: "the world") else { return }
        worldID = identifier("id", in: root, at: .root, required: true, kind: "world")
        title = string("title", in: root, at: .root, required: true)
        introduction = string("introduction", in: root, at: .root, required: false) ?? ""
        worldLanguage = languageTag("language", in: root, at: .root)
        if let elements = array("locations", in: root, at: .root, required: true) {
            counts.locations = elements.count
            if elements.isEmpty { error(JSONPath.root.key("locations"), "a world needs at least one location") }
            for (index, element) in elements.enumerated() {
                decodeLocation(element, at: JSONPath.root.key("locations").index(index))
            }
        }
        if let start = object("start", in: root, at: .root, required: true, what: "the player's start") {
            decodeStart(start, at: startPath)
        }
        if let goal = object("goal", in: root, at: .root, required: true, what: "the goal") {
            decodeGoal(goal, at: goalPath)
        }
        decodeQuests(root)
        unknownFields(root, at: .root, known: Self.worldFields)
    }

    mutating func decodeLocation(_ value: JSONValue, at path: JSONPath) {
        guard let object = object(value, at: path, what: "a location") else { return }
        let id = identifier("id", in: object, at: path, required: true, kind: "location")
        let name = string("name", in: object, at: path, required: true)
        let description = string("description", in: object, at: path, required: true)
        var exits: [Exit] = []
        var exitsValid = true
        var directions: [String: JSONPath] = [:]
        for (index, element) in (array("exits", in: object, at: path, required: false) ?? []).enumerated() {
            let exitPath = path.key("exits").index(index)
            guard let exitObject = self.object(element, at: exitPath, what: "an exit") else {
                exitsValid = false
                continue
            }
            let direction = string("direction", in: exitObject, at: exitPath, required: true)
            let destination = reference(
                "to", in: exitObject, at: exitPath, required: true, kind: "location", known: locationIDs)
            let required =
                exitObject["requires"] == nil
                ? nil
                : reference("requires", in: exitObject, at: exitPath, required: false, kind: "item", known: itemIDs)
            let lockedMessage = string("lockedMessage", in: exitObject, at: exitPath, required: false)
            unknownFields(exitObject, at: exitPath, known: Self.exitFields)
            if let direction {
                let key = direction.lowercased()
                if let first = directions[key] {
                    error(
                        exitPath.key("direction"), "two exits go \"\(direction)\" (the first at \(first))",
                        hint: "give each exit its own direction")
                    exitsValid = false
                } else {
                    directions[key] = exitPath.key("direction")
                }
            }
            if let destination, destination == id {
                warning(exitPath.key("to"), "the exit leads back to the same location")
            }
            if exitObject["lockedMessage"] != nil, exitObject["requires"] == nil {
                warning(exitPath.key("lockedMessage"), "lockedMessage has no effect without \"requires\"")
            }
            guard let direction, let destination, exitObject["requires"] == nil || required != nil else {
                exitsValid = false
                continue
            }
            exits.append(
                Exit(
                    direction: direction, destination: LocationID(destination),
                    requiredItem: required.map { ItemID($0) },
                    lockedMessage: lockedMessage))
        }
        let items = inventory("items", in: object, at: path)
        unknownFields(object, at: path, known: Self.locationFields)
        guard let id else { return }
        let locationID = LocationID(id)
        if let first = locationPaths[locationID] {
            error(path.key("id"), "duplicate location id \"\(id)\"", hint: "first defined at \(first.key("id"))")
            return
        }
        locationPaths[locationID] = path
        guard let name, let description, let items, exitsValid else { return }
        locations.append(Location(id: locationID, name: name, description: description, exits: exits, items: items))
    }

    mutating func decodeStart(_ object: JSONObject, at path: JSONPath) {
        let name = string("name", in: object, at: path, required: true)
        let location = reference("location", in: object, at: path, required: true, kind: "location", known: locationIDs)
        let gold =
            object["gold"] == nil ? 0 : integer("gold", in: object, at: path, required: false, range: Limits.gold)
        let inventory = inventory("inventory", in: object, at: path)
        unknownFields(object, at: path, known: Self.startFields)
        guard let name, let location, let gold, let inventory else { return }
        startingPlayer = Player(name: name, location: LocationID(location), gold: gold, inventory: inventory)
    }

    mutating func decodeGoal(_ object: JSONObject, at path: JSONPath) {
        let description = string("description", in: object, at: path, required: true)
        var requirements: [GoalRequirement] = []
        var valid = true
        if let elements = array("requirements", in: object, at: path, required: true) {
            if elements.isEmpty {
                error(path.key("requirements"), "the goal needs at least one requirement")
                valid = false
            }
            for (index, element) in elements.enumerated() {
                if let requirement = decodeRequirement(element, at: path.key("requirements").index(index)) {
                    requirements.append(requirement)
                } else {
                    valid = false
                }
            }
        } else {
            valid = false
        }
        unknownFields(object, at: path, known: Self.goalFields)
        guard let description, valid else { return }
        goal = GameGoal(description: description, requirements: requirements)
    }

    mutating func decodeRequirement(_ value: JSONValue, at path: JSONPath) -> GoalRequirement? {
        guard let object = object(value, at: path, what: "a requirement") else { return nil }
        guard let type = string("type", in: object, at: path, required: true) else { return nil }
        func quantity(_ loader: inout ContentLoader) -> Int? {
            object["quantity"] == nil
                ? 1 : loader.integer("quantity", in: object, at: path, required: false, range: Limits.quantity)
        }
        switch type {
        case "npcHasItem":
            let npc = reference("npc", in: object, at: path, required: true, kind: "NPC", known: npcIDs)
            let item = reference("item", in: object, at: path, required: true, kind: "item", known: itemIDs)
            let count = quantity(&self)
            unknownFields(object, at: path, known: ["type", "npc", "item", "quantity"])
            guard let npc, let item, let count else { return nil }
            return .npcHasItem(npc: NPCID(npc), item: ItemID(item), quantity: count)
        case "playerHasItem":
            let item = reference("item", in: object, at: path, required: true, kind: "item", known: itemIDs)
            let count = quantity(&self)
            unknownFields(object, at: path, known: ["type", "item", "quantity"])
            guard let item, let count else { return nil }
            return .playerHasItem(item: ItemID(item), quantity: count)
        case "playerAt":
            let location = reference(
                "location", in: object, at: path, required: true, kind: "location", known: locationIDs)
            unknownFields(object, at: path, known: ["type", "location"])
            return location.map { .playerAt(location: LocationID($0)) }
        case "playerGold":
            let amount = integer("atLeast", in: object, at: path, required: true, range: Limits.gold)
            unknownFields(object, at: path, known: ["type", "atLeast"])
            return amount.map { .playerGold(atLeast: $0) }
        default:
            let hint =
                Suggestions.didYouMean(type, in: GoalRequirement.typeNames)
                ?? "known types: " + GoalRequirement.typeNames.joined(separator: ", ")
            error(path.key("type"), "unknown requirement type \"\(type)\"", hint: hint)
            return nil
        }
    }
}
