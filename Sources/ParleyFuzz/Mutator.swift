import GameWorld

/// Seeded mutations of byte strings: deletions, insertions of bytes and of words the target's format uses,
/// truncations, overwrites, duplicated and dropped slices, flipped bits and deep nesting.
///
/// The same seed gives the same mutations on every platform (it draws from `SplitMix64`).
struct Mutator {
    /// The random source.
    var random: SplitMix64
    /// Words of the target's format, inserted whole: `"role"`, `data: `, `[DONE]`.
    var dictionary: [[UInt8]]

    /// Bytes that matter to JSON and to line-based formats, and a few that are not valid UTF-8.
    static let bytes: [UInt8] =
        Array(#"{}[]",:0123456789-.eE\"tnrfalsxu :/#"#.utf8) + [
            0x0A, 0x0D, 0x00, 0xC3, 0xA9, 0xFF, 0xFE, 0xEF, 0xBB, 0xBF,
        ]

    /// Words every JSON target gets besides its own.
    static let jsonWords = [
        "null", "true", "[]", "{}", "1e999", "-0", "0.0000000000000000000000001", "18446744073709551616", "\"\"",
        #""\u0000""#, #""\ud800""#, "\u{FEFF}", "NaN",
    ]

    /// A mutator with a seed and the target's words.
    ///
    /// - Parameters:
    ///   - seed: The seed.
    ///   - words: Words of the target's format.
    init(seed: UInt64, words: [String]) {
        random = SplitMix64(seed: seed)
        dictionary = (words + Self.jsonWords).map { Array($0.utf8) }
    }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int) -> Int { bound > 0 ? random.next(below: bound) : 0 }

    /// Whether a one-in-`n` chance happened.
    mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// One to `maximum` mutations of `source`.
    ///
    /// - Parameters:
    ///   - source: The bytes to mutate.
    ///   - maximum: The most mutations applied.
    /// - Returns: The mutated bytes.
    mutating func mutate(_ source: [UInt8], maximum: Int = 6) -> [UInt8] {
        var bytes = source
        for _ in 0..<(1 + below(maximum)) {
            mutateOnce(&bytes)
        }
        return bytes
    }

    /// Applies one mutation at a random position.
    mutating func mutateOnce(_ bytes: inout [UInt8]) {
        let position = below(bytes.count + 1)
        switch below(11) {
        case 0 where position < bytes.count:
            bytes.remove(at: position)
        case 1:
            bytes.insert(Self.bytes[below(Self.bytes.count)], at: position)
        case 2, 3:
            bytes.insert(contentsOf: dictionary[below(dictionary.count)], at: position)
        case 4 where oneIn(3):
            bytes.removeSubrange(position...)
        case 5 where position < bytes.count:
            bytes[position] = Self.bytes[below(Self.bytes.count)]
        case 6 where position < bytes.count:
            bytes[position] ^= UInt8(1) << UInt8(below(8))
        case 7 where position < bytes.count:
            // Duplicate a slice: repeated members, repeated entries.
            let end = min(bytes.count, position + 1 + below(64))
            bytes.insert(contentsOf: Array(bytes[position..<end]), at: end)
        case 8 where position < bytes.count:
            let end = min(bytes.count, position + 1 + below(64))
            bytes.removeSubrange(position..<end)
        case 9 where oneIn(20):
            // Deep nesting, past any sane depth limit.
            let depth = 100 + below(2_000)
            let open: UInt8 = oneIn(2) ? UInt8(ascii: "[") : UInt8(ascii: "{")
            bytes.insert(contentsOf: [UInt8](repeating: open, count: depth), at: position)
        case 10 where position < bytes.count:
            // Swap with a slice from elsewhere in the input.
            let other = below(bytes.count)
            let length = min(1 + below(32), bytes.count - max(position, other))
            guard length > 0 else { return }
            let first = Array(bytes[position..<position + length])
            let second = Array(bytes[other..<other + length])
            bytes.replaceSubrange(position..<position + length, with: second)
            bytes.replaceSubrange(other..<other + length, with: first)
        default:
            bytes.insert(Self.bytes[below(Self.bytes.count)], at: position)
        }
    }
}
