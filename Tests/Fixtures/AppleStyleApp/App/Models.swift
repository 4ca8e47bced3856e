// The app's generated types: a meal plan with nested arrays of nested types, enumerations, an optional and a regex
// guide, and the shopping list a turn with a tool answers with.
import FoundationModels

/// A meal plan for a few days.
@Generable(description: "A meal plan for a few days")
struct MealPlan {
    @Guide(description: "The plan's title")
    var title: String
    @Guide(description: "One entry per day", .count(2))
    var days: [DayPlan]
    @Guide(description: "How much effort the cooking takes")
    var effort: Effort
    @Guide(description: "The plan's reference code", /[A-Z]{3}-\d{2}/)
    var code: String
    @Guide(description: "A remark for the cook, if there is one")
    var note: String?
}

/// One day of a plan.
@Generable
struct DayPlan {
    @Guide(description: "The day's number", .range(1...7))
    var day: Int
    @Guide(description: "The day's meals", .count(2))
    var meals: [Meal]
}

/// One meal.
@Generable
struct Meal {
    @Guide(description: "The dish")
    var name: String
    var course: Course
    @Guide(description: "What goes into it", .minimumCount(1))
    var ingredients: [String]
}

/// When a meal is eaten.
@Generable
enum Course: CaseIterable {
    case breakfast
    case lunch
    case dinner
}

/// How much effort a plan takes.
@Generable
enum Effort: String, CaseIterable {
    case easy
    case moderate
    case ambitious
}

/// What to buy.
@Generable(description: "A shopping list")
struct ShoppingList {
    @Guide(description: "What to buy", .count(1...5))
    var items: [String]
    @Guide(description: "Whether it is needed today")
    var urgent: Bool
}
