import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Synchronization
import Testing

/// A tool that looks up an item's price in a fixed stock list.
struct LookUpStock: Tool {
    let name = "lookUpStock"
    let description = "Looks up whether the merchant has an item and its price."

    struct Arguments: CodableGenerable {
        var item: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
        }
    }

    let stock = ["lantern": 12, "rope": 3]
    let log = CallLog()

    func call(arguments: Arguments) async throws -> String {
        log.calls.withLock { $0.append(arguments.item) }
        guard let price = stock[arguments.item] else { return "\(arguments.item): not in stock" }
        return "\(arguments.item): \(price) gold"
    }
}

/// Records what a tool was called with.
final class CallLog: Sendable {
    let calls = Mutex<[String]>([])
    var items: [String] { calls.withLock { $0 } }
}

/// A tool that always throws.
struct BrokenTool: Tool {
    let name = "brokenTool"
    let description = "Fails every time."
    struct Failure: Error, Equatable {}
    func call(arguments: GeneratedContent) async throws -> String { throw Failure() }
}

/// A tool whose output is structured content.
struct Appraise: Tool {
    let name = "appraise"
    let description = "Appraises an item."
    struct Arguments: CodableGenerable {
        var item: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Arguments.self, properties: [.init(name: "item", type: String.self)])
        }
    }
    struct Appraisal: CodableGenerable {
        var item: String
        var value: Int
        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Appraisal.self,
                properties: [
                    .init(name: "item", type: String.self), .init(name: "value", type: Int.self),
                ])
        }
    }
    func call(arguments: Arguments) async throws -> Appraisal { Appraisal(item: arguments.item, value: 40) }
}

/// A trade offer, generated with guided generation.
struct TradeOffer: CodableGenerable, Equatable {
    var item: String
    var price: Int
    var remarks: [String]
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: TradeOffer.self, description: "An offer to sell an item",
            properties: [
                .init(name: "item", type: String.self),
                .init(name: "price", type: Int.self, guides: [.minimum(1)]),
                .init(name: "remarks", type: [String].self),
            ])
    }
}

/// Loads a fixture file's text.
func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
    return try String(contentsOf: url, encoding: .utf8)
}

/// The text answers of a transcript's responses.
func responseTexts(_ transcript: Transcript) -> [String] {
    transcript.compactMap { entry in
        if case .response(let response) = entry { return response.segments.map(\.description).joined() }
        return nil
    }
}
