import ParleyJSON

extension GenerationSchema {
    /// The keyword a guide that cannot become JSON Schema sets instead, with why: a session finds it before it
    /// sends the schema and throws `LanguageModelError.unsupportedGenerationGuide` with that reason.
    static let unsupportedGuideKeyword = "x-parley-unsupported-guide"

    /// Why the schema has a guide no server can enforce, or `nil` when every guide became JSON Schema.
    var unsupportedGuide: String? { Self.unsupportedGuide(in: .object(document)) }

    private static func unsupportedGuide(in value: JSONValue) -> String? {
        switch value {
        case .object(let object):
            if let reason = object[unsupportedGuideKeyword]?.stringValue { return reason }
            for (_, member) in object {
                if let reason = unsupportedGuide(in: member) { return reason }
            }
            return nil
        case .array(let elements):
            for element in elements {
                if let reason = unsupportedGuide(in: element) { return reason }
            }
            return nil
        default:
            return nil
        }
    }
}
