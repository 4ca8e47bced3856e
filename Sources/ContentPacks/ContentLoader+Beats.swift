import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - `beats`, `knowledge` and `goals` of npcs/<id>.json

extension ContentLoader {
    static let beatFields = ["id", "on", "item", "flag", "when", "lines", "mode", "effects", "once"]
    static let knowledgeFields = ["id", "when", "text"]

    /// Decodes an NPC's beats; `[]` when there are none, `nil` after reporting an error.
    mutating func decodeBeats(_ object: JSONObject, at path: JSONPath, scope: ScriptScope) -> [Beat]? {
        guard let elements = array("beats", in: object, at: path, required: false) else {
            return object["beats"] == nil ? [] : nil
        }
        var beats: [Beat] = []
        var firstUse: [String: JSONPath] = [:]
        var valid = true
        for (index, element) in elements.enumerated() {
            let beatPath = path.key("beats").index(index)
            guard let beatObject = self.object(element, at: beatPath, what: "a beat"),
                let beat = decodeBeat(beatObject, at: beatPath, scope: scope)
            else {
                valid = false
                continue
            }
            if let first = firstUse[beat.id] {
                error(
                    beatPath.key("id"), "duplicate beat id \"\(beat.id)\"",
                    hint: "first used at \(first); beat ids must be unique per NPC")
                valid = false
                continue
            }
            firstUse[beat.id] = beatPath.key("id")
            beats.append(beat)
            if case .firstTalk = beat.trigger {
                firstTalkBeats.append(FirstTalkBeat(file: file, rank: fileRank, path: beatPath, beat: beat))
            }
        }
        return valid ? beats : nil
    }

    private mutating func decodeBeat(_ object: JSONObject, at path: JSONPath, scope: ScriptScope) -> Beat? {
        var valid = true
        let id = identifier("id", in: object, at: path, required: true, kind: "beat")
        if id == nil { valid = false }

        // The trigger, with its item or flag.
        var triggerName: String?
        if let name = string("on", in: object, at: path, required: true) {
            if BeatTrigger.names.contains(name) {
                triggerName = name
            } else {
                let hint =
                    Suggestions.didYouMean(name, in: BeatTrigger.names)
                    ?? "one of: " + BeatTrigger.names.joined(separator: ", ")
                error(path.key("on"), "unknown trigger \"\(name)\"", hint: hint)
            }
        }
        if triggerName == nil { valid = false }
        var item: ItemID?
        if object["item"] != nil {
            if let triggerName, !BeatTrigger.namesWithItem.contains(triggerName) {
                error(
                    path.key("item"), "\"item\" does not go with \"\(triggerName)\"",
                    hint: "it goes with " + BeatTrigger.namesWithItem.joined(separator: ", "))
                valid = false
            } else if let found = reference("item", in: object, at: path, required: false, kind: "item", known: itemIDs)
            {
                item = ItemID(found)
            } else {
                valid = false
            }
        }
        var flag: String?
        if triggerName == "flagSet" {
            flag = identifier("flag", in: object, at: path, required: true, kind: "flag")
            if let flag {
                flagTests.append(
                    NameUse(file: file, rank: fileRank, path: path.key("flag"), name: flag, text: "flagSet"))
            } else {
                valid = false
            }
        } else if object["flag"] != nil, let triggerName {
            error(path.key("flag"), "\"flag\" does not go with \"\(triggerName)\"", hint: "it goes with flagSet")
            valid = false
        }

        let condition = condition("when", in: object, at: path, scope: scope)
        if condition == nil { valid = false }
        let lines = beatLines(object, at: path, trigger: triggerName)
        if lines == nil { valid = false }

        var mode = BeatMode.before
        if let name = string("mode", in: object, at: path, required: false) {
            if let found = BeatMode(rawValue: name) {
                mode = found
            } else {
                let names = BeatMode.allCases.map(\.rawValue)
                error(
                    path.key("mode"), "unknown mode \"\(name)\"",
                    hint: Suggestions.didYouMean(name, in: names)
                        ?? "\"before\": the line, then the model's reply; \"instead\": the line alone")
                valid = false
            }
        } else if object["mode"] != nil {
            valid = false
        }
        let effects = effects("effects", in: object, at: path, scope: scope)
        if effects == nil { valid = false }
        var once = false
        if object["once"] != nil {
            if let value = bool("once", in: object, at: path) { once = value } else { valid = false }
        }
        unknownFields(object, at: path, known: Self.beatFields)

        if let lines, let effects, lines.isEmpty, effects.isEmpty {
            error(path, "a beat needs \"lines\" or \"effects\"", hint: "add the lines the NPC says")
            valid = false
        } else if let lines, lines.isEmpty, mode == .instead {
            error(
                path.key("mode"), "a beat said \"instead\" of the reply needs lines",
                hint: "add \"lines\", or make it \"before\"")
            valid = false
        }
        guard valid, let id, let triggerName, let condition, let lines, let effects else { return nil }
        let trigger: BeatTrigger =
            switch triggerName {
            case "arrive": .arrive
            case "firstTalk": .firstTalk
            case "itemGiven": .itemGiven(item)
            case "tradeAccepted": .tradeAccepted(item)
            case "tradeRefused": .tradeRefused(item)
            default: .flagSet(flag ?? "")
            }
        return Beat(
            id: id, trigger: trigger, condition: condition, lines: lines, mode: mode, effects: effects, once: once)
    }

