import GameWorld
import ParleyJSON

// MARK: - The `quests` of world.json

extension ContentLoader {
    static let questFields = ["id", "name", "description", "stages"]

    /// Decodes `quests`: each an id, a name, an optional description and at least two stages, all ids.
    mutating func decodeQuests(_ root: JSONObject) {
        guard let elements = array("quests", in: root, at: .root, required: false) else { return }
        var firstDefinition: [String: JSONPath] = [:]
        for (index, element) in elements.enumerated() {
            let path = JSONPath.root.key("quests").index(index)
            guard let object = self.object(element, at: path, what: "a quest") else { continue }
            let id = identifier("id", in: object, at: path, required: true, kind: "quest")
            let name = string("name", in: object, at: path, required: true)
            let description = string("description", in: object, at: path, required: false) ?? ""
            let stages = decodeStages(object, at: path)
            unknownFields(object, at: path, known: Self.questFields)
            guard let id else { continue }
            if let first = firstDefinition[id] {
                error(path.key("id"), "duplicate quest id \"\(id)\"", hint: "first defined at \(first.key("id"))")
                continue
            }
            firstDefinition[id] = path
            guard let name, let stages else { continue }
            quests.append(Quest(id: QuestID(id), name: name, description: description, stages: stages))
        }
    }

    /// A quest's `stages`: at least two distinct ids, in order. `nil` after reporting a problem.
    private mutating func decodeStages(_ object: JSONObject, at path: JSONPath) -> [String]? {
        guard let elements = array("stages", in: object, at: path, required: true) else { return nil }
        let stagesPath = path.key("stages")
        guard elements.count >= 2 else {
            error(
                stagesPath, "a quest needs at least two stages, found \(elements.count)",
                hint: "the first is where it starts, for example [\"unstarted\", \"done\"]")
            return nil
        }
        var stages: [String] = []
        var seen: [String: JSONPath] = [:]
        var valid = true
        for (index, element) in elements.enumerated() {
            let stagePath = stagesPath.index(index)
            guard case .string(let stage) = element else {
                error(stagePath, "expected a stage name, found \(Self.describe(element))")
                valid = false
                continue
            }
            guard ItemID.isWellFormed(stage) else {
                error(
                    stagePath, "\"\(stage)\" is not a valid stage name",
                    hint: "use lowercase letters, digits and _, starting with a letter, like "
                        + "\"\(ItemID.suggestion(for: stage))\"")
                valid = false
                continue
            }
            if let first = seen[stage] {
                error(
                    stagePath, "the stage \"\(stage)\" is listed twice (first at \(first))",
                    hint: "stages are in order, each once")
                valid = false
                continue
            }
            seen[stage] = stagePath
            stages.append(stage)
        }
        return valid ? stages : nil
    }
}
