import GameWorld
import LanguageModels

/// The tool the model-stream fuzzer's sessions offer, so streamed tool calls have something to call.
struct FuzzStockTool: Tool {
    let name = NPCTool.lookUpStock.rawValue
    let description = "Looks up an item's price."

    /// The tool's one argument.
    struct Arguments: CodableGenerable {
        var item: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
        }
    }

    func call(arguments: Arguments) async throws -> String { "\(arguments.item): 3 gold" }
}
