import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a last action when the process is asked to stop (Ctrl-C, `kill`, a closed terminal), then exits.
///
/// `parley play` uses it to close its saves, so that a game stopped by a signal leaves each save one self-contained
/// file, like a game the player quits. (`kill -9` cannot be caught; the next start folds what it left behind back
/// into the save.)
final class SignalTrap {
    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let sources: [any DispatchSourceSignal]

    /// Handles `signals`: on the first, runs `action` and, when `exits`, exits with 128 + the signal's number, as a
    /// shell reports a process ended by it. Without `exits`, the action must make the program end by itself
    /// (`parley serve` stops its server, and the command returns once every game is saved).
    ///
    /// - Parameters:
    ///   - exits: Whether to exit after the action.
    ///   - action: What to do.
    init(exits: Bool = true, _ action: @escaping @Sendable () async -> Void) {
        sources = Self.signals.map { number in
            // The default action (end the process at once) is replaced by the dispatch source's handler.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Task {
                    await action()
                    if exits { exit(128 + number) }
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops handling the signals: their default actions apply again.
    func cancel() {
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}
