import ContentPacks
import GameWorld
import ParleyEngine

// MARK: - commandOrSpeech: whether a typed line is said or run

extension EvalRunner {
    /// Runs the case's line under test: said to the NPC; or, when the case checks `runs`, typed as the player types
    /// it in `parley play` while talking (`Game.command(for:)`: speech wins unless the line is unmistakably a command).
    ///
    /// A command that needs a game host (`save`, `load`, `saves`, `reload`) or leaves the game (`quit`) is read but not
    /// run: the library's `Game` alone cannot, and what the case checks is how the line was taken.
    ///
    /// - Parameters:
    ///   - evalCase: The case.
    ///   - game: The game, talking to the case's NPC.
    ///   - heard: The line as a speech recogniser heard it, if it was spoken: said as heard, under its acting bar.
    ///   - output: Receives what the game shows.
    /// - Returns: How the line was taken.
    static func performLineUnderTest(
        of evalCase: EvalCase, in game: Game, heard: HeardSpeech? = nil,
        output: @escaping @Sendable (GameOutput) -> Void
    ) async -> GameCommand {
        if let heard, evalCase.expect.runs == nil {
            await game.say(heard, to: evalCase.npc, output: output)
            return .say(heard.text)
        }
        guard evalCase.expect.runs != nil else {
            await game.perform(.say(evalCase.say), output: output)
            return .say(evalCase.say)
        }
        let command = await game.command(for: evalCase.say)
        switch command {
        case .save, .load, .saves, .reload, .quit: break
        default: await game.perform(command, output: output)
        }
        return command
    }

    /// Whether the game's problems during the line fail the case: always when the line was said (a failed turn); not
    /// when it ran as a command, whose refusals ("You can't go north from here.") are the command's answer.
    static func problemsCount(after command: GameCommand) -> Bool {
        if case .say = command { return true }
        return false
    }

    /// The `runs` check: whether the line was taken as the case expects.
    ///
    /// - Parameters:
    ///   - expected: The case's `expect.runs`; `nil` checks nothing.
    ///   - command: How the line was taken.
    /// - Returns: The failure, if any.
    static func runsFailures(expected: EvalCase.Expectation.Runs?, command: GameCommand) -> [EvalResult.Failure] {
        guard let expected else { return [] }
        let actual = command.name.map { "the command \($0)" } ?? "said to the NPC"
        switch expected {
        case .speech:
            if case .say = command { return [] }
            return [EvalResult.Failure(check: "runs", expected: "said to the NPC", actual: actual)]
        case .command(let name):
            if let ran = command.name, name == nil || name == ran { return [] }
            return [
                EvalResult.Failure(
                    check: "runs", expected: name.map { "the command \($0)" } ?? "a command", actual: actual)
            ]
        }
    }
}

extension GameCommand {
    /// The command's name as an evaluation case's `runs` names it (`go`, `give`, `accept`); `nil` for words said,
    /// an empty line and a line the game does not understand.
    public var name: String? {
        switch self {
        case .look: "look"
        case .examine: "examine"
        case .go: "go"
        case .take: "take"
        case .drop: "drop"
        case .give: "give"
        case .inventory: "inventory"
        case .talk: "talk"
        case .offers: "offers"
        case .accept: "accept"
        case .decline: "decline"
        case .bye: "bye"
        case .history: "history"
        case .report: "report"
        case .save: "save"
        case .load: "load"
        case .saves: "saves"
        case .reload: "reload"
        case .help: "help"
        case .quit: "quit"
        case .say, .nothing, .unknown: nil
        }
    }
}
