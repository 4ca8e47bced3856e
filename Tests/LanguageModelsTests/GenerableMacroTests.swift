// The macro plugin is built only where the toolchain has SwiftSyntax for it (Package.swift).
#if GENERABLE_MACROS
import Foundation
import LanguageModels
import LanguageModelsTesting
import ParleyJSON
import Testing

/// `@Generable` twins of hand-written types, in a namespace so that their schemas have the same titles.
enum Macro {
    /// `Shop` of GenerationSchemaTests, written with the macros.
    @Generable(description: "A shop")
    struct Shop: Equatable {
        @Generable enum Mood: String {
            case calm, busy
        }

        @Generable(description: "An item for sale")
        struct Ware: Equatable {
            @Guide(/^[a-z ]+$/)
            var name: String
            @Guide(description: "In gold", .range(1...500))
            var price: Int
        }

        var keeper: String?
        var mood: Mood
        @Guide(.count(1...3))
        var wares: [Ware]
        @Guide(.element(.anyOf(["food", "tools"])), .maximumCount(2))
        var tags: [String]
        /// Not generated: computed, static and constant properties.
        var wareCount: Int { wares.count }
        static let shelves = 4
        let currency = "gold"
    }

    /// The README's example.
    @Generable(description: "A trade offer")
    struct Offer: Equatable {
        @Guide(description: "The item's name")
        var item: String
        @Guide(description: "Gold for all of them", .range(1...500))
        var price: Int
        var remark: String?
    }

    /// An enumeration whose raw values are not its names: the model chooses names.
    @Generable enum Weather: String {
        case sunny = "Sunny"
        case rainy = "Rainy"
    }

    /// An array of enumerations, then another property.
    @Generable struct Forecast {
        var days: [Weather]
        var note: String
    }
}

/// A public type: the generated members must be public too for it to conform.
@Generable(description: "A public offer")
public struct PublicOffer: Equatable {
    /// The item.
    public var item: String
    /// The price.
    public var price: Int
}

@Suite struct GenerableMacroTests {
    // MARK: - Schemas

