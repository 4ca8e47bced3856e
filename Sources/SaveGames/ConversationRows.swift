/// The rows of one conversation, read in one transaction.
struct ConversationRows {
    /// The number of entries the conversation's row says it has.
    var count = 0
    var entries: [(position: Int, json: String)] = []
    var annotations: [String: String] = [:]
    var turnAnnotations: [String: [String: String]] = [:]
}
