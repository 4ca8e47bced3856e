import Foundation

/// The saves folder a command was told to read does not exist, or is not a folder.
///
/// The commands that look inside saves (`saves`, `transcript`, `feedback`, `recordings`, `replay` of a slot)
/// never create the folder, so a mistyped `--saves` would otherwise read as "no saves" when the saves are
/// elsewhere. The message names the folder and says how to name the right one.
struct SavesFolderError: Error, CustomStringConvertible {
    private enum Code {
        case missing
        case notAFolder
    }

    private let code: Code
    /// The folder as it was given (or the default), as the user would type it.
    let path: String

    /// No file or folder at `path`.
    static func missing(_ path: String) -> SavesFolderError { SavesFolderError(code: .missing, path: path) }

    /// A file, not a folder, at `path`.
    static func notAFolder(_ path: String) -> SavesFolderError { SavesFolderError(code: .notAFolder, path: path) }

    /// What happened and what to do.
    var description: String {
        let what =
            switch code {
            case .missing: "the saves folder \(path) does not exist"
            case .notAFolder: "\(path) is a file, not a saves folder"
            }
        return what
            + ". Name the folder that holds the saves with --saves DIR (or PARLEY_SAVES=DIR): the game keeps them"
            + " in SaveGames in the folder it was started from, or where 'parley play --saves DIR' said."
    }

    /// Checks that `path` is an existing folder.
    ///
    /// - Parameter path: The saves folder.
    /// - Throws: `SavesFolderError` when it does not exist or is not a folder.
    static func check(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw missing(path) }
        guard isFolder.boolValue else { throw notAFolder(path) }
    }
}
