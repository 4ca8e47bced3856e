// MARK: - Reading numbers in words

extension Lexicon.Numbers {
    /// The number that starts at `index` of some words, in digits (`25`) or in the lexicon's number words (`twenty
    /// five`, `a hundred and twenty`, German `fünfundzwanzig`, `hundert`), and the index after it.
    ///
    /// Words combine as numbers are written: after a word of 1 to 9 may come nothing; a word under 100 may follow a
    /// scale (`hundred five`) or start the number; a word under 10 may follow a round ten (`twenty five`); a scale
    /// multiplies what came before (`two hundred`; a scale of 1,000 or more closes a group: `two thousand five`); a
    /// `joiners` word may stand between two number words (`hundred and five`); an `articles` word stands for one
    /// before a scale (`a hundred`). So `five twenty` is two numbers, not 25. `amounts` are not read here: they are
    /// vague (`a few`) or gold (`a fiver`), for reading what players mean rather than what an NPC states.
    ///
    /// ```swift
    /// Lexicon.english.numbers.number(in: ["a", "hundred", "and", "five", "gold"], at: 0)   // (105, 4)
    /// ```
    ///
    /// - Parameters:
    ///   - words: Lowercased words (punctuation as empty words ends a number).
    ///   - index: Where the number would start.
    /// - Returns: The value and the end, or `nil` when no number starts there.
    public func number(in words: [String], at index: Int) -> (value: Int, end: Int)? {
        guard index >= 0, index < words.count else { return nil }
        let first = words[index]
        if !first.isEmpty, first.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let value = Int(first) else { return nil }
            return (value, index + 1)
        }
        var position = index
        var total = 0
        var current = 0
        var read = false
        // "a hundred": the article stands for one.
        if articles.contains(first), index + 1 < words.count, scales[words[index + 1]] != nil {
            current = 1
            position += 1
        }
        while position < words.count {
            let word = words[position]
            if let value = self.words[word] {
                if read {
                    let afterScale = current % 100 == 0 && value < 100
                    let afterTen = current % 100 >= 20 && current % 10 == 0 && value < 10
                    guard afterScale || afterTen else { break }
                }
                current += value
            } else if let scale = scales[word], read || current == 1 {
                if scale >= 1000 {
                    total += max(current, 1) * scale
                    current = 0
                } else {
                    current = max(current, 1) * scale
                }
            } else if joiners.contains(word), read, position + 1 < words.count, self.words[words[position + 1]] != nil {
                position += 1
                continue
            } else {
                break
            }
            read = true
            position += 1
        }
        guard read else { return nil }
        return (total + current, position)
    }

    /// Whether a word is a number word or scale of the lexicon, or digits.
    ///
    /// - Parameter word: A lowercased word.
    /// - Returns: `true` for `7`, `seven`, `hundred`.
    public func isNumberWord(_ word: String) -> Bool {
        (!word.isEmpty && word.allSatisfy { $0.isASCII && $0.isNumber }) || words[word] != nil
            || scales[word] != nil
    }
}
