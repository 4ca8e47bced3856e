import ParleyJSON

extension Transcript {
    /// An entry of a kind this version of Parley does not know, read from a transcript a newer framework wrote (a
    /// role other than `instructions`, `user`, `response`, `tool` and `reasoning`).
    ///
    /// Nothing is lost: the entry's JSON object is kept as it was read, and written back in its place, so a
    /// transcript read and written again by Parley still holds it. Models do not see it; `TranscriptFormatter` and
    /// `description` show its role.
    public struct UnknownEntry: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The entry's identifier (its `id`, or empty when it has none).
        public var id: String
        /// The entry's `role`.
        public var role: String
        /// The entry's JSON object, as it was read.
        public var json: JSONObject

        /// Keeps an entry read from JSON.
        ///
        /// - Parameters:
        ///   - role: Its role.
        ///   - json: Its JSON object.
        public init(role: String, json: JSONObject) {
            self.id = json["id"]?.stringValue ?? ""
            self.role = role
            self.json = json
        }

        /// `Unknown entry (role "memory")`.
        public var description: String { "Unknown entry (role \"\(role)\")" }
    }

    /// A segment of a kind this version of Parley does not know (Apple 27's `attachment` of an image or data, say).
    ///
    /// Its JSON object is kept as it was read and written back in its place. Models see no text in it.
    public struct UnknownSegment: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The segment's identifier (its `id`, or empty when it has none).
        public var id: String
        /// The segment's `type`.
        public var type: String
        /// The segment's JSON object, as it was read.
        public var json: JSONObject

        /// Keeps a segment read from JSON.
        ///
        /// - Parameters:
        ///   - type: Its type.
        ///   - json: Its JSON object.
        public init(type: String, json: JSONObject) {
            self.id = json["id"]?.stringValue ?? ""
            self.type = type
            self.json = json
        }

        /// `[attachment]`.
        public var description: String { "[\(type)]" }
    }
}
