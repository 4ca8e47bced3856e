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

/// Floating-point values from outside, as integers: the value rounded toward zero where it fits, the bound beyond.
@Suite struct SaturatingConversionTests {
    @Test(arguments: [
        (12.9, 12), (-12.9, -12), (0, 0), (-0.0, 0), (Double(Int.max), Int.max), (Double(Int.min), Int.min),
        (9.2e18, 9_200_000_000_000_000_000), (1e300, Int.max), (-1e300, Int.min), (.infinity, Int.max),
        (-.infinity, Int.min), (.nan, 0), (.greatestFiniteMagnitude, Int.max), (.leastNonzeroMagnitude, 0),
    ])
    func aDoubleBecomesAnIntWithoutTrapping(_ value: Double, _ expected: Int) {
        #expect(Int(saturating: value) == expected)
    }

    @Test func otherWidthsSaturateAtTheirOwnBounds() {
        #expect(Int32(saturating: 1e10) == .max)
        #expect(UInt8(saturating: -3.0) == 0)
        #expect(UInt8(saturating: 255.9) == 255)
        #expect(Int64(saturating: Float.infinity) == .max)
    }
}
