/// An error from ``Migrator``.
///
/// Recognise the kind by ``code``:
///
/// ```swift
/// do {
///     try migrator.migrate(queue)
/// } catch let error as MigrationError where error.code == .newerSchema {
///     // The save comes from a newer version of the game: error.migrationIDs are the unknown ids.
/// }
/// ```
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// The kind of migration error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case newerSchema, migrationFailed, duplicateMigrationID
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The database has applied migrations that this code does not know: it was written by a newer
        /// version. ``MigrationError/migrationIDs`` lists the unknown ids. Nothing was migrated.
        public static let newerSchema = Code(.newerSchema)

        /// A migration threw, and its transaction was rolled back. ``MigrationError/migrationIDs`` holds its
        /// id and ``MigrationError/underlyingError`` what it threw. Migrations before it stay applied.
        public static let migrationFailed = Code(.migrationFailed)

        /// Two migrations were registered with the same id. ``MigrationError/migrationIDs`` holds the id.
        /// Nothing was migrated.
        public static let duplicateMigrationID = Code(.duplicateMigrationID)

        /// Matches any error that is a ``MigrationError`` with this code, so that
        /// `catch MigrationError.Code.newerSchema` works.
        ///
        /// - Parameters:
        ///   - pattern: The code to look for.
        ///   - error: The error being matched.
        /// - Returns: `true` when `error` is a ``MigrationError`` whose ``MigrationError/code`` is `pattern`.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? MigrationError)?.code == pattern
        }

        /// The code's name, such as `newerSchema`.
        public var description: String { kind.rawValue }
    }

    /// The kind of error.
    public let code: Code

    /// The migration ids concerned: the unknown ones for ``Code/newerSchema``, the failed one for
    /// ``Code/migrationFailed``, the repeated one for ``Code/duplicateMigrationID``.
    public let migrationIDs: [String]

    /// What the failed migration threw, for ``Code/migrationFailed``; otherwise `nil`.
    public let underlyingError: (any Error)?

    private init(code: Code, migrationIDs: [String], underlyingError: (any Error)? = nil) {
        self.code = code
        self.migrationIDs = migrationIDs
        self.underlyingError = underlyingError
    }

    /// The database has applied migrations that this code does not know.
    ///
    /// - Parameter unknownIDs: The ids recorded in the database but not registered.
    /// - Returns: An error with code ``Code/newerSchema``.
    public static func newerSchema(unknownIDs: [String]) -> MigrationError {
        MigrationError(code: .newerSchema, migrationIDs: unknownIDs)
    }

    /// A migration threw and was rolled back.
    ///
    /// - Parameters:
    ///   - id: The migration's id.
    ///   - underlyingError: What it threw.
    /// - Returns: An error with code ``Code/migrationFailed``.
    public static func migrationFailed(id: String, underlyingError: any Error) -> MigrationError {
        MigrationError(code: .migrationFailed, migrationIDs: [id], underlyingError: underlyingError)
    }

    /// Two migrations share an id.
    ///
    /// - Parameter id: The repeated id.
    /// - Returns: An error with code ``Code/duplicateMigrationID``.
    public static func duplicateMigrationID(_ id: String) -> MigrationError {
        MigrationError(code: .duplicateMigrationID, migrationIDs: [id])
    }

    /// What happened and what to do about it.
    public var description: String {
        let ids = migrationIDs.map { "\"\($0)\"" }.joined(separator: ", ")
        switch code {
        case .newerSchema:
            return "The database was written by a newer version: it has applied migration(s) \(ids), which this "
                + "version does not know. Nothing was changed. Open it with the newer version, or use an older "
                + "copy of the file; do not write to it with this version."
        case .migrationFailed:
            let cause = underlyingError.map { String(describing: $0) } ?? "unknown"
            return "Migration \(ids) failed and was rolled back: the database is as it was before it (earlier "
                + "migrations stay applied). Cause: \(cause). Fix the migration or the data, then migrate again."
        default:
            return "Migration id \(ids) is registered more than once. Nothing was changed. Give each migration "
                + "its own id; ids must never change once shipped."
        }
    }
}
