/// What a condition names that a world lacks.
extension Condition {
    /// A name in a condition that the world does not define.
    public struct UnknownReference: Hashable, Sendable {
        /// What kind of name: `item`, `location`, `quest`, or `stage of <quest>`.
        public var kind: String
        /// The name as written.
        public var name: String
        /// The names of that kind the world has, for a did-you-mean.
        public var known: [String]
    }

    /// The items, places, quests and quest stages the condition names that the world does not have, in the order
    /// the condition names them.
    ///
    /// - Parameter world: The world the condition is checked in.
    /// - Returns: The unknown names; empty when the condition fits the world.
    public func unknownReferences(in world: World) -> [UnknownReference] {
        terms.compactMap { term -> UnknownReference? in
            switch term {
            case .has(let item, _) where world.items[item] == nil:
                UnknownReference(kind: "item", name: item.rawValue, known: world.items.keys.map(\.rawValue).sorted())
            case .location(let location) where world.locations[location] == nil:
                UnknownReference(
                    kind: "location", name: location.rawValue, known: world.locations.keys.map(\.rawValue).sorted())
            case .quest(let quest, _, let stage):
                if let known = world.quests[quest] {
                    known.stages.contains(stage)
                        ? nil : UnknownReference(kind: "stage of \(quest)", name: stage, known: known.stages)
                } else {
                    UnknownReference(
                        kind: "quest", name: quest.rawValue, known: world.quests.keys.map(\.rawValue).sorted())
                }
            default: nil
            }
        }
    }
}
