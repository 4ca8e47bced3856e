import GameWorld
import Testing

/// A word written with a capital after "I'm" or "I am" that is a verb form, an adjective or a word of the lexicon is
/// no name (issue 31, seventh round): "I'm Looking for a lantern" gives none, "I'm Wren" still does.
@Suite struct PlayerNameStateTests {
    @Test(arguments: [
        "I'm Looking for a lantern", "I am Hoping to buy some rope", "I'm Starving, what's cooking?",
        "I'm Hopeful you've a candle", "I'm Off to the mill", "I am Thankful for the help",
    ])
    func aCapitalisedStateAfterIAmIsNoName(line: String) {
        #expect(PlayerNameFinder(Lexicon.english).name(in: line) == nil, "\(line)")
    }

    @Test(arguments: [
        ("I'm Wren", "Wren"), ("hi, I'm Corwen, good to meet you", "Corwen"), ("I am Tamsin.", "Tamsin"),
        ("I'm May, from the hills", "May"), ("my name is Looking", "Looking"),
    ])
    func aNameAfterIAmIsStillFound(line: String, name: String) {
        #expect(PlayerNameFinder(Lexicon.english).name(in: line) == name, "\(line)")
    }

    @Test(arguments: ["Ich bin Glücklich", "ich bin Wartend auf Greta"])
    func aGermanStateIsNoNameEither(line: String) {
        #expect(PlayerNameFinder(Lexicon.german).name(in: line) == nil, "\(line)")
    }

    @Test func aGermanNameIsStillFound() {
        #expect(PlayerNameFinder(Lexicon.german).name(in: "Ich bin Lotte") == "Lotte")
    }
}
