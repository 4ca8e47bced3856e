/// Whether an error says clearly what is wrong with an input.
enum DecodingErrors {
    /// `nil` when `error` is a `DecodingError` with a description, as Parley's decoders promise; otherwise what is
    /// wrong with it.
    ///
    /// - Parameters:
    ///   - error: The error a decoder threw.
    ///   - requireDataCorrupted: Whether only `DecodingError.dataCorrupted` is acceptable (Parley's own decoders
    ///     document only that case).
    /// - Returns: The problem, or `nil` for a clear error.
    static func problem(with error: any Error, requireDataCorrupted: Bool) -> String? {
        guard let decoding = error as? DecodingError else {
            return "threw \(type(of: error)), not a DecodingError: \(error)"
        }
        let context: DecodingError.Context
        switch decoding {
        case .dataCorrupted(let found): context = found
        case .keyNotFound(_, let found), .typeMismatch(_, let found), .valueNotFound(_, let found):
            if requireDataCorrupted { return "threw \(decoding), not DecodingError.dataCorrupted" }
            context = found
        @unknown default:
            return "threw an unknown DecodingError: \(decoding)"
        }
        return context.debugDescription.trimmingCharacters(in: .whitespaces).isEmpty
            ? "threw a DecodingError with an empty description" : nil
    }
}
