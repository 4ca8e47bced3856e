import CommandLineKit
import Testing

/// Positional arguments declared with a type, and flags read through their declaration: checked while parsing,
/// read typed, never by a name a typo could get wrong.
@Suite struct TypedArgumentTests {
    static let slot = Argument.value("SLOT", type: .nonEmptyString(example: "autosave"), help: "The slot.")
    static let count = Argument.value(
        "COUNT", type: .integer(in: 1...10, example: 3), defaultValue: 5, help: "How many.")
    static let tag = Argument.optionalValue("TAG", type: .nonEmptyString(example: "red"), help: "A tag.")
    static let json = Option.flag("json", help: "JSON.")
    static let verbose = Option.flag("verbose", shortName: "v", help: "Say more.")
    static let name = Option.value("name", valueName: "NAME", type: .string, help: "A name.")

    /// Prints every typed value, so that a test sees what the handler read.
    static let show = Command(
        "show", abstract: "Show the values.", arguments: [slot.argument, count.argument, tag.argument],
        options: [json, verbose, name.option]
    ) { context in
        let tag = try context.value(of: tag) ?? "nil"
        context.print(
            "slot=\(try context.value(of: slot)) count=\(try context.value(of: count)) tag=\(tag) "
                + "json=\(context.isSet(json)) verbose=\(context.isSet(verbose)) name-set=\(context.isSet(name.option))"
        )
        return .success
    }

    let tool = CommandLineTool(root: Command("tool", abstract: "A test tool.", subcommands: [show]))

    func run(_ arguments: [String]) async -> (code: ExitCode, out: String, err: String) {
        let out = Output()
        let err = Output()
        let code = await tool.run(arguments, standardOutput: out.write, standardError: err.write)
        return (code, out.value, err.value)
    }

    // MARK: - Values

    @Test(arguments: [
        (["a"], "slot=a count=5 tag=nil json=false verbose=false name-set=false"),
        (["a", "7"], "slot=a count=7 tag=nil json=false verbose=false name-set=false"),
        (["a", "7", "red"], "slot=a count=7 tag=red json=false verbose=false name-set=false"),
        (["--json", "My Save", "10"], "slot=My Save count=10 tag=nil json=true verbose=false name-set=false"),
        (["a", "-v", "1", "--", "-x"], "slot=a count=1 tag=-x json=false verbose=true name-set=false"),
        // An option with a value is never a set flag, even when it is given.
        (["a", "--name", "Ana", "--json"], "slot=a count=5 tag=nil json=true verbose=false name-set=false"),
    ])
    func argumentsAndFlagsAreReadTyped(_ arguments: [String], _ expected: String) async {
        let result = await run(["show"] + arguments)
        #expect(result.err == "")
        #expect(result.code == .success)
        #expect(result.out == expected + "\n")
    }

    // MARK: - Bad values

    /// The arguments, then the first line of the error.
    @Test(arguments: [
        ([""], "error: SLOT must be non-empty text, not '' (for example autosave)"),
        (["a", "11"], "error: COUNT must be a whole number from 1 to 10, not '11' (for example 3)"),
        (["a", "many"], "error: COUNT must be a whole number from 1 to 10, not 'many' (for example 3)"),
        (["a", "2", ""], "error: TAG must be non-empty text, not '' (for example red)"),
        ([], "error: missing argument SLOT"),
        (["a", "2", "red", "blue"], "error: unexpected argument 'blue'"),
    ])
    func aBadArgumentIsAUsageErrorNamingItBeforeTheHandlerRuns(_ arguments: [String], _ firstLine: String) async {
        let result = await run(["show"] + arguments)
        #expect(result.code == .usage)
        #expect(result.out == "")
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == firstLine)
        #expect(lines.dropFirst().first == "usage: tool show SLOT [COUNT] [TAG] [--json] [--verbose] [--name NAME]")
        // Parsing itself refuses it: the handler is never given the command.
        guard case .usageError(let error, _, _) = tool.parse(["show"] + arguments) else {
            Issue.record("parse accepted \(arguments)")
            return
        }
        #expect("error: \(error)" == firstLine)
    }

    // MARK: - Help

    @Test func helpShowsTheTypedDefaultAndWhichArgumentsAreOptional() async {
        #expect(
            await run(["show", "--help"]).out == """
                OVERVIEW: Show the values.

                USAGE: tool show SLOT [COUNT] [TAG] [--json] [--verbose] [--name NAME]

                ARGUMENTS:
                  SLOT                  The slot.
                  COUNT                 How many. (default: 5)
                  TAG                   A tag.

                OPTIONS:
                  --json                JSON.
                  -v, --verbose         Say more.
                  --name NAME           A name.
                  -h, --help            Show help information.

                """)
    }

    // MARK: - Reading without a context

    @Test func parsedArgumentsGiveTheTypedValueAndTheFlags() throws {
        guard case .run(_, _, let arguments) = tool.parse(["show", "a", "--verbose"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(try arguments.value(of: Self.slot) == "a")
        #expect(try arguments.value(of: Self.count) == 5)
        #expect(try arguments.value(of: Self.tag) == nil)
        #expect(arguments.isSet(Self.verbose))
        #expect(!arguments.isSet(Self.json))
        // A typed argument's default is not filled in as text; the string-keyed API still reads what was given.
        #expect(arguments.value("COUNT") == nil)
        #expect(arguments.value("SLOT") == "a")
        #expect(arguments.flag("verbose"))
    }

    @Test func aRequiredArgumentMissingFromHandMadeArgumentsIsAUsageError() throws {
        let empty = ParsedArguments()
        #expect(throws: UsageError("missing argument SLOT")) { try empty.value(of: Self.slot) }
        #expect(try empty.value(of: Self.count) == 5)
        #expect(try empty.value(of: Self.tag) == nil)
        #expect(!empty.isSet(Self.json))
    }

    @Test func nonEmptyStringRefusesOnlyTheEmptyText() {
        let type = ValueType<String>.nonEmptyString(example: "x")
        #expect(type.read("") == nil)
        #expect(type.read(" ") == " ")
        #expect(type.read("-") == "-")
        #expect(type.requirement == "non-empty text")
    }
}
