// Conditions that can never hold, and the flags a condition needs: for the content checker's warnings about beats
// and rules that can never fire.

extension Condition {
    /// Two parts of the condition that can never hold together, when it is a conjunction (`and`, or a list of
    /// conditions) of such parts; `nil` when no two of its parts contradict each other.
    ///
    /// Parts contradict when one is the other negated (`flag x` and `not flag x`); when they compare one number
    /// (gold, a counter, the attitude, the turns) with bounds no whole number meets (`gold >= 20` and `gold < 10`,
    /// `counter visits = 1` and `counter visits = 2`); when the player must carry at least as many of an item as
    /// they must not (`has 2 rope` and `not has rope`); or when the player must be in two places. Parts joined by
    /// `or` are not looked into: one of them may hold.
    ///
    /// ```swift
    /// try Condition.parse("flag met and gold > 5 and not flag met").get().contradiction
    /// // (flag met, not flag met)
    /// ```
    public var contradiction: (Condition, Condition)? {
        let parts = conjuncts
        for (index, part) in parts.enumerated() {
            for other in parts[(index + 1)...] where Self.contradict(part, other) { return (part, other) }
        }
        return Self.contradictingBounds(in: parts)
    }

    /// The flags that must be set for the condition to hold: those of its `flag` parts joined by `and`, and those
    /// every branch of an `or` needs. (A flag under `not` is needed unset, not set.)
    public var requiredFlags: Set<String> {
        switch self {
        case .flag(let name): [name]
        case .all(let conditions): conditions.reduce(into: Set<String>()) { $0.formUnion($1.requiredFlags) }
        case .any(let conditions):
            conditions.dropFirst().reduce(conditions.first?.requiredFlags ?? []) { $0.intersection($1.requiredFlags) }
        default: []
        }
    }

    /// The parts that must all hold: the condition itself, or the parts of its `and`, flattened; `not not x` is `x`.
    var conjuncts: [Condition] {
        switch self {
        case .all(let conditions): conditions.flatMap(\.conjuncts)
        case .not(.not(let inner)): inner.conjuncts
        default: [self]
        }
    }

    /// Whether two parts exclude each other on their own (a part and its negation, two places, carrying and not).
    private static func contradict(_ first: Condition, _ second: Condition) -> Bool {
        switch (first, second) {
        case (.not(let negated), let other), (let other, .not(let negated)):
            if negated == other { return true }
            // Must carry n, must not carry m (fewer than m) with m <= n.
            if case .has(let item, let quantity) = other, case .has(item, let excluded) = negated {
                return excluded <= quantity
            }
            return false
        case (.location(let here), .location(let there)): return here != there
        default: return false
        }
    }

    /// A number several parts compare, when no whole number meets all their comparisons.
    private static func contradictingBounds(in parts: [Condition]) -> (Condition, Condition)? {
        var byQuantity: [String: [(part: Condition, comparison: Comparison, value: Int)]] = [:]
        for part in parts {
            switch part {
            case .gold(let comparison, let amount): byQuantity["gold", default: []].append((part, comparison, amount))
            case .counter(let name, let comparison, let value):
                byQuantity["counter " + name, default: []].append((part, comparison, value))
            case .attitude(let comparison, let value):
                byQuantity["attitude", default: []].append((part, comparison, value))
            case .turns(let comparison, let count): byQuantity["turns", default: []].append((part, comparison, count))
            default: continue
            }
        }
        for quantity in byQuantity.keys.sorted() {
            let comparisons = byQuantity[quantity] ?? []
            for (index, first) in comparisons.enumerated() {
                for second in comparisons[(index + 1)...] where !satisfiable([first, second].map { ($0.1, $0.2) }) {
                    return (first.part, second.part)
                }
            }
        }
        return nil
    }

    /// Whether some whole number meets every comparison.
    private static func satisfiable(_ comparisons: [(Comparison, Int)]) -> Bool {
        var lowest = Int.min
        var highest = Int.max
        var excluded: Set<Int> = []
        for (comparison, value) in comparisons {
            switch comparison {
            case .lessThan: highest = min(highest, value == Int.min ? Int.min : value - 1)
            case .atMost: highest = min(highest, value)
            case .equal:
                lowest = max(lowest, value)
                highest = min(highest, value)
            case .notEqual: excluded.insert(value)
            case .atLeast: lowest = max(lowest, value)
            case .greaterThan: lowest = max(lowest, value == Int.max ? Int.max : value + 1)
            }
        }
        guard lowest <= highest else { return false }
        // A range of one number that is excluded leaves none; a wider one always leaves some.
        return lowest != highest || !excluded.contains(lowest)
    }
}
