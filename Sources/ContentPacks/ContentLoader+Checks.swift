import GameWorld
import ParleyBasics

// MARK: - Checks of the pack as a whole

extension ContentLoader {
    /// Checks the pack as a whole.
    ///
    /// - Parameter lexicon: The pack's lexicon.
    mutating func checkPack(lexicon: Lexicon) {
        select(ContentPack.worldFileName, rank: 0)
        checkBeatsThatCannotFire()
        checkReachability()
        checkGoal()
        select(ContentPack.itemsFileName, rank: 1)
        checkItemWords(lexicon: lexicon)
        checkStock()
        checkStoryNames()
    }

    /// Warns about flags tested (or awaited by a `flagSet` beat) that no effect sets, and counters tested that no
    /// effect changes: such a condition never changes.
    mutating func checkStoryNames() {
        for use in flagTests where !flagsSet.contains(use.name) {
            file = use.file
            fileRank = use.rank
            let hint =
                Suggestions.didYouMean(use.name, in: flagsSet.sorted())
                ?? "set it with an effect such as {\"set\": \"\(use.name)\"}"
            let subject = use.text == "flagSet" ? "this beat waits for" : "\(Self.quoted(use.text)) tests"
            warning(use.path, "\(subject) the flag \"\(use.name)\", which nothing sets", hint: hint)
        }
        for use in counterTests where !countersChanged.contains(use.name) {
            file = use.file
            fileRank = use.rank
            let hint =
                Suggestions.didYouMean(use.name, in: countersChanged.sorted())
                ?? "count with an effect such as {\"counter\": \"\(use.name)\", \"add\": 1}"
            warning(
                use.path, "\(Self.quoted(use.text)) tests the counter \"\(use.name)\", which nothing changes",
                hint: hint)
        }
    }

    /// Warns when an NPC sells a category it has no items of (that it may sell).
    mutating func checkStock() {
        for check in stockChecks {
            let stocked = check.inventory.stacks.contains { stack in
                guard let item = itemsByID[stack.item] else { return false }
                return item.category == check.category && item.isTradeable && !check.neverSells.contains(item.id)
            }
            guard !stocked else { continue }
            file = check.file
            fileRank = check.rank
            warning(
                check.path, "sells \"\(check.category)\" but has no \(check.category) items it can sell",
                hint: "add some to its inventory, or remove \"\(check.category)\" from sells")
        }
    }

    /// Warns about locations the player can never reach from the start, and dead ends.
    mutating func checkReachability() {
        guard locations.count > 1 else { return }
        let byID = Dictionary(locations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let start = startingPlayer?.location, byID[start] != nil {
            var reached: Set<LocationID> = [start]
            var queue = [start]
            while let next = queue.popLast() {
                for exit in byID[next]?.exits ?? [] where reached.insert(exit.destination).inserted {
                    queue.append(exit.destination)
                }
            }
            for location in locations where !reached.contains(location.id) {
                warning(
                    locationPaths[location.id] ?? .root, "\"\(location.id)\" cannot be reached from the start",
                    hint: "add an exit that leads to it")
            }
        }
        for location in locations where location.exits.isEmpty {
            warning(
                locationPaths[location.id] ?? .root,
                "\"\(location.id)\" has no exits: a player who comes here cannot leave",
                hint: "add an exit back")
        }
    }

    /// Warns when the goal asks for more of an item than the whole pack holds.
    mutating func checkGoal() {
        guard let goal, let startingPlayer else { return }
        var totals = startingPlayer.inventory.quantities
        for location in locations { totals.merge(location.items.quantities, uniquingKeysWith: +) }
        for npc in npcs { totals.merge(npc.inventory.quantities, uniquingKeysWith: +) }
        for (index, requirement) in goal.requirements.enumerated() {
            let needed: (ItemID, Int)?
            switch requirement {
            case .npcHasItem(_, let item, let quantity), .playerHasItem(let item, let quantity):
                needed = (item, quantity)
            default: needed = nil
            }
            guard let (item, quantity) = needed, (totals[item] ?? 0) < quantity else { continue }
            warning(
                goalPath.key("requirements").index(index),
                "the goal cannot be reached: it needs \(quantity) × \(item) and the pack has \(totals[item] ?? 0)",
                hint: "put the item in a location or an inventory")
        }
    }
}
