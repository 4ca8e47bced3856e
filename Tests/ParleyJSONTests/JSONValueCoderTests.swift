import Foundation
import Testing

@testable import ParleyJSON

@Suite struct JSONValueCoderTests {
    enum Mood: String, Codable, Equatable { case calm, angry }

    enum Event: Codable, Equatable {
        case said(text: String)
        case paid(gold: Int, to: String?)
        case left
    }

    struct Stack: Codable, Equatable {
        var item: String
        var quantity: Int
    }

    struct Shop: Codable, Equatable {
        var name: String
        var mood: Mood
        var open: Bool
        var discount: Double
        var ratio: Float
        var nickname: String?
        var stock: [Stack]
        var prices: [String: Int]
        var byLevel: [Int: String]
        var history: [Event]
        var gaps: [Int?]
        var seed: UInt64
        var tiny: Int8
    }

    static let shop = Shop(
        name: "Marta's", mood: .angry, open: true, discount: 0.25, ratio: 0.1, nickname: nil,
        stock: [Stack(item: "rope", quantity: 3), Stack(item: "lamp", quantity: 1)],
        prices: ["rope": 4, "lamp": 12, "Zither": 40, "b10": 1, "b2": 2], byLevel: [1: "one", 20: "twenty"],
        history: [.said(text: "hello"), .paid(gold: 5, to: nil), .paid(gold: 2, to: "bob"), .left],
        gaps: [1, nil, 3], seed: .max, tiny: -128)

    @Test func roundTripsNestedStructsEnumsOptionalsAndCollections() throws {
        let value = try JSONValueEncoder().encode(Self.shop)
        #expect(try JSONValueDecoder().decode(Shop.self, from: value) == Self.shop)
        var named = Self.shop
        named.nickname = "M"
        #expect(try JSONValueDecoder().decode(Shop.self, from: JSONValueEncoder().encode(named)) == named)
    }

    @Test func writesWhatFoundationWritesWithSortedKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let foundation = try JSONValue(parsing: Array(encoder.encode(Self.shop)))
        let direct = try JSONValueEncoder(keyOrder: .sorted).encode(Self.shop)
        #expect(direct.jsonString() == foundation.jsonString())
        #expect(direct["nickname"] == nil)
        #expect(direct["gaps"] == [1, nil, 3])
        #expect(direct["ratio"]?.jsonString() == "0.1")
        #expect(direct["seed"]?.jsonString() == "18446744073709551615")
        #expect(direct["prices"]?.objectValue?.keys == ["Zither", "b10", "b2", "lamp", "rope"])
    }

    @Test func encodingOrderIsTheOrderEncodeWrites() throws {
        let value = try JSONValueEncoder().encode(Self.shop)
        #expect(
            value.objectValue?.keys == [
                "name", "mood", "open", "discount", "ratio", "stock", "prices", "byLevel", "history", "gaps", "seed",
                "tiny",
            ])
        #expect(value["stock"]?[0]?.objectValue?.keys == ["item", "quantity"])
    }

    @Test func decodesWhatFoundationWrote() throws {
        let data = try JSONEncoder().encode(Self.shop)
        #expect(try JSONValueDecoder().decode(Shop.self, from: JSONValue(parsing: Array(data))) == Self.shop)
    }

    @Test func wholeNumbersAndDates() throws {
        #expect(try JSONValueEncoder().encode(3.0 as Double).jsonString() == "3")
        #expect(try JSONValueDecoder().decode(Int.self, from: 2.0) == 2)
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let value = try JSONValueEncoder().encode(date)
        #expect(value == 12.5)
        #expect(try JSONValueDecoder().decode(Date.self, from: value) == date)
    }

    @Test func nonFiniteNumbersThrowWithTheirPath() throws {
        struct Reading: Codable { var values: [Double] }
        #expect {
            try JSONValueEncoder().encode(Reading(values: [1, .infinity]))
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["values", "Index 1"]
        }
    }

    @Test func errorsCarryTheCodingPath() throws {
        let wrongType: JSONValue = ["stock": [["item": "rope", "quantity": 1], ["item": "lamp", "quantity": "one"]]]
        #expect {
            try JSONValueDecoder().decode([String: [Stack]].self, from: wrongType)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["stock", "Index 1", "quantity"]
                && context.codingPath[1].intValue == 1
        }
        let missing: JSONValue = [["item": "rope"]]
        #expect {
            try JSONValueDecoder().decode([Stack].self, from: missing)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "quantity" && context.codingPath.map(\.intValue) == [0]
        }
        #expect {
            try JSONValueDecoder().decode(Int8.self, from: 300)
        } throws: { error in
            guard case DecodingError.dataCorrupted = error else { return false }
            return true
        }
        #expect {
            try JSONValueDecoder().decode(Stack.self, from: ["item": "rope", "quantity": nil])
        } throws: { error in
            guard case DecodingError.valueNotFound(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["quantity"]
        }
    }

    @Test func jsonValuesPassThrough() throws {
        let inner: JSONValue = ["z": 1, "a": [true, nil]]
        struct Wrapper: Codable, Equatable { var payload: JSONValue }
        let value = try JSONValueEncoder().encode(Wrapper(payload: inner))
        #expect(value["payload"]?.objectValue?.keys == ["z", "a"])
        #expect(try JSONValueDecoder().decode(Wrapper.self, from: value) == Wrapper(payload: inner))
    }

    @Test func aKeyWrittenTwiceKeepsItsPlaceAndTakesItsLastValue() throws {
        struct Twice: Encodable {
            enum CodingKeys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .b)
                try container.encode(3, forKey: .a)
            }
        }
        #expect(try JSONValueEncoder().encode(Twice()).jsonString() == #"{"a":3,"b":2}"#)
    }
}
