// Each part of the framework the app uses, with what it checks.
import Foundation
import FoundationModels

/// The system model's availability, as Apple's samples check it before they start.
func checkAvailability() throws -> String {
    let model = SystemLanguageModel.default
    switch model.availability {
    case .available:
        break
    case .unavailable(.deviceNotEligible):
        throw CheckFailed("the device cannot run the model")
    case .unavailable(.appleIntelligenceNotEnabled):
        throw CheckFailed("Apple Intelligence is off")
    case .unavailable(.modelNotReady):
        throw CheckFailed("the model is not ready yet")
    case .unavailable(let other):
        throw CheckFailed("the model is unavailable: \(other)")
    }
    try expect(model.isAvailable, "isAvailable says no where availability says yes")
    try expect(model.supportsLocale(Locale(identifier: "en_US")), "English is not supported")
    try expect(
        model.supportedLanguages.contains { $0.languageCode == .english }, "English is not among the languages")
    let tagging = SystemLanguageModel(useCase: .contentTagging)
    try expect(tagging.isAvailable, "the content tagging model is unavailable")
    return "available"
}

/// A session with no model, prewarmed, answering in text.
func respondWithText() async throws -> String {
    let session = LanguageModelSession()
    session.prewarm()
    let response = try await session.respond(to: "Say hello to the cook.")
    try expect(!response.content.isEmpty, "the answer is empty")
    try expect(!session.isResponding, "the session is still responding")
    guard case .response(let answer)? = session.transcript.last else {
        throw CheckFailed("the transcript does not end with the response: \(session.transcript)")
    }
    try expect(!answer.segments.isEmpty, "the response entry has no segments")
    return "\(session.transcript.count) entries"
}

/// A meal plan, with instructions written with the builder.
func respondWithMealPlan() async throws -> String {
    let session = LanguageModelSession {
        "You plan meals for a small household."
        "Every plan covers two days."
    }
    let response = try await session.respond(
        to: "Plan two days of meals.", generating: MealPlan.self,
        options: GenerationOptions(sampling: .greedy, temperature: 0.2))
    return try check(response.content)
}

/// Checks a plan against its schema's guides, and that it converts back to what was generated.
func check(_ plan: MealPlan) throws -> String {
    try expect(plan.days.count == 2, "\(plan.days.count) days, not 2")
    for day in plan.days {
        try expect((1...7).contains(day.day), "day \(day.day) is not in 1...7")
        try expect(day.meals.count == 2, "day \(day.day) has \(day.meals.count) meals, not 2")
        for meal in day.meals {
            try expect(!meal.ingredients.isEmpty, "\(meal.name) has no ingredients")
            try expect(Course.allCases.contains(meal.course), "\(meal.course) is not a course")
        }
    }
    try expect(plan.code.wholeMatch(of: /[A-Z]{3}-\d{2}/) != nil, "the code \(plan.code) does not match its pattern")
    try expect(Effort(rawValue: plan.effort.rawValue) == plan.effort, "\(plan.effort) is not an effort")
    let again = try MealPlan(plan.generatedContent)
    try expect(
        again.generatedContent.jsonString == plan.generatedContent.jsonString, "the plan does not convert back")
    return "\(plan.days.count) days of \(plan.days.map(\.meals.count).reduce(0, +)) meals, code \(plan.code)"
}

/// A turn in which the model may call a tool, answering with a shopping list; returns the session's transcript
/// for the checks that read and restore it.
func respondWithTools() async throws -> (String, Transcript) {
    let session = LanguageModelSession(
        tools: [PantryTool()], instructions: "You plan meals. Check the pantry before you write a shopping list.")
    let list = try await session.respond(to: "What must I buy for pancakes?", generating: ShoppingList.self).content
    try expect((1...5).contains(list.items.count), "\(list.items.count) items, not 1 to 5")
    var calls = 0
    var outputs = 0
    for entry in session.transcript {
        switch entry {
        case .toolCalls(let toolCalls):
            for call in toolCalls {
                try expect(call.toolName == "checkPantry", "a call of \(call.toolName)")
                let arguments = try PantryTool.Arguments(call.arguments)
                try expect(!arguments.ingredients.isEmpty, "a call without ingredients")
                calls += 1
            }
        case .toolOutput(let output):
            try expect(output.toolName == "checkPantry", "an output of \(output.toolName)")
            for segment in output.segments {
                guard case .structure(let structured) = segment else { continue }
                let stock = try PantryTool.Stock(structured.content)
                try expect(
                    !(stock.available.isEmpty && stock.missing.isEmpty), "the pantry said nothing of the ingredients")
                outputs += 1
            }
        default:
            break
        }
    }
    try expect(outputs == calls, "\(calls) tool calls but \(outputs) structured outputs")
    return ("tool calls: \(calls), \(list.items.count) items", session.transcript)
}

/// A meal plan streamed as `PartiallyGenerated` snapshots, with the prompt written with the builder.
func streamMealPlan() async throws -> String {
    let session = LanguageModelSession(instructions: "You plan meals.")
    let stream = session.streamResponse(generating: MealPlan.self) {
        "Plan two days of meals."
        "Use what is in season."
    }
    var snapshots = 0
    var last: MealPlan.PartiallyGenerated?
    for try await snapshot in stream {
        snapshots += 1
        let partial = snapshot.content
        try expect((partial.days?.count ?? 0) <= 2, "a snapshot with \(partial.days?.count ?? 0) days")
        last = partial
    }
    let plan = try await stream.collect().content
    _ = try check(plan)
    try expect(snapshots >= 1, "no snapshots")
    try expect(last?.title == plan.title, "the last snapshot's title is not the plan's")
    try expect(last?.days?.count == plan.days.count, "the last snapshot's days are not the plan's")
    try expect(last?.days?.last?.meals?.last?.name == plan.days.last?.meals.last?.name, "the last meal differs")
    try expect(last?.effort == plan.effort && last?.code == plan.code, "the last snapshot differs from the plan")
    return "snapshots, then the whole plan"
}

