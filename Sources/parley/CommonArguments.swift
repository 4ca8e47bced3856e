import CommandLineKit
import GameWorld

/// The positional arguments several `parley` commands share, each declared once with its type (and default):
/// a bad value is a usage error (exit 64) naming the argument, and handlers read them typed, never by name.
enum CommonArguments {
    /// `SLOT`: a save's slot, for the commands that read or delete one.
    static let slot = Argument.value("SLOT", type: .slotName, help: "The slot.")

    /// `[DIR]`: the content pack's directory, `Content` when left out (`content check`, `test`).
    static let contentDirectory = Argument.value(
        "DIR", type: .string, defaultValue: "Content", help: "The pack's directory.")

    /// `[DIR]` of the commands that also take `--content DIR` (`content check`, `content lexicon`, `test`, `eval`):
    /// read with `CommandContext.packDirectory()`.
    static let packDirectory = Argument.optionalValue(
        "DIR", type: .string, help: "The pack's directory, as DIR or --content DIR (default: Content).")

    /// `NPC`: an NPC's id (`transcript`).
    static let npc = Argument.value("NPC", type: .npcID, help: "The NPC's id, e.g. mira.")
}
