#if GENERABLE_MACROS
import FoundationModels
import Testing

/// How a day goes, chosen among names.
@Generable
enum Pace {
    case relaxed, brisk
}

/// A stop of a trip, nested in it.
@Generable
struct Stop {
    @Guide(description: "Where")
    let place: String
    @Guide(description: "How long", .range(2...5))
    let hours: Int
    @Guide(description: "How it goes")
    let pace: Pace
}

/// A trip, with every kind of property the scripted model answers: nested types in an array with a count, an enum,
/// an optional, guided numbers, a short string and a pattern.
@Generable
struct Trip {
    @Guide(description: "The trip's title", .pattern(/[A-Z]{3}-\d{2}/))
    let code: String
    let title: String
    @Guide(description: "The stops", .count(2))
    let stops: [Stop]
    @Guide(description: "Extra stops", .minimumCount(1))
    let extras: [Stop]
    let pace: Pace
    @Guide(description: "A remark, or none")
    let remark: String?
    @Guide(description: "The budget", .range(10.5...99))
    let budget: Double
    let booked: Bool
}

/// A greeting whose pattern the scripted model cannot write (a group with alternatives).
@Generable
struct Salute {
    @Guide(description: "A salute", .pattern(/(hail|ho), (friend|stranger)!/))
    let text: String
}

extension SystemLanguageModelTests {
    @Test("PARLEY_MODEL=scripted is available and answers text, offline, the same way every time")
    func scriptedAnswersText() async throws {
        unconfigure()
        try await withModelEnvironment("scripted") {
            #expect(SystemLanguageModel.default.availability == .available)
            #expect(SystemLanguageModel.default.id == "scripted")
            let first = try await LanguageModelSession().respond(to: "A day in\nEastmarch?").content
            let again = try await LanguageModelSession().respond(to: "A day in\nEastmarch?").content
            #expect(first == #"(scripted) You said: "A day in Eastmarch?""#)
            #expect(again == first)
            let other = try await LanguageModelSession().respond(to: "Something else").content
            #expect(other != first && other.hasPrefix("(scripted) "))
        }
    }

    @Test("configure(\"scripted\") makes it the default, before PARLEY_MODEL")
    func configureScripted() async throws {
        unconfigure()
        defer {
            SystemLanguageModel.resetConfiguration()
        }
        try await withModelEnvironment("htp:/not-a-model") {
            #expect(!SystemLanguageModel.default.isAvailable)
            try SystemLanguageModel.configure("scripted")
            #expect(SystemLanguageModel.default.isAvailable)
            let answer = try await LanguageModelSession().respond(to: "Hello there").content
            #expect(answer.hasPrefix("(scripted) "), "\(answer)")
        }
    }

    @Test("It answers nested @Generable types and enums with schema-valid content")
    func scriptedAnswersGenerableTypes() async throws {
        unconfigure()
        try SystemLanguageModel.configure("scripted")
        defer { SystemLanguageModel.resetConfiguration() }
        let response = try await LanguageModelSession().respond(to: "Plan a trip.", generating: Trip.self)
        #expect(Trip.generationSchema.validate(response.rawContent).isEmpty)
        let trip = response.content
        #expect(trip.code == "AAA-00")
        #expect(trip.title == "(scripted)")
        #expect(trip.stops.count == 2)
        #expect(trip.stops.allSatisfy { $0.hours == 2 && $0.pace == .relaxed && $0.place == "(scripted)" })
        #expect(trip.extras.count == 1)
        #expect(trip.pace == .relaxed)
        #expect(trip.remark == "(scripted)", "optional properties are present")
        #expect(trip.budget == 10.5)
        #expect(trip.booked == false)
        // Streamed, the last snapshot is the same content.
        var last: Trip.PartiallyGenerated?
        for try await snapshot in LanguageModelSession().streamResponse(to: "Plan a trip.", generating: Trip.self) {
            last = snapshot.content
        }
        #expect(last?.stops?.count == 2 && last?.code == "AAA-00")
        // An enum alone.
        let pace = try await LanguageModelSession().respond(to: "How fast?", generating: Pace.self).content
        #expect(pace == .relaxed)
    }

    @Test("It answers a dynamic schema with anyOf, and refuses a pattern it cannot write, saying why")
    func scriptedSchemasAndRefusals() async throws {
        unconfigure()
        try SystemLanguageModel.configure("scripted")
        defer { SystemLanguageModel.resetConfiguration() }
        let ticket = DynamicGenerationSchema(
            name: "Ticket",
            properties: [
                .init(name: "kind", schema: .init(name: "Kind", anyOf: ["day", "week"])),
                .init(name: "riders", schema: .init(type: Int.self, guides: [.range(1...4)])),
            ])
        let schema = try GenerationSchema(root: ticket, dependencies: [])
        let content = try await LanguageModelSession().respond(to: "A ticket", schema: schema).content
        #expect(schema.validate(content).isEmpty)
        #expect(try content.value(String.self, forProperty: "kind") == "day")
        #expect(try content.value(Int.self, forProperty: "riders") == 1)
        await #expect {
            try await LanguageModelSession().respond(to: "Salute me", generating: Salute.self)
        } throws: { error in
            guard case LanguageModelError.unsupportedGenerationGuide(let info) = error else { return false }
            return info.debugDescription.contains("scripted model") && info.debugDescription.contains("pattern")
        }
    }
}
#endif
