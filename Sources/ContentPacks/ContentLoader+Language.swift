import GameWorld
import ParleyBasics
import ParleyJSON

// MARK: - The languages of world.json, the NPCs and lexicon.json, and lexicon.json against the pack

extension ContentLoader {
    /// An optional `language` member: a BCP 47 tag (`en`, `de`, `pt-BR`); `nil` when missing or not a tag (reported).
    mutating func languageTag(_ key: String, in object: JSONObject, at path: JSONPath) -> String? {
        guard object[key] != nil, let tag = string(key, in: object, at: path, required: false) else { return nil }
        guard Self.isLanguageTag(tag) else {
            error(path.key(key), "\"\(tag)\" is not a language tag", hint: "write a BCP 47 tag such as en, de or pt-BR")
            return nil
        }
        return tag
    }

    /// The built-in lexicon of the language `world.json` names, for a pack without `lexicon.json`; `nil` after
    /// reporting that there is none.
    mutating func builtInLexicon(forWorld language: String) -> Lexicon? {
        if let builtIn = Lexicon.builtIn(language) {
            var lexicon = builtIn
            lexicon.language = language
            return lexicon
        }
        error(
            JSONPath.root.key("language"), "no built-in lexicon for \"\(language)\"",
            hint: "write a lexicon.json for it (parley content lexicon prints one to start from), or use a built-in "
                + "language: " + Lexicon.builtInLanguages.joined(separator: ", "))
        return nil
    }

    /// `world.json`'s `language` and `lexicon.json`'s must name the same language.
    mutating func checkWorldLanguage(_ language: String, lexicon: Lexicon) {
        guard !Lexicon.sameLanguage(language, lexicon.language) else { return }
        select(ContentPack.worldFileName, rank: 0)
        error(
            JSONPath.root.key("language"),
            "the world speaks \"\(language)\" but lexicon.json is for \"\(lexicon.language)\"",
            hint: "make them the same, or leave the world's language out (it is then the lexicon's)")
    }

    /// Each NPC with a `language` of its own speaks the pack's language or one with a built-in lexicon.
    mutating func checkNPCLanguages(packLanguage: String, npcFileNames: [String]) {
        for npc in npcs.sorted(by: { $0.id < $1.id }) {
            guard let language = npc.language, !Lexicon.sameLanguage(language, packLanguage),
                Lexicon.builtIn(language) == nil
            else { continue }
            if let offset = npcFileNames.firstIndex(where: { Self.join(displayPath, $0) == npcFiles[npc.id] }) {
                select(npcFileNames[offset], rank: 2 + offset)
            }
            error(
                JSONPath.root.key("language"), "no lexicon for \"\(language)\"",
                hint: "an NPC speaks the pack's language (\(packLanguage)) or one with a built-in lexicon: "
                    + Lexicon.builtInLanguages.joined(separator: ", "))
        }
    }

    /// Warns about category words for categories no item of the pack has.
    mutating func checkLexiconCategories(_ lexicon: Lexicon, explicit: Set<String>) {
        for category in explicit.sorted() where !categories.contains(category) {
            warning(
                JSONPath.root.key("categories").key(category), "no item has the category \"\(category)\"",
                hint: Suggestions.didYouMean(category, in: categories.sorted()))
        }
    }
}
