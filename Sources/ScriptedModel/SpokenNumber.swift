/// A number in a line, in digits (`20`) or words (`twenty`, `twenty five`, `a hundred`, `a dozen`), and whether the
/// words around it make it a price or a quantity.
struct SpokenNumber: Sendable, Equatable {
    /// What a number stands for, from the words around it.
    enum Role: Sendable, Equatable {
        /// Followed by `gold`, `coins`..., after `for`, `at`, `pay`, `you take`, or before `for` and what it buys
        /// (`ten for the lot`): an amount of gold.
        case price
        /// Right before an item's name (`two loaves`): how many.
        case quantity
        /// Nothing says.
        case unmarked
    }

    /// The value.
    let value: Int
    /// The words it spans in the line.
    let range: Range<Int>
    /// What it stands for.
    var role: Role

    /// Every number in a line, in order, with its role where the words say.
    ///
    /// - Parameters:
    ///   - words: The line.
    ///   - itemStarts: Where item names start in the line, to recognise quantities.
    ///   - vocabulary: The pack's number words and the words around numbers.
    static func all(in words: Words, itemStarts: Set<Int> = [], vocabulary: Vocabulary) -> [SpokenNumber] {
        let tokens = words.tokens
        var found: [SpokenNumber] = []
        var index = 0
        while index < tokens.count {
            guard let (value, end, isGold) = number(in: words, at: index, vocabulary) else {
                index += 1
                continue
            }
            var spoken = SpokenNumber(value: value, range: index..<end, role: .unmarked)
            spoken.role = isGold ? .price : role(of: spoken, in: words, itemStarts: itemStarts, vocabulary)
            // "the cheaper of the two": which of those listed, not how many.
            if index >= 2, tokens[index - 2] == "of", tokens[index - 1] == "the", spoken.role == .unmarked,
                !itemStarts.contains(end)
            {
                index = end
                continue
            }
            // "the silver one", "that one": a pronoun, not a number; so is "the one" that a clause follows ("the one
            // the flood took").
            let afterDeterminer = index > 0 && vocabulary.isWord(tokens[index - 1], in: .determiners)
            if vocabulary.isWord(tokens[index], in: .pronouns), end == index + 1,
                spoken.role == .unmarked || (afterDeterminer && !itemStarts.contains(end)), tokens.count > 1
            {
                index = end
                continue
            }
            found.append(spoken)
            index = end
        }
        return found
    }

    /// A number starting at `index`: its value, the index after it, and whether it is always gold (`a fiver`).
    private static func number(in words: Words, at index: Int, _ vocabulary: Vocabulary) -> (Int, Int, Bool)? {
        let tokens = words.tokens
        let token = tokens[index]
        if token.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard token.count <= 9, let value = Int(token) else { return nil }
            return (value, index + 1, false)
        }
        for amount in vocabulary.amounts where words.matches(amount.words, at: index) {
            return (amount.value, index + amount.words.count, amount.isGold)
        }
        var position = index
        // "a hundred": the article stands for one.
        if vocabulary.numberArticles.contains(token) {
            guard index + 1 < tokens.count, vocabulary.scales[tokens[index + 1]] != nil else { return nil }
            position = index + 1
        }
        var total = 0
        var current = 0
        var consumed = false
        var end = position
        while end < tokens.count {
            let word = tokens[end]
            if let value = vocabulary.numberWords[word] {
                current += value
            } else if let scale = vocabulary.scales[word] {
                if scale >= 1000 {
                    total += max(current, 1) * scale
                    current = 0
                } else {
                    current = max(current, 1) * scale
                }
            } else if vocabulary.joiners.contains(word), consumed, end + 1 < tokens.count,
                vocabulary.numberWords[tokens[end + 1]] != nil
            {
                end += 1
                continue
            } else {
                break
            }
            consumed = true
            end += 1
        }
        guard consumed else { return nil }
        return (total + current, end, false)
    }

    /// Gold after a price lead-in (`for`, `at`, `you take`...), before a gold word (`gold`, `coins`...); a quantity
    /// right before an item's name (skipping `of`, `the`, `your`...).
    private static func role(
        of number: SpokenNumber, in words: Words, itemStarts: Set<Int>, _ vocabulary: Vocabulary
    ) -> Role {
        let tokens = words.tokens
        let after = number.range.upperBound
        if after < tokens.count, vocabulary.isWord(tokens[after], in: .gold) { return .price }
        // "Do us a deal on two": a number right after a `countLinks` word counts the thing, it bids no gold.
        if number.range.lowerBound > 0, vocabulary.isWord(tokens[number.range.lowerBound - 1], in: .countLinks) {
            return .quantity
        }
        var next = after
        while next < tokens.count, vocabulary.isWord(tokens[next], in: .quantityGap) { next += 1 }
        if itemStarts.contains(next) { return .quantity }
        // "For one of ya trout": a number followed by `of`, `the`... and more words counts them, even words the
        // catalog does not know; a price is never "one of". ("20 the lot" is a price: see below.)
        if next > after, next < tokens.count, !vocabulary.isWord(tokens[next], in: .things) { return .quantity }
        // "forty for the fan", "ten for the lot", "8 for it": a number before a one-word lead-in and an item, a
        // pronoun or a thing is what it costs.
        if after + 1 < tokens.count,
            vocabulary.phrases(.priceLeadIns).contains(where: { $0.count == 1 && words.matches($0, at: after) })
        {
            // (Articles and a count may come between: "8 for *two* jugs of cider?", "3 for *a* tallow candle".)
            var item = after + 1
            while item < tokens.count,
                vocabulary.isWord(tokens[item], in: .quantityGap) || vocabulary.isWord(tokens[item], in: .articles)
                    || vocabulary.numberWords[tokens[item]] != nil || tokens[item].allSatisfy({ $0.isASCII && $0.isNumber })
            {
                item += 1
            }
            if itemStarts.contains(item) { return .price }
            if item < tokens.count,
                vocabulary.isWord(tokens[item], in: .pronouns) || vocabulary.isWord(tokens[item], in: .things)
            {
                return .price
            }
        }
        let before = number.range.lowerBound
        for leadIn in vocabulary.phrases(.priceLeadIns) where before >= leadIn.count {
            if words.matches(leadIn, at: before - leadIn.count) { return .price }
        }
        return .unmarked
    }
}
