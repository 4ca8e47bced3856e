import CommandLineKit

/// The `parley` command and its subcommands. Add a subcommand in its own file and list it here.
enum ParleyCommand {
    /// `parley`: plays the game, or runs a subcommand.
    static let root = Command(
        "parley", abstract: "A text adventure whose characters you talk to in your own words.",
        discussion: "Run 'parley' to play. The other subcommands are tools for players and modders.",
        options: PlayCommand.options,
        subcommands: [
            PlayCommand.command, ContentCommand.command, SavesCommand.command, TranscriptCommand.command,
            FeedbackCommand.command, RecordingsCommand.command, ReplayCommand.command, TestCommand.command,
            EvalCommand.command, ServeCommand.command, InspectCommand.command,
        ],
        handler: PlayCommand.run)
}
