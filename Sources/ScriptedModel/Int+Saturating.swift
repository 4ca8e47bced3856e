extension Int {
    /// The product, or `Int.max` (or `Int.min`) when it does not fit: prices times quantities the player names
    /// ("a billion billion lanterns") or that a restored transcript holds, which the trade guard then refuses as
    /// absurd instead of the program trapping.
    func saturatingTimes(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}
