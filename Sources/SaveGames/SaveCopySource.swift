import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The files of a save being copied, opened when the copy is asked for: the database file and, when it has them,
/// its write-ahead log and rollback journal (SQLite reads them into the copy when it is first opened).
///
/// Holding them open means the copy is of the very files that were checked, even if the slot is renamed or deleted
/// meanwhile, or a temporary upgraded copy removed. They are only read, at explicit offsets, so that a failed copy
/// can be tried again from the start; they are closed when this is released.
final class SaveCopySource: Sendable {
    /// One open file and the suffix its copy gets (`""`, `-wal`, `-journal`).
    private struct OpenFile: Sendable {
        let descriptor: Int32
        let suffix: String
    }

    private let openFiles: [OpenFile]

    /// Opens the database at `path` and the log and journal beside it, if any.
    ///
    /// - Parameters:
    ///   - path: The file the save's connection reads (the slot's file, or an upgraded temporary copy of it).
    ///   - slot: The slot's file, to name in errors.
    /// - Throws: ``SaveGameError`` when the database cannot be opened for reading.
    init(_ path: String, reportingAs slot: URL) throws {
        var files: [OpenFile] = []
        for suffix in ["", "-wal", "-journal"] {
            let descriptor = open(path + suffix, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else {
                // A log or journal that is not there is not copied; the database itself must be.
                let reason = errno
                if suffix.isEmpty {
                    files.forEach { close($0.descriptor) }
                    throw SaveGameError(
                        .cannotOpen, path: slot.path,
                        detail: "it cannot be opened to copy it: \(String(cString: strerror(reason)))")
                }
                continue
            }
            files.append(OpenFile(descriptor: descriptor, suffix: suffix))
        }
        openFiles = files
    }

    deinit {
        for file in openFiles { close(file.descriptor) }
    }

    /// Writes a copy of each file to `destination` plus its suffix, synced to the disk.
    ///
    /// - Parameters:
    ///   - destination: The new database file; it and its side files must not exist.
    ///   - target: The file the copy is for, to name in errors.
    /// - Throws: ``SaveGameError`` when a file cannot be written (a full disk: ``SaveGameError/Code/diskFull``).
    func write(to destination: URL, for target: URL) throws {
        for file in openFiles {
            let path = destination.path + file.suffix
            let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard output >= 0 else { throw Self.failure(errno, writing: target) }
            defer { close(output) }
            try Self.copy(from: file.descriptor, to: output, target: target)
            guard fsync(output) == 0 else { throw Self.failure(errno, writing: target) }
        }
    }

    /// Syncs a folder, so that a file just renamed into it keeps its name after a crash of the system.
    ///
    /// - Parameter folder: The folder.
    static func sync(folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    // MARK: - Copying bytes

    /// Copies all of `input` from its start to `output`: in the kernel (`sendfile`) where it can, else through a
    /// buffer.
    private static func copy(from input: Int32, to output: Int32, target: URL) throws {
        var offset: off_t = 0
        #if os(Linux)
        while true {
            let sent = sendfile(output, input, &offset, 1 << 30)
            if sent > 0 { continue }
            if sent == 0 { return }
            if errno == EINTR { continue }
            // Not every file system can: copy the rest through a buffer.
            if errno == EINVAL || errno == ENOSYS { break }
            throw failure(errno, writing: target)
        }
        #endif
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let read = pread(input, buffer, size, offset)
            if read == 0 { return }
            if read < 0 {
                if errno == EINTR { continue }
                throw failure(errno, writing: target)
            }
            var written = 0
            while written < read {
                let count = writeBytes(output, buffer + written, read - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno, writing: target)
                }
                written += count
            }
            offset += off_t(read)
        }
    }

    /// The error for a failed system call while copying to `target`.
    private static func failure(_ code: Int32, writing target: URL) -> SaveGameError {
        let reason = "copying it failed: " + String(cString: strerror(code))
        let path = target.path
        switch code {
        case ENOSPC, EDQUOT:
            return SaveGameError(.diskFull, path: path, detail: reason)
        case EACCES, EPERM, EROFS:
            return SaveGameError(.readOnly, path: path, detail: reason)
        default:
            return SaveGameError(.ioError, path: path, detail: reason)
        }
    }
}

/// `write(2)`, out of reach of ``SaveCopySource/write(to:for:)``'s name.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
