import CommandLineKit

/// `parley play`: the game. Not built yet; this placeholder says so.
enum PlayCommand {
    /// The `play` subcommand.
    static let command = Command(
        "play", abstract: "Play the game (not built yet).", handler: run)

    /// Says that the game is not built yet, and fails.
    @Sendable static func run(_ context: CommandContext) throws -> ExitCode {
        context.printError("parley: the game is not built yet. Try 'parley content check' to check the content pack.")
        return .failure
    }
}
