/// Why a content file or folder could not be read: it is missing, it is something other than a plain file or
/// folder (a FIFO, a device, a socket, a symbolic link loop), or the system refused to open it.
///
/// `problem` says what it is, in words for the `file: $: problem (hint)` line of a diagnostic, and `hint` what to
/// do; compare `code` with the static members of `Code` to tell kinds apart.
///
/// ```swift
/// do {
///     let bytes = try ContentFile.read(at: url)
/// } catch {
///     print("\(error.path): \(error.problem) (\(error.hint))")   // Content/world.json: is a FIFO (named pipe), not a file (...)
/// }
/// ```
public struct ContentFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added; compare with the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Nothing is at the path.
        public static let notFound = Code("notFound")
        /// Something other than what was expected is at the path: a folder, a FIFO, a device or a socket where a
        /// file is expected, or any of those but a folder where a folder is expected.
        public static let wrongKind = Code("wrongKind")
        /// The path is a symbolic link that leads back to itself, directly or through other links.
        public static let symbolicLinkLoop = Code("symbolicLinkLoop")
        /// The path is a symbolic link to something that does not exist.
        public static let danglingSymbolicLink = Code("danglingSymbolicLink")
        /// The system refused access: the file or folder, or a folder above it, lacks the permission.
        public static let permissionDenied = Code("permissionDenied")
        /// The file is larger than a content file may be (`ContentFile.maximumSize`); it was not read.
        public static let tooLarge = Code("tooLarge")
        /// Reading failed for another reason (an I/O error, too many open files); `problem` has the system's words.
        public static let readFailed = Code("readFailed")

        /// The code's name, for example `wrongKind`.
        public var description: String { name }
    }

    /// The kind of problem.
    public let code: Code
    /// The path as it was given.
    public let path: String
    /// What is wrong, starting with a verb, for example `is a FIFO (named pipe), not a file`.
    public let problem: String
    /// What to do about it, for example `a content pack holds plain files: replace it with a JSON file`.
    public let hint: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - path: The path as it was given.
    ///   - problem: What is wrong, starting with a verb.
    ///   - hint: What to do about it.
    public init(_ code: Code, path: String, problem: String, hint: String) {
        self.code = code
        self.path = path
        self.problem = problem
        self.hint = hint
    }

    /// `path: problem (hint)`.
    public var description: String { "\(path): \(problem) (\(hint))" }
}
