import ParleyJSON

// MARK: - The built-in English lexicon

extension Lexicon {
    /// The built-in English lexicon: the file `Sources/GameWorld/Resources/lexicon.en.json`, compiled into the
    /// library. `parley content lexicon` prints it (or a pack's).
    public static let english: Lexicon = {
        let decoded = LexiconDecoder.decode(
            bytes: PackageResources.lexicon_en_json, file: "lexicon.en.json (built in)", reference: nil)
        guard let lexicon = decoded.lexicon else {
            // A test reads the file with the content loader, so this is found before it ships.
            preconditionFailure("the built-in lexicon.en.json does not load")
        }
        return lexicon
    }()

    /// The built-in German lexicon: the file `Sources/GameWorld/Resources/lexicon.de.json`, compiled into the
    /// library. A pack whose `world.json` says `"language": "de"` speaks it, and its `lexicon.json` may extend it
    /// (`"extends": "de"`).
    public static let german: Lexicon = {
        let decoded = LexiconDecoder.decode(bytes: PackageResources.lexicon_de_json, file: "lexicon.de.json (built in)")
        guard let lexicon = decoded.lexicon else {
            // A test reads the file with the content loader, so this is found before it ships.
            preconditionFailure("the built-in lexicon.de.json does not load")
        }
        return lexicon
    }()
}

// MARK: - As JSON

extension Lexicon: Codable {
    /// The lexicon as a whole `lexicon.json` document (no `extends`): what `parley content lexicon` prints. Its
    /// `commands`, `directions`, `lines` and `texts` come after `numbers`, before `limits`.
    public var jsonValue: JSONValue {
        func list(_ strings: [String]) -> JSONValue { .array(strings.map(JSONValue.string)) }
        var document = JSONObject()
        document["language"] = .string(language)
        document["priority"] = list(priority.map(\.rawValue))
        document["phrases"] = .object(
            JSONObject(phrases.keys.sorted().map { ($0.rawValue, list(phrases($0))) }))
        document["words"] = .object(JSONObject(words.keys.sorted().map { ($0.rawValue, list(words($0))) }))
        document["synonyms"] = .object(
            JSONObject(synonyms.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        document["categories"] = .object(
            JSONObject(categories.sorted { $0.key < $1.key }.map { ($0.key, list($0.value)) }))
        var numbers = JSONObject()
        numbers["words"] = .object(
            JSONObject(
                self.numbers.words.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map {
                    ($0.key, .integer($0.value))
                }))
        numbers["scales"] = .object(
            JSONObject(
                self.numbers.scales.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map {
                    ($0.key, .integer($0.value))
                }))
        numbers["joiners"] = list(self.numbers.joiners)
        numbers["articles"] = list(self.numbers.articles)
        numbers["amounts"] = .array(
            self.numbers.amounts.map { amount in
                var object = JSONObject([("phrase", .string(amount.phrase)), ("value", .integer(amount.value))])
                if amount.isGold { object["gold"] = .bool(true) }
                return .object(object)
            })
        document["numbers"] = .object(numbers)
        document["commands"] = .object(
            JSONObject(commands.keys.sorted().map { ($0.rawValue, list(commands($0))) }))
        document["directions"] = .object(
            JSONObject(directions.sorted { $0.key < $1.key }.map { ($0.key, list($0.value)) }))
        document["lines"] = .object(
            JSONObject(
                lines.sorted { $0.key < $1.key }.map { id, lines in
                    var rule = JSONObject()
                    if !lines.replies.isEmpty { rule["replies"] = list(lines.replies) }
                    if !lines.outcomes.isEmpty {
                        rule["outcomes"] = .object(
                            JSONObject(
                                DialogueOutcome.allCases.compactMap { outcome in
                                    lines.outcomes[outcome].map { (outcome.rawValue, list($0)) }
                                }))
                    }
                    return (id, .object(rule))
                }))
        document["texts"] = .object(JSONObject(texts.keys.sorted().map { ($0.rawValue, .string(texts[$0]!)) }))
        document["limits"] = .object(
            JSONObject([
                ("shortLine", .integer(limits.shortLine)), ("shortAnswer", .integer(limits.shortAnswer)),
                ("choiceLine", .integer(limits.choiceLine)), ("largestQuantity", .integer(limits.largestQuantity)),
                ("shortestSwapMended", .integer(limits.shortestSwapMended)),
                ("shortestEditMended", .integer(limits.shortestEditMended)),
            ]))
        return .object(document)
    }

    /// Reads a lexicon from a `lexicon.json` document, as the content loader does (`LexiconDecoder`).
    ///
    /// - Parameter json: The document.
    /// - Throws: `LexiconError` listing every problem.
    public init(json: JSONValue) throws(LexiconError) {
        let decoded = LexiconDecoder.decode(json, file: ContentPack.lexiconFileName)
        guard let lexicon = decoded.lexicon else {
            throw LexiconError(problems: decoded.diagnostics.filter { $0.severity == .error }.map(\.description))
        }
        self = lexicon
    }

    /// Encodes the lexicon as its `lexicon.json` document.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(jsonValue)
    }

    /// Decodes a lexicon from its `lexicon.json` document.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the problems.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(JSONValue.self)
        do {
            try self.init(json: value)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: error.problems.joined(separator: "; "))
        }
    }
}

/// A lexicon document that cannot be used.
public struct LexiconError: Error, Sendable, Equatable {
    /// Each problem, with its JSON path.
    public var problems: [String]
}
