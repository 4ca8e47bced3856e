/// A number in a line, in digits (`20`) or words (`twenty`, `twenty five`, `a hundred`, `a dozen`), and whether the
/// words around it make it a price or a quantity.
struct SpokenNumber: Sendable, Equatable {
    /// What a number stands for, from the words around it.
    enum Role: Sendable, Equatable {
        /// Followed by `gold`, `coins`..., or after `for`, `at`, `pay`, `you take`: an amount of gold.
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

    private static let units: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    private static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    /// Words after a number that make it gold.
    static let goldWords: Set<String> = ["gold", "coin", "coins", "g", "gp", "crown", "crowns", "piece", "pieces"]
    /// Words before a number that make it gold.
    private static let priceMarkers: Set<String> = ["for", "at", "pay", "offer", "about", "accept", "than", "only"]

    /// Every number in a line, in order, with its role where the words say.
    ///
    /// - Parameters:
    ///   - words: The line.
    ///   - itemStarts: Where item names start in the line, to recognise quantities.
    static func all(in words: Words, itemStarts: Set<Int> = []) -> [SpokenNumber] {
        let tokens = words.tokens
        var found: [SpokenNumber] = []
        var index = 0
        while index < tokens.count {
            guard let (value, end) = number(in: tokens, at: index) else {
                index += 1
                continue
            }
            var spoken = SpokenNumber(value: value, range: index..<end, role: .unmarked)
            spoken.role = role(of: spoken, in: tokens, itemStarts: itemStarts)
            // "the silver one", "that one": a pronoun, not a number.
            if tokens[index] == "one", end == index + 1, spoken.role == .unmarked, tokens.count > 1 {
                index = end
                continue
            }
            found.append(spoken)
            index = end
        }
        return found
    }

    /// A number starting at `index`: its value and the index after it.
    private static func number(in tokens: [String], at index: Int) -> (Int, Int)? {
        let token = tokens[index]
        if token.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard token.count <= 9, let value = Int(token) else { return nil }
            return (value, index + 1)
        }
        var position = index
        if token == "a" || token == "an" {
            guard index + 1 < tokens.count else { return nil }
            switch tokens[index + 1] {
            case "dozen": return (12, index + 2)
            case "couple": return (2, index + 2 + (index + 2 < tokens.count && tokens[index + 2] == "of" ? 1 : 0))
            case "hundred": position = index + 1
            default: return nil
            }
        }
        if tokens[position] == "dozen" { return (12, position + 1) }
        var total = 0
        var current = 0
        var consumed = false
        var end = position
        while end < tokens.count {
            let word = tokens[end]
            if let value = units[word] {
                current += value
            } else if let value = tens[word] {
                current += value
            } else if word == "hundred" {
                current = max(current, 1) * 100
            } else if word == "thousand" {
                total += max(current, 1) * 1000
                current = 0
            } else if word == "and", consumed, end + 1 < tokens.count,
                units[tokens[end + 1]] != nil || tens[tokens[end + 1]] != nil
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
        return (total + current, end)
    }

    /// Gold after `for`/`at`/`pay`..., before `gold`/`coins`, or after `you take`/`give you`; a quantity right
    /// before an item's name (skipping `of`, `the`, `your`...).
    private static func role(of number: SpokenNumber, in tokens: [String], itemStarts: Set<Int>) -> Role {
        let after = number.range.upperBound
        if after < tokens.count, goldWords.contains(tokens[after]) { return .price }
        var next = after
        while next < tokens.count,
            ["of", "the", "your", "those", "these", "them", "my", "more", "big", "small"]
                .contains(tokens[next])
        {
            next += 1
        }
        if itemStarts.contains(next) { return .quantity }
        let before = number.range.lowerBound
        if before >= 1 {
            let previous = tokens[before - 1]
            if priceMarkers.contains(previous) { return .price }
            if before >= 2 {
                let pair = (tokens[before - 2], previous)
                if pair == ("you", "take") || pair == ("give", "you") || pair == ("make", "it")
                    || pair == ("pay", "you") || pair == ("it", "for") || pair == ("me", "for")
                {
                    return .price
                }
            }
        }
        return .unmarked
    }
}
