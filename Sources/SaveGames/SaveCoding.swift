import Foundation
import GameWorld
import ParleyBasics
import ParleyJSON

/// How values that SQLite has no type for are written in a save: times, durations and trade offers.
enum SaveCoding {
    // MARK: - Times

    /// A time as ISO 8601 text in UTC with milliseconds, for example `2025-03-01T18:04:05.123Z`.
    static func text(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, positiveFraction) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(wholeSeconds)))
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))T"
            + "\(padded(parts.hour, 2)):\(padded(parts.minute, 2)):\(padded(parts.second, 2))."
            + "\(padded(Int(positiveFraction), 3))Z"
    }

    /// Reads a time written by ``text(_:)`` (or any ISO 8601 time), rounded to the millisecond.
    static func date(_ text: String) -> Date? {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else {
            return nil
        }
        return rounded(date)
    }

    /// The time rounded to the millisecond, as a save keeps it.
    static func rounded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    // MARK: - Durations

    /// A duration as seconds with three decimals, for example `754.250`.
    static func text(_ duration: Duration) -> String {
        let milliseconds = max(0, duration.milliseconds(rounded: .toNearestOrAwayFromZero))
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let digits = String(fraction)
        return "\(seconds)." + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// Reads a duration written by ``text(_:)``.
    static func duration(_ text: String) -> Duration? {
        // Found by `parley-bench fuzz`: a huge value must be an error, not a crash converting it. 1e15 seconds is
        // over 30 million years of play.
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds < 1e15 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    // MARK: - JSON

    /// A value as compact JSON with sorted keys: the same bytes for the same value.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A value decoded from JSON text.
    static func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// An inventory as a JSON object from item id to quantity, keys sorted.
    static func jsonValue(_ inventory: Inventory) -> JSONValue {
        .object(JSONObject(inventory.stacks.map { ($0.item.rawValue, .integer($0.quantity)) }))
    }
}
