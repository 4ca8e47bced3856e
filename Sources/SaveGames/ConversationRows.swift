/// The rows of one conversation, read in one transaction.
struct ConversationRows {
    var entries: [(position: Int, json: String)] = []
    var annotations: [String: String] = [:]
    var turnAnnotations: [String: [String: String]] = [:]
}
