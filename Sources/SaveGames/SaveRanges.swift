import GameWorld

/// The ranges a save's numbers must lie in: the content checker's, so that a loaded game holds nothing a content
/// pack could not (gold or a quantity at `Int.max` would make the next trade's arithmetic overflow).
///
/// A value outside them can only come from a save changed outside Parley; the load is refused as damaged, and the
/// message names the row and the value.
enum SaveRanges {
    /// Gold the player or an NPC may hold.
    static let gold = 0...GameLimits.maximumGold
    /// The gold on each side of a pending offer.
    static let price = 0...GameLimits.maximumPrice
    /// The quantity of one item in an inventory, at a location, or on one side of a pending offer.
    static let quantity = 1...GameLimits.maximumQuantity
    /// How many times a beat may have fired.
    static let beatCount = 1...StoryState.counterRange.upperBound

    /// Checks every number a save's rows hold.
    ///
    /// - Parameters:
    ///   - rows: What the save holds.
    ///   - path: The save file, for the error.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/corrupt`` naming the first value out of range.
    static func check(_ rows: SavedRows, path: String) throws {
        func require(_ value: Int, in range: ClosedRange<Int>, _ what: @autoclosure () -> String) throws {
            guard range.contains(value) else {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail: "\(what()) is \(value), outside \(range.lowerBound)…\(range.upperBound)")
            }
        }
        try require(rows.player.gold, in: gold, "the player's gold")
        for stack in rows.playerItems {
            try require(stack.quantity, in: quantity, "the quantity of \(stack.item) the player carries")
        }
        for npc in rows.npcs {
            try require(npc.gold, in: gold, "the gold of \(npc.id)")
        }
        for (npc, stacks) in rows.npcItems {
            for stack in stacks {
                try require(stack.quantity, in: quantity, "the quantity of \(stack.item) \(npc) carries")
            }
        }
        for (location, stacks) in rows.locationItems {
            for stack in stacks {
                try require(stack.quantity, in: quantity, "the quantity of \(stack.item) lying at \(location)")
            }
        }
        for row in rows.story.counters {
            try require(row.value, in: StoryState.counterRange, "the counter \(row.name)")
        }
        for row in rows.story.attitudes {
            try require(row.value, in: StoryState.attitudeRange, "the attitude of \(row.npc)")
        }
        for row in rows.story.beats {
            try require(row.count, in: beatCount, "the count of the beat \(row.beat) of \(row.npc)")
        }
        var expected: [String: Int] = [:]
        for row in rows.story.dealings {
            let what = "dealing \(row.position) with \(row.npc)"
            guard ConversationFacts.Dealing.Kind(rawValue: row.kind) != nil else {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail: "the \(what) is of the kind \"\(row.kind)\", not bought, sold, gave or received")
            }
            guard row.position == expected[row.npc, default: 0] else {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail: "the dealings with \(row.npc) have no dealing at position "
                        + "\(expected[row.npc, default: 0])")
            }
            expected[row.npc, default: 0] += 1
            try require(row.quantity, in: quantity, "the quantity of the \(what)")
            try require(row.gold, in: price, "the gold of the \(what)")
        }
    }

    /// Checks the numbers of a pending offer.
    ///
    /// - Parameters:
    ///   - offer: The offer as decoded.
    ///   - npc: The NPC who made it, for the error.
    ///   - path: The save file, for the error.
    /// - Throws: ``SaveGameError`` with code ``SaveGameError/Code/corrupt`` naming the value out of range.
    static func check(_ offer: TradeOffer, npc: String, path: String) throws {
        for (side, name) in [(offer.playerGives, "the player"), (offer.npcGives, npc)] {
            guard price.contains(side.gold) else {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail:
                        "the pending offer of \(npc) has \(name) give \(side.gold) gold, outside 0…\(price.upperBound)")
            }
            for stack in side.items where !quantity.contains(stack.quantity) {
                throw SaveGameError(
                    .corrupt, path: path,
                    detail: "the pending offer of \(npc) has \(name) give \(stack.quantity) × \(stack.item), outside "
                        + "1…\(quantity.upperBound)")
            }
        }
    }
}
