/// How an NPC trades: whether at all, what it buys and sells, and at what prices.
///
/// ## Prices
/// All prices are whole gold, computed from an item's base `value` with exact integer arithmetic
/// (ratios are kept in hundredths, see `PriceRatio`):
/// - **Asking price** (the NPC sells one unit): `value × sellMarkup`, rounded **up**.
/// - **Lowest price** it accepts when selling one unit: `value × minimumPriceRatio`, rounded **up**. The player
///   may haggle anywhere between the lowest and the asking price.
/// - **Buy-back price** (the NPC buys one unit): `value × buyBackRate`, rounded **down**. The NPC never pays
///   more than this.
///
/// Example: a Silver Sword of value 40 at a smith with `sellMarkup` 1.5, `minimumPriceRatio` 1.2 and
/// `buyBackRate` 0.5 is offered at 60 gold, sold for no less than 48, and bought back for at most 20.
///
/// How a whole offer is judged is described on `TradeRules`.
public struct TradePolicy: Hashable, Sendable, Codable {
    /// Whether the NPC trades at all. A guard on duty does not.
    public var trades: Bool
    /// The item categories the NPC sells (`weapon`, `tool`).
    public var sells: Set<String>
    /// The item categories the NPC buys.
    public var buys: Set<String>
    /// The asking price's multiplier on value, at least 1 (`1.5` asks 150% of value).
    public var sellMarkup: PriceRatio
    /// What the NPC pays for an item, relative to its value, from 0 to 1 (`0.5` pays half).
    public var buyBackRate: PriceRatio
    /// The lowest price the NPC accepts when selling, relative to value; at most `sellMarkup`.
    public var minimumPriceRatio: PriceRatio
    /// Items the NPC never parts with in a trade, whatever their category or price.
    public var neverSells: Set<ItemID>

    /// Creates a trade policy.
    ///
    /// - Parameters:
    ///   - trades: Whether the NPC trades at all.
    ///   - sells: Categories it sells.
    ///   - buys: Categories it buys.
    ///   - sellMarkup: Asking price relative to value (default 1.25).
    ///   - buyBackRate: Buy-back price relative to value (default 0.5).
    ///   - minimumPriceRatio: Lowest selling price relative to value (default 1).
    ///   - neverSells: Items it never parts with.
    public init(
        trades: Bool = true, sells: Set<String> = [], buys: Set<String> = [],
        sellMarkup: PriceRatio = PriceRatio(hundredths: 125), buyBackRate: PriceRatio = PriceRatio(hundredths: 50),
        minimumPriceRatio: PriceRatio = .one, neverSells: Set<ItemID> = []
    ) {
        self.trades = trades
        self.sells = sells
        self.buys = buys
        self.sellMarkup = sellMarkup
        self.buyBackRate = buyBackRate
        self.minimumPriceRatio = minimumPriceRatio
        self.neverSells = neverSells
    }

    /// The policy of an NPC that does not trade.
    public static let doesNotTrade = TradePolicy(trades: false)

    /// The asking price for one unit of an item of this value: `value × sellMarkup`, rounded up.
    ///
    /// - Parameter value: The item's base value in gold.
    /// - Returns: The price in gold.
    public func askingPrice(forValue value: Int) -> Int { sellMarkup.appliedRoundingUp(to: value) }

    /// The lowest price accepted for one unit of an item of this value: `value × minimumPriceRatio`, rounded up.
    ///
    /// - Parameter value: The item's base value in gold.
    /// - Returns: The price in gold.
    public func lowestPrice(forValue value: Int) -> Int { minimumPriceRatio.appliedRoundingUp(to: value) }

    /// What the NPC pays for one unit of an item of this value: `value × buyBackRate`, rounded down.
    ///
    /// - Parameter value: The item's base value in gold.
    /// - Returns: The price in gold.
    public func buyBackPrice(forValue value: Int) -> Int { buyBackRate.appliedRoundingDown(to: value) }
}
