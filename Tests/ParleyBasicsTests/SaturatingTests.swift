import ParleyBasics
import Testing

/// Saturating arithmetic: the exact result where it fits, the bound it passes where it does not.
@Suite struct SaturatingTests {
    @Test(arguments: [
        (2, 3, 5), (-2, -3, -5), (Int.max, 0, Int.max), (Int.max, 1, Int.max), (Int.max, Int.max, Int.max),
        (Int.min, -1, Int.min), (Int.min, Int.min, Int.min), (Int.max, Int.min, -1), (Int.max - 1, 1, Int.max),
        (Int.min + 1, -1, Int.min),
    ])
    func addingSaturatesAtTheBounds(_ a: Int, _ b: Int, _ expected: Int) {
        #expect(a.saturatingAdding(b) == expected)
        #expect(b.saturatingAdding(a) == expected)
    }

    @Test(arguments: [
        (6, 7, 42), (-6, 7, -42), (-6, -7, 42), (0, Int.max, 0), (Int.max, 2, Int.max), (Int.max, -2, Int.min),
        (Int.min, -1, Int.max), (Int.min, 2, Int.min), (-1, Int.min, Int.max), (1 << 32, 1 << 32, Int.max),
        (-(1 << 32), 1 << 32, Int.min),
    ])
    func multiplyingSaturatesAtTheBounds(_ a: Int, _ b: Int, _ expected: Int) {
        #expect(a.saturatingMultiplied(by: b) == expected)
        #expect(b.saturatingMultiplied(by: a) == expected)
    }

    @Test func otherWidthsSaturateAtTheirOwnBounds() {
        #expect(Int64.max.saturatingAdding(1) == .max)
        #expect(Int32.min.saturatingMultiplied(by: 2) == .min)
        #expect(UInt8(200).saturatingAdding(100) == .max)
        #expect(UInt8(20).saturatingMultiplied(by: 20) == .max)
        #expect(UInt8(20).saturatingAdding(20) == 40)
    }
}
