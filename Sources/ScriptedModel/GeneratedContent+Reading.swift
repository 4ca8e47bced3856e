import LanguageModels

extension GeneratedContent {
    /// A string property, or `nil`.
    func string(_ name: String) -> String? {
        if case .string(let text)? = self[property: name]?.kind { return text }
        return nil
    }

    /// A whole-number property, or `nil`.
    func integer(_ name: String) -> Int? {
        guard case .number(let number)? = self[property: name]?.kind, number.isFinite,
            number == number.rounded(), abs(number) < 1e15
        else { return nil }
        return Int(number)
    }
}
