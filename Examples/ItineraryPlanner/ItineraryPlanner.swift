import FoundationModels

/// A short trip, generated as a whole by the model.
@Generable
struct Itinerary {
    @Guide(description: "A short, inviting title for the trip")
    let title: String

    @Guide(description: "One sentence on why the trip is worth taking")
    let rationale: String

    @Guide(description: "The plan for each day", .count(3))
    let days: [DayPlan]
}

/// One day of the trip.
@Generable
struct DayPlan {
    @Guide(description: "A title for the day")
    let title: String

    @Guide(description: "What to do that day", .count(2))
    let activities: [String]
}

/// Plans a trip and prints it while the model writes it.
@main
struct ItineraryPlanner {
    static func main() async throws {
        let model = SystemLanguageModel.default
        switch model.availability {
        case .available:
            break
        case .unavailable(let reason):
            print("The model is unavailable: \(reason)")
            return
        }

        let session = LanguageModelSession(model: model) {
            "You plan short trips. Keep every title under eight words."
        }
        do {
            let stream = session.streamResponse(generating: Itinerary.self) {
                "Plan a three-day trip to the market town of Eastmarch."
            }
            for try await snapshot in stream {
                if let title = snapshot.content.title { print("Drafting: \(title)") }
            }
            let itinerary = try await stream.collect().content
            print(itinerary.title)
            print(itinerary.rationale)
            for (number, day) in itinerary.days.enumerated() {
                print("Day \(number + 1): \(day.title)")
                for activity in day.activities { print("  - \(activity)") }
            }
        } catch let error as LanguageModelSession.GenerationError {
            switch error {
            case .exceededContextWindowSize:
                print("The conversation is too long for the model; start a new session.")
            case .guardrailViolation, .refusal:
                print("The model would not plan this trip.")
            default:
                print("Planning failed: \(error.localizedDescription)")
            }
        } catch {
            print("Planning failed: \(error)")
        }
    }
}
