import GameWorld

/// One NPC line cut up the way the claim check reads it: sentences of tokens, each token a lowercased word or one
/// punctuation mark, with the line's numbers read (digits or words).
///
/// A sentence ends at `.`, `!`, `?`, `;`, `…` or a line break; `sentence.isQuestion` says whether it ended with `?`.
/// Inside a sentence, `,`, `:`, `(`, `)` and dashes separate clauses. Hyphens and apostrophes inside a word do not
/// split it into tokens the same way: `lamp-oil` is `lamp`, `oil`; `don't` stays one word (a curly `’` is read as
/// `'`). `1,000` is one number. Numbers are read with the speaker's lexicon, by its one reader,
/// `Lexicon.Numbers.number(in:at:)`.
struct ClaimText {
    /// One word or punctuation mark.
    struct Token: Equatable {
        /// The word, lowercased; empty for punctuation.
        var word: String
        /// The punctuation mark, for a token that is not a word.
        var mark: Character?
        /// The word or mark as written.
        var text: String
        /// Whether the token separates clauses (`,`, `:`, `(`, `)`, a dash).
        var isClauseBreak: Bool { mark.map { ",:()—–-".contains($0) } ?? false }
    }

    /// One sentence: its tokens, and whether it asks.
    struct Sentence {
        /// The tokens, punctuation inside the sentence included, the final mark left out.
        var tokens: [Token]
        /// Whether the sentence ended with `?`.
        var isQuestion: Bool

        /// The sentence as written (spacing normalized), with its final `?` when it asked.
        var text: String {
            var text = ""
            for token in tokens {
                let attaches = token.mark.map { ",:;)".contains($0) } ?? false
                if !text.isEmpty, !attaches, !text.hasSuffix("(") { text += " " }
                text += token.text
            }
            return isQuestion ? text + "?" : text
        }
        /// The tokens' words (empty for punctuation).
        var words: [String] { tokens.map(\.word) }
    }

    /// The sentences, in order; empty ones left out.
    let sentences: [Sentence]

    /// Reads a line.
    ///
    /// - Parameter line: What the NPC said.
    init(_ line: String) {
        var sentences: [Sentence] = []
        var tokens: [Token] = []
        var word = ""
        let characters: [Character] = line.map { $0 == "\u{2019}" || $0 == "\u{2018}" ? "'" : $0 }
        func endWord() {
            if !word.isEmpty { tokens.append(Token(word: word.lowercased(), mark: nil, text: word)) }
            word = ""
        }
        func endSentence(question: Bool) {
            endWord()
            if !tokens.isEmpty { sentences.append(Sentence(tokens: tokens, isQuestion: question)) }
            tokens = []
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let previous: Character? = index > 0 ? characters[index - 1] : nil
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if character == "'", !word.isEmpty, next.map({ $0.isLetter }) == true {
                word.append(character)
            } else if character == ",", !word.isEmpty, word.allSatisfy(\.isNumber), index + 3 < characters.count,
                characters[(index + 1)...(index + 3)].allSatisfy(\.isNumber),
                index + 4 >= characters.count || !characters[index + 4].isNumber
            {
                // 1,000: a digit group, not a clause break.
                index += 1
                continue
            } else if character == "-", let previous, let next, previous.isLetter, next.isLetter {
                endWord()  // lamp-oil, twenty-five: two words, no break
            } else if ".!;…\n".contains(character) {
                endSentence(question: false)
            } else if character == "?" {
                endSentence(question: true)
            } else if character.isWhitespace {
                endWord()
            } else {
                endWord()
                tokens.append(Token(word: "", mark: character, text: String(character)))
            }
            index += 1
        }
        endSentence(question: false)
        self.sentences = sentences
    }
}
