import Foundation
import GameWorld
import Testing

@Suite struct TradeOfferCodingTests {
    @Test func offersDecodeWithDefaultsAsAModelWritesThem() throws {
        let json = #"{"npc": "brannoc", "playerGives": {"gold": 1}, "npcGives": {"items": [{"item": "sword"}]}}"#
        let offer = try JSONDecoder().decode(TradeOffer.self, from: Data(json.utf8))
        #expect(offer == .buying("sword", from: "brannoc", for: 1))
        let empty = try JSONDecoder().decode(TradeOffer.self, from: Data(#"{"npc": "mira"}"#.utf8))
        #expect(empty == TradeOffer(npc: "mira"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TradeOffer.self, from: Data("{}".utf8)) }
    }

    @Test func offersRoundTrip() throws {
        let offer = TradeOffer(
            npc: "brannoc", playerGives: TradeSide(items: [ItemStack("dagger", quantity: 2)], gold: 28),
            npcGives: TradeSide(items: [ItemStack("sword")]))
        #expect(try JSONDecoder().decode(TradeOffer.self, from: JSONEncoder().encode(offer)) == offer)
    }
}
