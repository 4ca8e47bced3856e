import Foundation
import LanguageModels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Games hold file descriptors (their autosave, its write-ahead log and shared memory, the save folder's lock), and so
// do the server's connections. A server that runs out of them can open no save and accept no client: it refuses new
// games while it still has room, rather than fail inside one.

extension APIGames {
    /// The file descriptors one game may hold at once: its autosave with its write-ahead log and shared memory, the
    /// save folder's lock, and a save read meanwhile (a conversation, a copy being made).
    static let descriptorsPerGame = 8
    /// The file descriptors kept free for everything but games: the server's connections, the model's, the logs.
    static func descriptorHeadroom(of limit: Int) -> Int { max(32, limit / 4) }

    /// The most file descriptors this process may open (`getrlimit(RLIMIT_NOFILE)`, its soft limit), or `nil` when
    /// there is no limit or it cannot be read.
    static func descriptorLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let read = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let read = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        // RLIM_INFINITY is all ones.
        guard read == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// The most games that `descriptors` file descriptors leave room for, headroom kept: at least one.
    ///
    /// - Parameter descriptors: The process's limit (``descriptorLimit()``).
    /// - Returns: The number of games.
    static func gameLimit(descriptors: Int) -> Int {
        max(1, (descriptors - descriptorHeadroom(of: descriptors)) / descriptorsPerGame)
    }

    /// Whether a new game's file descriptors can be opened now: opens that many (and the headroom's share of them) on
    /// `/dev/null` and closes them again. `false` when the process has run out (`EMFILE`, `ENFILE`).
    static func descriptorsAreFree() -> Bool {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for _ in 0..<(descriptorsPerGame * 2) {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            opened.append(descriptor)
        }
        return true
    }

    /// `503 Out of file descriptors`: nothing was created.
    func outOfDescriptors(limit: Int?) -> APIProblem {
        var problem = APIProblem(
            status: 503, title: "Out of file descriptors",
            detail: "The server has too few file descriptors left to open another game's save (\(games.count) games "
                + "are being played\(limit.map { ", with a limit of \($0) descriptors" } ?? "")); nothing was "
                + "created. DELETE a game you no longer need, or start the server with a higher limit "
                + "(ulimit -n).")
        problem.headers["Retry-After"] = String(Self.retryAfterSeconds)
        return problem
    }

    /// A new game id: 16 lowercase hexadecimal digits from the system's random source, which stops the program
    /// rather than hand out a guessable or repeated id (Foundation's `UUID()` gives zeros when it cannot open its
    /// source, as when the process is out of file descriptors: `RandomID`); never the id of a game played or ended
    /// here.
    func newID() -> String {
        while true {
            let id = RandomID.hexDigits(16)
            if games[id] == nil, !ended.contains(id) { return id }
        }
    }
}
