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

    /// Any travel verb between the speaker and `from` says it, for a place written with a capital (issue 31, blind11).
    @Test(arguments: [
        ("I'm up from Dunhollow, on the coast.", "Dunhollow"), ("We rode down from Highcombe with the carts", "Highcombe"),
        ("I've walked all the way from Kettlewick this week.", "Kettlewick"),
        ("i sailed in from Port Ellis last week", "Port Ellis"), ("Tired. I've travelled here from Eastmere.", "Eastmere"),
    ])
    func aPlaceTravelledFromIsFound(line: String, place: String) {
        #expect(PlayerNameFinder(Lexicon.english).origin(in: line) == place)
    }

    @Test(arguments: [
        "where did I say I walked from?", "I just came from Mira's stall", "I bought this from Mira",
        "I walked over from the market", "did you walk up from Dunhollow?",
    ])
    func aLineAboutSomethingElseThanTheSpeakersTravelGivesNoPlace(line: String) {
        #expect(PlayerNameFinder(Lexicon.english).origin(in: line) == nil, "\(line)")
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
