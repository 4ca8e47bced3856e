// A tool whose arguments and output are `@Generable` types.
import FoundationModels

/// Checks which ingredients the pantry holds.
struct PantryTool: Tool {
    let name = "checkPantry"
    let description = "Checks which ingredients are in the pantry"

    /// What the model asks about.
    @Generable
    struct Arguments {
        @Guide(description: "The ingredients to look for", .minimumCount(1))
        var ingredients: [String]
        @Guide(description: "The meal they are for, if it matters")
        var course: Course?
    }

    /// What the pantry holds of them.
    @Generable
    struct Stock {
        @Guide(description: "The ingredients there are")
        var available: [String]
        @Guide(description: "The ingredients there are not")
        var missing: [String]
        @Guide(description: "Where the ones there are")
        var shelf: Shelf
    }

    /// A shelf of the pantry.
    @Generable
    enum Shelf {
        case top
        case middle
        case bottom
    }

    /// Flour and eggs are in; everything else is missing.
    func call(arguments: Arguments) async throws -> Stock {
        let inStock: Set<String> = ["flour", "eggs"]
        return Stock(
            available: arguments.ingredients.filter { inStock.contains($0.lowercased()) },
            missing: arguments.ingredients.filter { !inStock.contains($0.lowercased()) },
            shelf: arguments.course == .breakfast ? .top : .middle)
    }
}
