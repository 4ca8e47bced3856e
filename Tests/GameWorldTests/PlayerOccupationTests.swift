import Foundation
import GameWorld
import Testing

/// What a player says they do for a living, found by the lexicon's `selfOccupation` and `selfOccupationAfter` phrases
/// and `tradeEndings` (`PlayerNameFinder.occupation(in:)`), which the engine remembers as
/// `ConversationFacts.playerOccupation` (issue 31, blind15).
@Suite struct PlayerOccupationTests {
    @Test(arguments: [
        ("I'm Ysolde, a bookbinder from Carrow", "a bookbinder"), ("I work as a scribe at the guildhall", "a scribe"),
        ("my trade is smithing, but I'm off duty", "smithing"), ("I'm a cooper by trade", "a cooper"),
        ("name's Tam, I'm a fisherman from the coast", "a fisherman"), ("Hello. I'm a tanner.", "a tanner"),
        ("by trade I am a chandler.", "a chandler"),
    ])
    func whatAPlayerSaysTheyDoIsFound(line: String, occupation: String) {
        #expect(PlayerNameFinder(Lexicon.english).occupation(in: line) == occupation)
    }

    @Test(arguments: [
        "I'm a bit lost, to be honest", "what's my trade?", "my job is to find the locket", "I'm Wren",
        "I'm from Eastmarch", "what do you do for a living?", "I'm a man of my word", "I'm an old man",
    ])
    func aLineThatSaysNoOccupationGivesNone(line: String) {
        #expect(PlayerNameFinder(Lexicon.english).occupation(in: line) == nil, "\(line)")
    }

    @Test func germanPlayersSayItTheirOwnWay() {
        let finder = PlayerNameFinder(Lexicon.german)
        #expect(finder.occupation(in: "Ich arbeite als Buchbinderin in Carrow.") == "Buchbinderin")
        #expect(finder.occupation(in: "ich bin Schreiner von Beruf") == "Schreiner")
    }

    @Test func factsWithoutAnOccupationStillDecodeAndOneRoundTrips() throws {
        let old = #"{"isFirstMeeting": false, "turns": 2, "playerFrom": "Eastmarch"}"#
        let decoded = try JSONDecoder().decode(ConversationFacts.self, from: Data(old.utf8))
        #expect(decoded.playerOccupation == nil)
        let facts = ConversationFacts(turns: 1, playerOccupation: "a bookbinder")
        let again = try JSONDecoder().decode(ConversationFacts.self, from: JSONEncoder().encode(facts))
        #expect(again == facts)
    }
}
