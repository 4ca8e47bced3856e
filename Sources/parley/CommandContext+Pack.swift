import CommandLineKit

extension CommandContext {
    /// The content pack's directory of the commands that take it either way (`content check`, `content lexicon`,
    /// `test`, `eval`): the positional `DIR` or `--content DIR`, as `play` and `serve` take it; `Content` when neither
    /// is given.
    ///
    /// - Returns: The directory, as the user wrote it.
    /// - Throws: `UsageError` when both are given and name different directories.
    func packDirectory() throws(UsageError) -> String {
        let positional = try value(of: CommonArguments.packDirectory)
        let option = arguments.value(CommonOptions.content.name)
        switch (positional, option) {
        case (let positional?, let option?) where positional != option:
            throw UsageError(
                "the pack's directory is given twice, as \(positional) and as --content \(option)",
                hint: "give it once, as DIR or as --content DIR")
        case (let directory?, _), (nil, let directory?):
            return directory
        case (nil, nil):
            return CommonOptions.content.defaultValue
        }
    }
}
