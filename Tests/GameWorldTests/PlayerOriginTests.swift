import Foundation
import GameWorld
import Testing

/// Where a player says they are from, found by the lexicon's `selfOrigin` phrases (`PlayerNameFinder.origin(in:)`),
/// which the engine remembers as `ConversationFacts.playerFrom`.
@Suite struct PlayerOriginTests {
    @Test(arguments: [
        ("I'm from Eastmarch", "Eastmarch"), ("i come from the hills, love.", "the hills"),
        ("Hello! I hail from Dunmere and I'm thirsty", "Dunmere"), ("I was born in Low Ashby.", "Low Ashby"),
        ("my home town is Brindle", "Brindle"),
    ])
    func thePlaceAPlayerSaysTheyAreFromIsFound(line: String, place: String) {
        #expect(PlayerNameFinder(Lexicon.english).origin(in: line) == place)
    }

    @Test(arguments: ["where am I from?", "I'm from", "I am not from here", "I came from the market for rope", "hello"])
    func aLineThatGivesNoPlaceGivesNone(line: String) {
        #expect(PlayerNameFinder(Lexicon.english).origin(in: line) == nil, "\(line)")
    }

    @Test func factsWithoutAPlaceStillDecodeAndAPlaceRoundTrips() throws {
        let old = #"{"isFirstMeeting": false, "turns": 2, "playerCalled": "Dax"}"#
        let decoded = try JSONDecoder().decode(ConversationFacts.self, from: Data(old.utf8))
        #expect(decoded.playerFrom == nil)
        let facts = ConversationFacts(turns: 1, playerFrom: "Eastmarch")
        let again = try JSONDecoder().decode(ConversationFacts.self, from: JSONEncoder().encode(facts))
        #expect(again == facts)
    }
}
