// Apple-style FoundationModels code, as an Xcode project writes it: `import FoundationModels`, `@Generable` structs
// with nested arrays, enumerations and optionals, `@Guide` with descriptions, ranges, counts and a regex literal, a
// `Tool` with `@Generable` arguments, and a `PartiallyGenerated` stream. Every `GenerableIsolation…Tests` target
// compiles this one file under its own settings (the others hold a symbolic link to it; SharedFixtureTests checks
// that they still do) and runs it against `MockLanguageModel`.
import FoundationModels
import LanguageModelsTesting
import Testing

/// An exam a teacher sets.
@Generable(description: "An exam a teacher sets")
struct Exam {
    @Guide(description: "The exam's title")
    var title: String
    @Guide(description: "The questions", .count(2...3))
    var questions: [Question]
    @Guide(description: "How hard the exam is")
    var difficulty: Difficulty
    @Guide(description: "Minutes allowed", .range(10...120))
    var minutes: Int
    @Guide(description: "A note for the invigilator, if there is one")
    var note: String?
    @Guide(description: "The course's code", /\A[A-Z]{3}-\d{3}\z/)
    var course: String
}

/// One question of an exam.
@Generable
struct Question {
    @Guide(description: "The question")
    var text: String
    @Guide(description: "The answers to choose from", .count(3))
    var choices: [String]
    @Guide(description: "Points for a right answer", .range(1...10))
    var points: Int
    var hint: String?
}

/// How hard an exam is.
@Generable
enum Difficulty {
    case introductory
    case intermediate
    case advanced
}

/// Finds the study guide of a course.
struct FindStudyGuide: Tool {
    let name = "findStudyGuide"
    let description = "Finds the study guide of a course"

    /// What the model asks for.
    @Generable
    struct Arguments {
        @Guide(description: "The course's code")
        var course: String
        @Guide(description: "Pages wanted", .range(1...20))
        var pages: Int?
        var level: Difficulty?
    }

    func call(arguments: Arguments) async throws -> String {
        "The study guide of \(arguments.course) has \(arguments.pages ?? 10) pages."
    }
}

/// An exam as a model would write it.
func sampleExam(note: String? = nil) -> Exam {
    Exam(
        title: "Cells",
        questions: [
            Question(text: "What holds the DNA?", choices: ["Nucleus", "Wall", "Vacuole"], points: 2, hint: nil),
            Question(
                text: "What makes energy?", choices: ["Ribosome", "Mitochondrion", "Membrane"], points: 3,
                hint: "It has its own DNA"),
        ],
        difficulty: .intermediate, minutes: 45, note: note, course: "BIO-101")
}

@Suite struct AppleStyleGenerableTests {
    @Test func aToolCallThenAStructuredResponse() async throws {
        let exam = sampleExam(note: "Calculators allowed")
        let model = MockLanguageModel(replies: [
            .toolCall("findStudyGuide", arguments: #"{"course": "BIO-101", "pages": 12, "level": "advanced"}"#),
            .structured(exam.generatedContent),
        ])
        let session = LanguageModelSession(
            model: model, tools: [FindStudyGuide()], instructions: "You set exams for a biology course.")
        let response = try await session.respond(to: "Set an exam on cells.", generating: Exam.self)
        let content = response.content
        #expect(content.title == "Cells")
        #expect(content.questions.map(\.points) == [2, 3])
        #expect(content.questions.map(\.hint) == [nil, "It has its own DNA"])
        #expect(content.difficulty == .intermediate)
        #expect(content.note == "Calculators allowed")
        #expect(content.course == "BIO-101")
        let outputs = session.transcript.compactMap { entry -> String? in
            guard case .toolOutput(let output) = entry else { return nil }
            return output.segments.map(\.description).joined()
        }
        #expect(outputs == ["The study guide of BIO-101 has 12 pages."])
    }

    @Test func aStreamYieldsPartiallyGeneratedSnapshots() async throws {
        let exam = sampleExam()
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.structured(exam.generatedContent)], streamChunkSize: 16))
        var snapshots: [Exam.PartiallyGenerated] = []
        let stream = session.streamResponse(to: "Set an exam on cells.", generating: Exam.self)
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        // A reader that lags sees only the newest snapshot, so only the last one is certain here.
        let last = try #require(snapshots.last)
        #expect(last.title == "Cells")
        #expect(last.questions?.count == 2)
        #expect(last.questions?.last?.choices?.last == "Membrane")
        #expect(last.difficulty == .intermediate)
        #expect(last.course == "BIO-101")
        let whole = try await stream.collect().content
        #expect(whole.questions.first?.text == "What holds the DNA?")
        // A snapshot from the middle of the answer: the title is there, the questions not yet.
        let partial = try Exam.PartiallyGenerated(GeneratedContent(json: #"{"title": "Cel"#))
        #expect(partial.title == "Cel" && partial.questions == nil && partial.course == nil)
    }

    @Test func theRegexLiteralGuideIsTranslatedAndChecked() async throws {
        // `\A` and `\z` have no meaning in JSON Schema's ECMAScript patterns: they are written as `^` and `$`.
        #expect(Exam.generationSchema.debugDescription.contains(#""pattern": "^[A-Z]{3}-\\d{3}$""#))
        var wrong = sampleExam()
        wrong.course = "bio-101"
        let session = LanguageModelSession(model: MockLanguageModel(replies: [.structured(wrong.generatedContent)]))
        await #expect(throws: (any Error).self) {
            try await session.respond(to: "Set an exam on cells.", generating: Exam.self)
        }
    }

    @Test func anEnumerationAndOptionalsConvertBothWays() throws {
        for difficulty in [Difficulty.introductory, .intermediate, .advanced] {
            #expect(try Difficulty(difficulty.generatedContent) == difficulty)
        }
        let arguments = try FindStudyGuide.Arguments(GeneratedContent(json: #"{"course": "BIO-101"}"#))
        #expect(arguments.pages == nil && arguments.level == nil)
        #expect(FindStudyGuide().parameters.debugDescription.contains(#""course""#))
    }
}