    @Test func theSchemaEqualsTheHandWrittenOne() throws {
        #expect(Macro.Shop.generationSchema == Shop.generationSchema)
        #expect(
            Macro.Shop.generationSchema.jsonSchema.jsonString(.sortedKeys)
                == Shop.generationSchema.jsonSchema.jsonString(.sortedKeys))
        #expect(Macro.Shop.Ware.generationSchema == Shop.Ware.generationSchema)
        #expect(Macro.Shop.Mood.generationSchema == Shop.Mood.generationSchema)
    }

    @Test func guidesAndDescriptionsBecomeSchemaKeywordsInDeclarationOrder() throws {
        let expected = try JSONValue(
            parsing: #"""
                {
                  "type": "object", "title": "Offer", "description": "A trade offer",
                  "properties": {
                    "item": {"type": "string", "description": "The item's name"},
                    "price": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Gold for all of them"},
                    "remark": {"type": "string"}
                  },
                  "required": ["item", "price"],
                  "x-order": ["item", "price", "remark"],
                  "additionalProperties": false
                }
                """#)
        #expect(Macro.Offer.generationSchema.jsonSchema == expected)
        #expect(Macro.Offer.generationSchema.jsonSchema.objectValue?.keys == expected.objectValue?.keys)
    }

    @Test func enumerationsOfferTheirCasesNames() throws {
        let schema = try #require(Macro.Weather.generationSchema.jsonSchema.objectValue)
        #expect(schema["type"] == "string")
        #expect(schema["enum"] == .array(["sunny", "rainy"]))
        #expect(Macro.Weather.rainy.generatedContent == GeneratedContent(kind: .string("rainy")))
        #expect(try Macro.Weather(GeneratedContent(kind: .string("sunny"))) == .sunny)
        let error = #expect(throws: GeneratedContent.ParsingError.self) {
            try Macro.Weather(GeneratedContent(kind: .string("Sunny")))
        }
        #expect(error?.debugDescription == #"Expected one of "sunny", "rainy" for Weather, found "Sunny"."#)
    }

    // MARK: - Conversions

    @Test func valuesRoundTripThroughGeneratedContent() throws {
        let shop = Macro.Shop(
            keeper: "Greta", mood: .busy, wares: [.init(name: "rope", price: 3), .init(name: "oil", price: 5)],
            tags: ["tools"])
        let content = shop.generatedContent
        #expect(content.orderedKeys == ["keeper", "mood", "wares", "tags"])
        #expect(try Macro.Shop(content) == shop)
        #expect(try Macro.Shop(GeneratedContent(json: content.jsonString)) == shop)
        #expect(Macro.Shop.generationSchema.validate(content).isEmpty)
    }

    @Test func contentIsWhatTheHandWrittenTypeMakes() throws {
        let handWritten = Shop(keeper: nil, mood: .calm, wares: [.init(name: "rope", price: 3)], tags: [])
        let macro = Macro.Shop(keeper: nil, mood: .calm, wares: [.init(name: "rope", price: 3)], tags: [])
        // `nil` properties are left out, as Codable leaves them out.
        #expect(macro.generatedContent.jsonString == handWritten.generatedContent.jsonString)
        #expect(try Macro.Shop(handWritten.generatedContent) == macro)
        #expect(try Shop(macro.generatedContent) == handWritten)
    }

    @Test func aMissingOrMistypedPropertyIsAParsingErrorNamingIt() throws {
        let missing = #expect(throws: GeneratedContent.ParsingError.self) {
            try Macro.Offer(GeneratedContent(json: #"{"item": "rope"}"#))
        }
        #expect(missing?.debugDescription.contains(#""price""#) == true)
        let mistyped = #expect(throws: GeneratedContent.ParsingError.self) {
            try Macro.Offer(GeneratedContent(json: #"{"item": "rope", "price": "cheap"}"#))
        }
        #expect(mistyped?.debugDescription.contains(#""price""#) == true)
        // An optional property may be missing or null.
        #expect(try Macro.Offer(GeneratedContent(json: #"{"item": "rope", "price": 3, "remark": null}"#)).remark == nil)
    }

    @Test func publicTypesConformWithPublicMembers() throws {
        let offer = PublicOffer(item: "oil", price: 5)
        #expect(try PublicOffer(offer.generatedContent) == offer)
        #expect(PublicOffer.generationSchema.name == "PublicOffer")
        #expect(try PublicOffer.PartiallyGenerated(offer.generatedContent).price == 5)
    }

    // MARK: - Partial values

    @Test func aSnapshotWithOnlyTheFirstPropertyDecodes() throws {
        let id = GenerationID()
        var content = try GeneratedContent(json: #"{"item": "lan"#)
        content.id = id
        let partial = try Macro.Offer.PartiallyGenerated(content)
        #expect(partial.item == "lan")
        #expect(partial.price == nil)
        #expect(partial.remark == nil)
        #expect(partial.id == id)
        // Apple's `Generable` value can be made only once it is complete.
        #expect(throws: GeneratedContent.ParsingError.self) { try Macro.Offer(content) }
    }

    @Test(
        arguments: [
            // The enumeration's name half written: not a mood yet.
            (#"{"keeper": "Greta", "mood": "bu"#, "Greta", nil, nil),
            (#"{"keeper": "Greta", "mood": "busy", "wares": [{"name": "rope", "pri"#, "Greta", .busy, ["rope"]),
            (
                #"{"keeper": "Greta", "mood": "busy", "wares": [{"name": "rope", "price": 3}, {"na"#, "Greta", .busy,
                ["rope", nil]
            ),
            (#"{"mood": "calm", "wares": []"#, nil, .calm, []),
        ] as [(String, String?, Macro.Shop.Mood?, [String?]?)])
    func nestedPartialValuesFillInAsTheyArrive(
        _ json: String, _ keeper: String?, _ mood: Macro.Shop.Mood?, _ wareNames: [String?]?
    ) throws {
        let partial = try Macro.Shop.PartiallyGenerated(GeneratedContent(json: json))
        #expect(partial.keeper == keeper)
        #expect(partial.mood == mood)
        #expect(partial.wares?.map(\.name) == wareNames)
        #expect(partial.tags == nil)
    }

    @Test func anUnfinishedEnumerationInAnArrayLeavesOnlyThatElementOut() throws {
        let partial = try Macro.Forecast.PartiallyGenerated(GeneratedContent(json: #"{"days": ["sunny", "rai"#))
        #expect(partial.days == [.sunny])
        #expect(partial.note == nil)
    }

    @Test func onlyTheLastPropertyMayBeUnfinished() throws {
        // A property before the last is complete: when it does not fit its type, the snapshot is wrong.
        #expect(throws: GeneratedContent.ParsingError.self) {
            try Macro.Shop.PartiallyGenerated(GeneratedContent(json: #"{"mood": "angry", "wares": []"#))
        }
        #expect(throws: GeneratedContent.ParsingError.self) {
            try Macro.Offer.PartiallyGenerated(GeneratedContent(json: #"{"item": 12, "price": 3"#))
        }
    }

    @Test func aTypedStreamYieldsPartialSnapshotsBeforeTheWholeValue() async throws {
        let offer = Macro.Offer(item: "lantern", price: 12, remark: "bright and sturdy")
        // A stream keeps only the newest snapshot for a reader that lags, so the model pauses between chunks, as a
        // real one does: this reader then sees every snapshot.
        let session = LanguageModelSession(
            model: MockLanguageModel(
                replies: [.structured(offer.generatedContent)], streamChunkSize: 2, delay: .milliseconds(5)))
        var snapshots: [Macro.Offer.PartiallyGenerated] = []
        let stream = session.streamResponse(to: "Offer?", generating: Macro.Offer.self)
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        // Before the price, with the item half written, and with the remark growing.
        #expect(snapshots.contains { $0.item != nil && $0.item != "lantern" && $0.price == nil })
        #expect(snapshots.contains { $0.item == "lantern" && $0.price == nil })
        #expect(snapshots.contains { $0.price == 12 && $0.remark != nil && $0.remark != offer.remark })
        let last = try #require(snapshots.last)
        #expect(last.item == offer.item && last.price == offer.price && last.remark == offer.remark)
        #expect(Set(snapshots.map(\.id)).count == 1, "every snapshot of one response has the same id")
        #expect(try await stream.collect().content == offer)
    }

    @Test func schemaStreamSnapshotsShareTheGenerationID() async throws {
        let offer = Macro.Offer(item: "rope", price: 3, remark: nil)
        let session = LanguageModelSession(
            model: MockLanguageModel(replies: [.structured(offer.generatedContent)], streamChunkSize: 3))
        var ids: [GenerationID?] = []
        for try await snapshot in session.streamResponse(to: "Offer?", schema: Macro.Offer.generationSchema) {
            ids.append(snapshot.rawContent.id)
        }
        #expect(ids.count > 1)
        #expect(ids.allSatisfy { $0 != nil && $0 == ids.first })
    }

    @Test func asPartiallyGeneratedHasEveryProperty() throws {
        let partial = Macro.Offer(item: "oil", price: 5, remark: nil).asPartiallyGenerated()
        #expect(partial.item == "oil" && partial.price == 5 && partial.remark == nil)
    }
}
#endif
