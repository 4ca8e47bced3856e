/// One input a fuzzer found that was handled badly: an error that says nothing useful, a result that breaks an
/// invariant, or a file changed by a read-only open. A crash is not a finding: it ends the process, and the seed
/// and iteration printed before it reproduce it.
public struct FuzzFinding: Sendable, Hashable, CustomStringConvertible {
    /// The iteration that produced the input; with the seed it reproduces the input.
    public var iteration: Int
    /// What was wrong, in words.
    public var problem: String
    /// The start of the input, for the report.
    public var excerpt: String

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - iteration: The iteration that produced the input.
    ///   - problem: What was wrong.
    ///   - excerpt: The start of the input.
    public init(iteration: Int, problem: String, excerpt: String) {
        self.iteration = iteration
        self.problem = problem
        self.excerpt = excerpt
    }

    /// `iteration 12: <problem> (input: <excerpt>)`.
    public var description: String { "iteration \(iteration): \(problem) (input: \(excerpt))" }

    /// The first characters of `bytes` as text, with control characters escaped.
    ///
    /// - Parameters:
    ///   - bytes: The input.
    ///   - limit: The most characters kept.
    /// - Returns: A short, printable excerpt.
    static func excerpt(_ bytes: some Collection<UInt8>, limit: Int = 120) -> String {
        let text = String(decoding: bytes.prefix(limit * 2), as: UTF8.self)
        var result = ""
        for scalar in text.unicodeScalars {
            guard result.count < limit else { break }
            result +=
                scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : "\(scalar)"
        }
        return bytes.count > limit ? result + "…" : result
    }
}
