/// How a condition compares a number or a quest stage: `<`, `<=`, `=`, `!=`, `>=`, `>`.
///
/// In conditions, `=` may also be written `==`. Quest stages compare by their order in the quest.
public enum Comparison: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `<`: less than.
    case lessThan = "<"
    /// `<=`: at most.
    case atMost = "<="
    /// `=`: equal.
    case equal = "="
    /// `!=`: not equal.
    case notEqual = "!="
    /// `>=`: at least.
    case atLeast = ">="
    /// `>`: more than.
    case greaterThan = ">"

    /// The operator as written in conditions.
    public var description: String { rawValue }

    /// Whether `lhs` compares to `rhs` this way.
    ///
    /// - Parameters:
    ///   - lhs: The value in the game, for example the player's gold.
    ///   - rhs: The value in the condition.
    /// - Returns: For `.atLeast`, `lhs >= rhs`.
    public func holds(_ lhs: Int, _ rhs: Int) -> Bool {
        switch self {
        case .lessThan: lhs < rhs
        case .atMost: lhs <= rhs
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .atLeast: lhs >= rhs
        case .greaterThan: lhs > rhs
        }
    }
}
