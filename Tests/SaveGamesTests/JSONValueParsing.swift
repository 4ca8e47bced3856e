import ParleyJSON

/// Splits a transcript's JSON into its entries' JSON texts.
enum JSONValueParsing {
    static func entries(of transcriptJSON: String) throws -> [String] {
        let value = try JSONValue(parsing: transcriptJSON)
        return (value["transcript"]?["entries"]?.arrayValue ?? []).map { $0.jsonString() }
    }
}
