@testable import GameWorld
import Testing

/// `PlayerNameFinder` reads a line of ASCII byte by byte, for speed (every line is read several times a turn); it
/// must find the very tokens and parts the reading by characters finds.
@Suite struct PlayerNameTokensTests {
    @Test func aLineOfASCIIHasTheTokensItsCharactersGive() {
        let alphabet = Array("aZ09 '-,.?!_\t\nmMsS'") + ["\u{7F}", "\u{1}"]
        var generator = SplitMix64(seed: 31)
        for _ in 0..<2_000 {
            let line = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            })
            #expect(PlayerNameFinder.tokens(of: line) == PlayerNameFinder.characterTokens(of: line), "\(line.debugDescription)")
        }
        for _ in 0..<2_000 {
            let line = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            })
            let characterParts = line.split(whereSeparator: { ".!?;,\n".contains($0) }).map(String.init)
            #expect(PlayerNameFinder.parts(of: line, between: ".!?;,\n") == characterParts, "\(line.debugDescription)")
        }
        #expect(PlayerNameFinder.parts(of: "I'm Wren. From Ashby, I am!", between: ".!?;,\n") == [
            "I'm Wren", " From Ashby", " I am",
        ])
        // A carriage return before a line feed is one character with it: no separator.
        #expect(PlayerNameFinder.parts(of: "a\r\nb", between: "\n") == ["a\r\nb"])
        #expect(PlayerNameFinder.tokens(of: "Dax's the name, I'm from Eastmarch") == [
            ["Dax", "s"], ["the"], ["name"], ["I", "m"], ["from"], ["Eastmarch"],
        ])
        // A line with a curly apostrophe or a letter beyond ASCII is read by its characters.
        #expect(PlayerNameFinder.tokens(of: "I\u{2019}m Zoë") == [["I", "m"], ["Zoë"]])
    }
}
