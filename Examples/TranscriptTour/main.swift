// A tour of the LanguageModels API: one NPC, one tool, a few turns, the transcript, its JSON, a feedback report.
// It runs offline with MockLanguageModel; swap in any `LanguageModel` (a server, the scripted model) to make it real.
//
//     swift run transcript-tour
import Foundation
import LanguageModels
import LanguageModelsTesting

/// The merchant's tool: what she has and what it costs.
struct LookUpStock: Tool {
    let name = "lookUpStock"
    let description = "Looks up whether Mira has an item, and its price in gold."

    struct Arguments: CodableGenerable {
        var item: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [.init(name: "item", description: "The item", type: String.self)])
        }
    }

    func call(arguments: Arguments) async throws -> String {
        let stock = ["lantern": 12, "rope": 3]
        guard let price = stock[arguments.item] else { return "\(arguments.item): not in stock" }
        return "\(arguments.item): in stock, \(price) gold"
    }
}

// A scripted model stands in for a real one: it asks for the tool, then answers.
let model = MockLanguageModel(replies: [
    .text("Welcome to my stall, traveller!"),
    .toolCall("lookUpStock", arguments: #"{"item": "lantern"}"#),
    .text("A lantern is 12 gold. It will see you through the longest night."),
])

let session = LanguageModelSession(model: model, tools: [LookUpStock()]) {
    "You are Mira, a cheerful merchant in the market town of Eastmarch."
    "Check your stock before you quote a price."
}

for line in ["Hello!", "How much is a lantern?"] {
    print("> \(line)")
    var shown = ""
    for try await snapshot in session.streamResponse(to: line) {
        print(snapshot.content.dropFirst(shown.count), terminator: "")
        shown = snapshot.content
    }
    print("\n")
}

print("The transcript, entry by entry:")
for entry in session.transcript { print("  \(entry)") }

print("\nIts JSON (Apple's format), first lines:")
print(session.transcript.jsonString(prettyPrinted: true).split(separator: "\n").prefix(12).joined(separator: "\n"))

let report = session.logFeedbackAttachment(
    sentiment: .positive, issues: [], desiredResponseText: nil)
print("\nA feedback report of \(report.count) bytes, ready to attach to a bug report.")
