/// Why an event could not be applied to a game state. The state is unchanged.
///
/// `code` says what kind of problem it is (compare with the static members of `Code`), `message` says it in a
/// sentence, and for a trade `tradeRejections` lists every reason `TradeRules` gave.
public struct GameEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added; compare with the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The event names a location the world does not have.
        public static let unknownLocation = Code("unknownLocation")
        /// The event names an item the catalog does not have.
        public static let unknownItem = Code("unknownItem")
        /// The event names an NPC the world does not have.
        public static let unknownNPC = Code("unknownNPC")
        /// The event says the player (or an NPC) is somewhere they are not.
        public static let wrongLocation = Code("wrongLocation")
        /// There is no exit from the player's location to the destination.
        public static let noExit = Code("noExit")
        /// The exit needs an item the player does not carry.
        public static let exitBlocked = Code("exitBlocked")
        /// The location does not have that many of the item lying there.
        public static let itemNotHere = Code("itemNotHere")
        /// The player does not carry that many of the item.
        public static let playerLacksItem = Code("playerLacksItem")
        /// The NPC does not carry that many of the item.
        public static let npcLacksItem = Code("npcLacksItem")
        /// The NPC is not at the player's location.
        public static let npcNotPresent = Code("npcNotPresent")
        /// The player does not have that much gold.
        public static let playerLacksGold = Code("playerLacksGold")
        /// The NPC does not have that much gold.
        public static let npcLacksGold = Code("npcLacksGold")
        /// A quantity or amount is zero, negative or above the limit.
        public static let invalidQuantity = Code("invalidQuantity")
        /// A purse or an inventory would go above its maximum (`GameLimits`), or a count would not fit in an
        /// `Int`; nothing was added.
        public static let limitExceeded = Code("limitExceeded")
        /// `TradeRules` rejected the trade; see `tradeRejections`.
        public static let tradeRejected = Code("tradeRejected")
        /// A flag or counter name is not a well-formed id.
        public static let invalidName = Code("invalidName")
        /// The event names a quest the world does not have.
        public static let unknownQuest = Code("unknownQuest")
        /// The event names a stage the quest does not have.
        public static let unknownStage = Code("unknownStage")
        /// The quest is already at that stage or past it: quests only move forward.
        public static let questCannotGoBack = Code("questCannotGoBack")
        /// The event names a beat the NPC does not have.
        public static let unknownBeat = Code("unknownBeat")

        /// The code's name, for example `exitBlocked`.
        public var description: String { name }
    }

    /// The kind of problem.
    public let code: Code
    /// The event that could not be applied.
    public let event: GameEvent
    /// What went wrong, in a sentence.
    public let message: String
    /// Every reason a trade was rejected; empty for other events.
    public let tradeRejections: [TradeRejection]
    /// The event's position when replaying a list of events, from 0; `nil` for a single event.
    public internal(set) var eventIndex: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - event: The event that could not be applied.
    ///   - message: What went wrong, in a sentence.
    ///   - tradeRejections: Every reason a trade was rejected.
    public init(_ code: Code, event: GameEvent, message: String, tradeRejections: [TradeRejection] = []) {
        self.code = code
        self.event = event
        self.message = message
        self.tradeRejections = tradeRejections
        self.eventIndex = nil
    }

    /// `cannot apply "moved from a to b": there is no exit from a to b`, with the event's index when replaying.
    public var description: String {
        let position = eventIndex.map { "event \($0): " } ?? ""
        return "\(position)cannot apply \"\(event)\": \(message)"
    }
}
