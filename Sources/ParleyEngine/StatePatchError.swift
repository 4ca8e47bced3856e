/// Why a ``StatePatch`` was refused: every problem found, each at its JSON path in the patch, so a game can fix all
/// of them at once. A refused patch changes nothing.
///
/// ```
/// $.npcs.mria: unknown NPC "mria" (did you mean "mira"?)
/// $.player.gold: gold must be from 0 to 1000000000, not -5
/// ```
public struct StatePatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One problem: where it is and what is wrong.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The JSON path of the value in the patch, for example `$.player.inventory.bread`.
        public var path: String
        /// What is wrong with it, and what would be right.
        public var message: String

        /// Creates a problem.
        ///
        /// - Parameters:
        ///   - path: The JSON path.
        ///   - message: What is wrong.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// Every problem, in the order found.
    public var problems: [Problem]

    /// Creates an error.
    ///
    /// - Parameter problems: The problems.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// The problems, one per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
