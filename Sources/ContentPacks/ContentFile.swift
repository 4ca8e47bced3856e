import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the files and folders of a content pack safely: only plain files are read and only folders listed, so a
/// FIFO, a device, a socket or a symbolic link loop where a content file is expected is an error that names what
/// it is, never a hang (opening a FIFO for reading waits for a writer) or an endless read (`/dev/zero`).
///
/// Each path is examined with `lstat` and `stat` before it is opened; a file is then opened without blocking
/// and examined again through its descriptor, so one swapped for a FIFO in between is refused too. Symbolic links
/// to plain files and folders are followed.
///
/// ```swift
/// let names = try ContentFile.entries(of: pack.appendingPathComponent("npcs"))   // ["mira.json", ...]
/// let bytes = try ContentFile.read(at: pack.appendingPathComponent("world.json"))
/// ```
public enum ContentFile {
    /// What is expected at a path.
    enum Expected {
        case file, folder

        var noun: String { self == .file ? "file" : "folder" }
    }

    /// The largest content file read, in bytes: 8 MiB, far more than any pack needs (the shipped world's largest file
    /// is a few kilobytes) and little enough that loading a pack never takes much memory or time.
    public static let maximumSize = 8 << 20

    /// The contents of a plain file (or of a symbolic link to one).
    ///
    /// The size is checked before a byte is read, from `stat` (and again from `fstat` once the file is open): a
    /// larger file, even a sparse one that claims 20 GB, is refused at once (`tooLarge`). Reading stops past the limit
    /// too, should the file grow meanwhile.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - maximumSize: The largest file read, in bytes: ``maximumSize`` (8 MiB) by default.
    /// - Returns: Its bytes.
    /// - Throws: `ContentFileError` when nothing is there (`notFound`), something other than a plain file is
    ///   (`wrongKind`, `symbolicLinkLoop`, `danglingSymbolicLink`), it is too large (`tooLarge`), or it cannot be
    ///   read (`permissionDenied`, `readFailed`).
    public static func read(at url: URL, maximumSize: Int = maximumSize) throws(ContentFileError) -> [UInt8] {
        let path = url.path
        let size = try examine(path, expecting: .file)
        try checkSize(size, path: path, maximumSize: maximumSize)
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno, path: path, expecting: .file) }
        defer { close(descriptor) }
        // Examined again through the descriptor: the path may have been swapped for a FIFO since `examine`.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno, path: path, expecting: .file) }
        let kind = Kind(status.st_mode)
        guard kind == .regular else { throw wrongKind(kind, path: path, expecting: .file, throughLink: false) }
        try checkSize(Int64(status.st_size), path: path, maximumSize: maximumSize)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(clamping: status.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Never more than one byte past the limit, even from a file that grows while it is read.
            let left = maximumSize - bytes.count
            let wanted = left < buffer.count ? left + 1 : buffer.count
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno, path: path, expecting: .file)
            }
            bytes.append(contentsOf: buffer[0..<count])
            try checkSize(Int64(bytes.count), path: path, maximumSize: maximumSize)
        }
        return bytes
    }

    /// The names in a folder (or a symbolic link to one), sorted, without `.` and `..`.
    ///
    /// - Parameter url: The folder.
    /// - Returns: The names of everything in it, whatever its kind.
    /// - Throws: `ContentFileError` when nothing is there (`notFound`), something other than a folder is
    ///   (`wrongKind`, `symbolicLinkLoop`, `danglingSymbolicLink`), or it cannot be listed (`permissionDenied`,
    ///   `readFailed`): an unreadable folder is an error, never an empty one.
    public static func entries(of url: URL) throws(ContentFileError) -> [String] {
        let path = url.path
        try examine(path, expecting: .folder)
        guard let folder = opendir(path) else { throw failure(errno, path: path, expecting: .folder) }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw failure(errno, path: path, expecting: .folder) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether something is at the path (a symbolic link counts, even a broken one).
    ///
    /// - Parameter url: The path.
    /// - Returns: `false` only when nothing is there.
    public static func exists(at url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    // MARK: - Examining

    /// The kinds of file `stat` tells apart.
    enum Kind: Equatable {
        case regular, folder, fifo, characterDevice, blockDevice, socket, symbolicLink, unknown

        init(_ mode: mode_t) {
            switch mode & mode_t(S_IFMT) {
            case mode_t(S_IFREG): self = .regular
            case mode_t(S_IFDIR): self = .folder
            case mode_t(S_IFIFO): self = .fifo
            case mode_t(S_IFCHR): self = .characterDevice
            case mode_t(S_IFBLK): self = .blockDevice
            case mode_t(S_IFSOCK): self = .socket
            case mode_t(S_IFLNK): self = .symbolicLink
            default: self = .unknown
            }
        }

        /// `a FIFO (named pipe)`, `a character device`...
        var phrase: String {
            switch self {
            case .regular: "a file"
            case .folder: "a folder"
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .symbolicLink: "a symbolic link"
            case .unknown: "a special file"
            }
        }
    }

    /// Refuses a file larger than `maximumSize` bytes.
    static func checkSize(_ size: Int64, path: String, maximumSize: Int) throws(ContentFileError) {
        guard size > Int64(maximumSize) else { return }
        throw ContentFileError(
            .tooLarge, path: path,
            problem:
                "is \(describeSize(size)), more than the \(describeSize(Int64(maximumSize))) a content file may be",
            hint: "split it, or move what is not content out of the pack")
    }

    /// `18.6 GiB (20000000000 bytes)`, `8 MiB (8388608 bytes)`, `100 bytes`.
    static func describeSize(_ size: Int64) -> String {
        let units: [(name: String, bytes: Int64)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        guard let unit = units.first(where: { size >= $0.bytes }) else { return "\(size) bytes" }
        let amount: String
        if size % unit.bytes == 0 {
            amount = String(size / unit.bytes)
        } else {
            // In tenths, truncated; written so that no size, however large, overflows.
            let tenths = size / unit.bytes * 10 + size % unit.bytes * 10 / unit.bytes
            amount = "\(tenths / 10).\(tenths % 10)"
        }
        return "\(amount) \(unit.name) (\(size) bytes)"
    }

    /// Checks that a plain file or a folder, as expected, is at the path, following symbolic links.
    ///
    /// - Returns: The size `stat` gives (of the link's target, for a link).
    @discardableResult
    static func examine(_ path: String, expecting expected: Expected) throws(ContentFileError) -> Int64 {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw failure(errno, path: path, expecting: expected) }
        var kind = Kind(status.st_mode)
        let isLink = kind == .symbolicLink
        if isLink {
            guard stat(path, &status) == 0 else {
                let code = errno
                switch code {
                case ELOOP:
                    throw ContentFileError(
                        .symbolicLinkLoop, path: path,
                        problem: "is a symbolic link loop (following it leads back to it), not a \(expected.noun)",
                        hint: "point the link at a real \(expected.noun), or replace it with one")
                case ENOENT, ENOTDIR:
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                    throw ContentFileError(
                        .danglingSymbolicLink, path: path,
                        problem: "is a symbolic link to \"\(target)\", which does not exist",
                        hint: "point the link at a real \(expected.noun), or remove it")
                default:
                    throw failure(code, path: path, expecting: expected)
                }
            }
            kind = Kind(status.st_mode)
        }
        let wanted: Kind = expected == .file ? .regular : .folder
        guard kind == wanted else { throw wrongKind(kind, path: path, expecting: expected, throughLink: isLink) }
        return Int64(status.st_size)
    }

    /// `is a FIFO (named pipe), not a file`.
    static func wrongKind(
        _ kind: Kind, path: String, expecting expected: Expected, throughLink: Bool
    ) -> ContentFileError {
        let what = throughLink ? "a symbolic link to \(kind.phrase)" : kind.phrase
        let hint =
            expected == .file
            ? "a content pack holds plain files: replace it with a JSON file, or move it out of the pack"
            : "replace it with a folder"
        return ContentFileError(.wrongKind, path: path, problem: "is \(what), not a \(expected.noun)", hint: hint)
    }

    /// The error for a failed system call.
    static func failure(_ code: Int32, path: String, expecting expected: Expected) -> ContentFileError {
        let verb = expected == .file ? "read" : "listed"
        switch code {
        case ENOENT, ENOTDIR:
            return ContentFileError(
                .notFound, path: path, problem: "does not exist", hint: "create it, or check the path")
        case EACCES, EPERM:
            return ContentFileError(
                .permissionDenied, path: path, problem: "cannot be \(verb): permission denied",
                hint: expected == .file
                    ? "give yourself read permission on it and on the folders above it (chmod u+r)"
                    : "give yourself read and search permission on it (chmod u+rx)")
        case ELOOP:
            return ContentFileError(
                .symbolicLinkLoop, path: path,
                problem: "is a symbolic link loop (following it leads back to it), not a \(expected.noun)",
                hint: "point the link at a real \(expected.noun), or replace it with one")
        default:
            return ContentFileError(
                .readFailed, path: path, problem: "cannot be \(verb): \(String(cString: strerror(code)))",
                hint: "check the disk and the file, then try again")
        }
    }
}

/// The system's `read(2)`, out of the reach of `ContentFile.read(at:)`'s name.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