/// A support ticket, with a schema built at run time: `anyOf` strings and shapes, arrays and regex patterns.
func respondWithDynamicSchema() async throws -> String {
    let email = DynamicGenerationSchema(
        name: "Email",
        properties: [
            .init(
                name: "address",
                schema: DynamicGenerationSchema(type: String.self, guides: [.pattern(/[a-z]+@[a-z]+\.[a-z]{2,3}/)]))
        ])
    let phone = DynamicGenerationSchema(
        name: "Phone",
        properties: [
            .init(name: "number", schema: DynamicGenerationSchema(type: String.self, guides: [.pattern(/\+\d{6,12}/)]))
        ])
    let ticket = DynamicGenerationSchema(
        name: "Ticket", description: "A support ticket",
        properties: [
            .init(
                name: "reference",
                schema: DynamicGenerationSchema(type: String.self, guides: [.pattern(/TKT-\d{4}/)])),
            .init(
                name: "priority", schema: DynamicGenerationSchema(name: "Priority", anyOf: ["low", "normal", "urgent"])),
            .init(
                name: "contact", description: "How to reach the customer",
                schema: DynamicGenerationSchema(name: "Contact", anyOf: [email, phone])),
            .init(
                name: "tags",
                schema: DynamicGenerationSchema(
                    arrayOf: DynamicGenerationSchema(type: String.self), minimumElements: 1, maximumElements: 3)),
            .init(name: "summary", schema: DynamicGenerationSchema(type: String.self), isOptional: true),
        ])
    let schema = try GenerationSchema(root: ticket, dependencies: [email, phone])
    let session = LanguageModelSession()
    let content = try await session.respond(to: "File a ticket: the oven does not heat.", schema: schema).content

    let reference = try content.value(String.self, forProperty: "reference")
    try expect(reference.wholeMatch(of: /TKT-\d{4}/) != nil, "the reference \(reference) does not match its pattern")
    let priority = try content.value(String.self, forProperty: "priority")
    try expect(["low", "normal", "urgent"].contains(priority), "the priority \(priority) is not a choice")
    let tags = try content.value([String].self, forProperty: "tags")
    try expect((1...3).contains(tags.count), "\(tags.count) tags, not 1 to 3")
    let contact = try content.value(GeneratedContent.self, forProperty: "contact")
    let shape: String
    if let address = try? contact.value(String.self, forProperty: "address") {
        try expect(
            address.wholeMatch(of: /[a-z]+@[a-z]+\.[a-z]{2,3}/) != nil, "the address \(address) does not match")
        shape = "Email"
    } else {
        let number = try contact.value(String.self, forProperty: "number")
        try expect(number.wholeMatch(of: /\+\d{6,12}/) != nil, "the number \(number) does not match")
        shape = "Phone"
    }
    _ = try content.value(String?.self, forProperty: "summary")
    return "priority \(priority), contact by \(shape), \(tags.count) tags"
}

/// Reads a transcript's entries, as an app showing a conversation does.
func readTranscript(_ transcript: Transcript) throws -> String {
    var counts: [String: Int] = [:]
    for entry in transcript {
        switch entry {
        case .instructions(let instructions):
            counts["instructions", default: 0] += 1
            try expect(!instructions.segments.isEmpty, "instructions without segments")
        case .prompt(let prompt):
            counts["prompt", default: 0] += 1
            try expect(!prompt.segments.isEmpty, "a prompt without segments")
        case .toolCalls(let calls):
            counts["toolCalls", default: 0] += calls.count
        case .toolOutput:
            counts["toolOutput", default: 0] += 1
        case .response(let response):
            counts["response", default: 0] += 1
            try expect(!response.segments.isEmpty, "a response without segments")
        default:
            // Kinds of entries this app does not show (Apple 27's reasoning, say). A switch that lists Apple 26's
            // five kinds with `@unknown default` instead warns on Apple 27, and here (docs/porting.md).
            counts["other", default: 0] += 1
        }
    }
    guard case .instructions? = transcript.first else {
        throw CheckFailed("the transcript does not start with instructions")
    }
    try expect(counts["prompt"] == 1 && counts["response"] == 1, "not one prompt and one response: \(counts)")
    try expect(counts["toolCalls"] == counts["toolOutput"], "calls and outputs differ: \(counts)")
    return counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
}

/// Sessions that continue a saved transcript: with a model and tools, and without a model.
func restoreSessions(from transcript: Transcript) async throws -> String {
    try expect(!transcript.isEmpty, "no transcript to restore")
    let saved = try JSONEncoder().encode(transcript)
    let restored = try JSONDecoder().decode(Transcript.self, from: saved)
    try expect(restored == transcript, "the transcript did not survive encoding")

    let withTools = LanguageModelSession(
        model: SystemLanguageModel.default, tools: [PantryTool()], transcript: restored)
    let list = try await withTools.respond(to: "And for an omelette?", generating: ShoppingList.self).content
    try expect(!list.items.isEmpty, "an empty shopping list")
    try expect(
        withTools.transcript.prefix(restored.count).map(\.id) == restored.map(\.id),
        "the restored session does not continue the transcript")

    let plain = LanguageModelSession(transcript: restored)
    _ = try await plain.respond(to: "Thank you.")
    try expect(plain.transcript.count == restored.count + 2, "not one prompt and one response more")
    return "\(restored.count) entries, continued to \(withTools.transcript.count) and \(plain.transcript.count)"
}
