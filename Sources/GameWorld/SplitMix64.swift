/// A small, fast, seedable random number generator (SplitMix64), the same on every platform and toolchain.
///
/// Swift's `SystemRandomNumberGenerator` cannot be seeded, and the standard library's `random(in:using:)`
/// algorithms may change between releases; deterministic code uses `next()` and `next(below:)` from here.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = random.next(below: 6) + 1
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's state; the same state gives the same numbers.
    public private(set) var state: UInt64

    /// A generator starting from `seed`.
    ///
    /// - Parameter seed: Any 64-bit value.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    ///
    /// - Returns: A value uniformly distributed over all of `UInt64`.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random integer from 0 up to but not including `upperBound`, without bias.
    ///
    /// - Parameter upperBound: At least 1.
    /// - Returns: A value in `0..<upperBound`.
    public mutating func next(below upperBound: Int) -> Int {
        precondition(upperBound > 0, "SplitMix64.next(below:) needs a positive bound")
        let bound = UInt64(upperBound)
        let threshold = (0 &- bound) % bound
        while true {
            let (high, low) = next().multipliedFullWidth(by: bound)
            if low >= threshold { return Int(high) }
        }
    }

    /// A random integer in `range`, without bias.
    ///
    /// - Parameter range: A non-empty range.
    /// - Returns: A value in the range.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// A random element of `elements`.
    ///
    /// - Parameter elements: A non-empty array.
    /// - Returns: One of its elements.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[next(below: elements.count)]
    }

    /// `true` with the given chance.
    ///
    /// - Parameter percent: The chance from 0 to 100.
    /// - Returns: Whether the event happened.
    public mutating func chance(_ percent: Int) -> Bool { next(below: 100) < percent }
}
