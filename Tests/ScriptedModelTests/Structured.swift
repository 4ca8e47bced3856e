import LanguageModels

/// Structured segments whose source is their type's name, as the engine writes them.
enum Structured {
    /// The game context at first contact, recorded as a `GameContext` structure.
    struct GameContext: ConvertibleToGeneratedContent {
        let content: GeneratedContent
        var generatedContent: GeneratedContent { content }
    }

    /// A game event, recorded as a `GameEvent` structure.
    struct GameEvent: ConvertibleToGeneratedContent {
        let content: GeneratedContent
        var generatedContent: GeneratedContent { content }
    }
}

/// Reading tool arguments in the stubs.
extension GeneratedContent {
    func string(_ name: String) -> String? {
        if case .string(let text)? = self[property: name]?.kind { return text }
        return nil
    }

    func integer(_ name: String) -> Int? {
        if case .number(let number)? = self[property: name]?.kind { return Int(number) }
        return nil
    }
}