    /// A beat's `lines`: a non-empty array of texts using only the placeholders beats fill. `[]` when missing.
    private mutating func beatLines(_ object: JSONObject, at path: JSONPath, trigger: String?) -> [String]? {
        guard let elements = array("lines", in: object, at: path, required: false) else {
            return object["lines"] == nil ? [] : nil
        }
        guard !elements.isEmpty else {
            error(path.key("lines"), "must not be empty", hint: "add a line, or leave the field out")
            return nil
        }
        var lines: [String] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let linePath = path.key("lines").index(index)
            guard case .string(let text) = element, !text.allSatisfy(\.isWhitespace) else {
                error(
                    linePath,
                    element.stringValue == nil
                        ? "expected a string, found \(Self.describe(element))" : "must not be empty")
                valid = false
                continue
            }
            switch DialogueTemplate.parse(text) {
            case .failure(let problem):
                error(linePath, problem.message, hint: problem.hint)
                valid = false
                continue
            case .success(let template):
                for placeholder in template.placeholders where !Beat.placeholders.contains(placeholder) {
                    error(
                        linePath, "a beat's line cannot use \(placeholder)",
                        hint: "beats fill only " + Beat.placeholders.map(\.description).joined(separator: ", "))
                    valid = false
                }
                for member in template.members {
                    error(
                        linePath, "a beat's line cannot use \(member)",
                        hint: "beats fill only " + Beat.placeholders.map(\.description).joined(separator: ", "))
                    valid = false
                }
                if template.placeholders.contains(.item), let trigger,
                    !BeatTrigger.namesWithItem.contains(trigger)
                {
                    error(
                        linePath, "{item} has no value in a beat on \"\(trigger)\"",
                        hint: "{item} goes with " + BeatTrigger.namesWithItem.joined(separator: ", "))
                    valid = false
                }
            }
            lines.append(text)
        }
        return valid ? lines : nil
    }

    /// Decodes an NPC's `knowledge` or `goals`; `[]` when missing, `nil` after reporting an error.
    mutating func decodeKnowledge(
        _ key: String, in object: JSONObject, at path: JSONPath, scope: ScriptScope
    ) -> [KnowledgeEntry]? {
        guard let elements = array(key, in: object, at: path, required: false) else {
            return object[key] == nil ? [] : nil
        }
        var entries: [KnowledgeEntry] = []
        var firstUse: [String: JSONPath] = [:]
        var valid = true
        for (index, element) in elements.enumerated() {
            let entryPath = path.key(key).index(index)
            guard let entry = self.object(element, at: entryPath, what: key == "goals" ? "a goal" : "a knowledge entry")
            else {
                valid = false
                continue
            }
            let id = identifier(
                "id", in: entry, at: entryPath, required: true, kind: key == "goals" ? "goal" : "knowledge")
            let condition = condition("when", in: entry, at: entryPath, scope: scope)
            let text = string("text", in: entry, at: entryPath, required: true)
            unknownFields(entry, at: entryPath, known: Self.knowledgeFields)
            guard let id, let condition, let text else {
                valid = false
                continue
            }
            if let first = firstUse[id] {
                error(
                    entryPath.key("id"), "duplicate id \"\(id)\" in \"\(key)\"",
                    hint: "first used at \(first); ids must be unique in each list")
                valid = false
                continue
            }
            firstUse[id] = entryPath.key("id")
            entries.append(KnowledgeEntry(id: id, condition: condition, text: text))
        }
        return valid ? entries : nil
    }
}

// MARK: - Beats and conditions that can never fire

extension ContentLoader {
    /// A `firstTalk` beat of an NPC's file, where it is written.
    struct FirstTalkBeat {
        var file: String
        var rank: Int
        var path: JSONPath
        var beat: Beat
    }

    /// Warns about a `firstTalk` beat whose condition needs a flag that only `firstTalk` beats of the same NPC set
    /// (this one included): the first talk fires one beat, the first whose condition holds, and never comes again,
    /// so the flag is set too late for this beat.
    mutating func checkBeatsThatCannotFire() {
        let byFile = Dictionary(grouping: firstTalkBeats, by: \.file)
        for beat in firstTalkBeats {
            let siblings = byFile[beat.file] ?? []
            for flag in beat.beat.condition?.requiredFlags.sorted() ?? [] {
                let setters = siblings.filter { $0.beat.effects.contains(.setFlag(flag)) }
                let settings = setters.reduce(0) { $0 + $1.beat.effects.count { $0 == .setFlag(flag) } }
                guard settings > 0, settings == flagSetCounts[flag] else { continue }
                let names = setters.map { $0.beat.id == beat.beat.id ? "this one" : "\"\($0.beat.id)\"" }
                let setBy =
                    names == ["this one"]
                    ? "which only this beat sets (its effects come after its condition)"
                    : "which only the firstTalk beat" + (names.count == 1 ? " " : "s ")
                        + names.joined(separator: " and ") + (names.count == 1 ? " sets" : " set")
                file = beat.file
                fileRank = beat.rank
                warning(
                    beat.path.key("when"),
                    "this firstTalk beat needs the flag \"\(flag)\", \(setBy): the first talk fires one beat and never "
                        + "comes again, so this beat can never fire",
                    hint: "set the flag before the first talk, with another NPC or an arrive beat, or join the beats")
            }
        }
    }

    /// Warns about a condition whose parts can never hold together (`flag x and not flag x`), so whatever it gates (a
    /// beat, a dialogue rule, a piece of knowledge) never happens.
    mutating func warnIfContradictory(_ condition: Condition, at path: JSONPath) {
        guard let (first, second) = condition.contradiction else { return }
        warning(
            path,
            "\(Self.quoted(condition.description)) can never hold: \(Self.quoted(first.description)) and "
                + "\(Self.quoted(second.description)) exclude each other",
            hint: "remove one of them, or join them with \"or\"")
    }
}
