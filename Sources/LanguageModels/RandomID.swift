/// Identifiers from the system's random source, which stops the program rather than hand out a guessable or repeated
/// value.
///
/// Foundation's `UUID()` on Linux reads its randomness from a file, and when the process has no file descriptor left
/// to open it with, it returns all zeros: every id made then is the same, and the last thing saved under it replaces
/// the others. `SystemRandomNumberGenerator` asks the kernel (`getrandom`), needs no descriptor, and traps if the
/// kernel cannot answer. Every id Parley makes for transcript entries, recordings, feedback reports, tool calls and
/// games comes from here.
///
/// ```swift
/// RandomID.uuidString()      // "3F2504E0-4F89-41D3-9A0C-0305E82C3301": a version 4 UUID
/// RandomID.hexDigits(16)     // "9c0d4e1ab2f37765"
/// ```
public enum RandomID {
    /// A random version 4 UUID in its usual upper-case form, as Foundation's `UUID().uuidString` writes one:
    /// `XXXXXXXX-XXXX-4XXX-YXXX-XXXXXXXXXXXX` with `Y` one of 8, 9, A, B.
    ///
    /// - Returns: The 36-character string.
    public static func uuidString() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // the variant of RFC 9562
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Random lower-case hexadecimal digits: `hexDigits(16)` is 64 random bits, written with leading zeros.
    ///
    /// - Parameter count: How many digits; at least 1.
    /// - Returns: The digits.
    public static func hexDigits(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(max(count, 0))
        var bits: UInt64 = 0
        for index in 0..<max(count, 0) {
            if index % 16 == 0 { bits = generator.next() }
            text.append(digits[Int(bits & 0x0F)])
            bits >>= 4
        }
        return String(decoding: text, as: UTF8.self)
    }
}
