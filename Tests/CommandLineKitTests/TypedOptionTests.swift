import CommandLineKit
import Testing

/// Options declared with a type, a default and an environment variable: checked while parsing, read typed.
@Suite struct TypedOptionTests {
    static let seed = Option.value(
        "seed", shortName: "s", valueName: "N", type: .unsignedInteger, defaultValue: 1, environment: "TOOL_SEED",
        help: "The seed.")
    static let count = Option.value(
        "count", valueName: "N", type: .integer(in: 1...100, example: 10), help: "How many.")
    static let saves = Option.value(
        "saves", aliases: ["folder"], valueName: "DIR", type: .string, defaultValue: "SaveGames",
        environment: "TOOL_SAVES", help: "The saves folder.")
    static let timeout = Option.value(
        "timeout", valueName: "SECONDS", type: .seconds(atMost: 3600, example: 30), defaultValue: .seconds(60),
        help: "The time limit.")
    static let sizes = Option.value(
        "sizes", valueName: "N,N,...", type: .list(of: .integer(in: 1...Int.max)), defaultValue: [10, 100],
        help: "The sizes.")

    /// Prints every typed value, so that a test sees what the handler read.
    static let show = Command(
        "show", abstract: "Show the values.",
        options: [seed.option, count.option, saves.option, timeout.option, sizes.option, .flag("json", help: "JSON.")]
    ) { context in
        let count = try context.value(of: count).map { "\($0)" } ?? "nil"
        let timeout = try context.value(of: timeout).milliseconds(rounded: .towardZero)
        context.print(
            "seed=\(try context.value(of: seed)) count=\(count) saves=\(try context.value(of: saves)) "
                + "timeout=\(timeout)ms sizes=\(try context.value(of: sizes))")
        return .success
    }

    let tool = CommandLineTool(root: Command("tool", abstract: "A test tool.", subcommands: [show]))

    func run(
        _ arguments: [String], environment: [String: String] = [:]
    ) async -> (code: ExitCode, out: String, err: String) {
        let out = Output()
        let err = Output()
        let code = await tool.run(
            arguments, environment: environment, standardOutput: out.write, standardError: err.write)
        return (code, out.value, err.value)
    }

    // MARK: - Values

    @Test(arguments: [
        ([String](), [String: String](), "seed=1 count=nil saves=SaveGames timeout=60000ms sizes=[10, 100]"),
        (["--seed", "42"], [:], "seed=42 count=nil saves=SaveGames timeout=60000ms sizes=[10, 100]"),
        (
            ["-s", "18446744073709551615"], [:],
            "seed=18446744073709551615 count=nil saves=SaveGames timeout=60000ms sizes=[10, 100]"
        ),
        (["--count=7", "--timeout", "1.5"], [:], "seed=1 count=7 saves=SaveGames timeout=1500ms sizes=[10, 100]"),
        (["--sizes", "5, 50,500"], [:], "seed=1 count=nil saves=SaveGames timeout=60000ms sizes=[5, 50, 500]"),
        (["--saves", "Mine"], [:], "seed=1 count=nil saves=Mine timeout=60000ms sizes=[10, 100]"),
        (["--folder", "Mine"], [:], "seed=1 count=nil saves=Mine timeout=60000ms sizes=[10, 100]"),
        (["--folder=Mine"], [:], "seed=1 count=nil saves=Mine timeout=60000ms sizes=[10, 100]"),
        // The last one given wins, whichever name it was given by.
        (["--folder", "A", "--saves", "B"], [:], "seed=1 count=nil saves=B timeout=60000ms sizes=[10, 100]"),
        // The environment gives what the command line does not; the command line wins.
        ([], ["TOOL_SEED": "9", "TOOL_SAVES": "Env"], "seed=9 count=nil saves=Env timeout=60000ms sizes=[10, 100]"),
        (
            ["--seed", "3", "--folder", "Cli"], ["TOOL_SEED": "9", "TOOL_SAVES": "Env"],
            "seed=3 count=nil saves=Cli timeout=60000ms sizes=[10, 100]"
        ),
        // A bad environment value does not matter when the command line gives the value.
        (["--seed", "3"], ["TOOL_SEED": "abc"], "seed=3 count=nil saves=SaveGames timeout=60000ms sizes=[10, 100]"),
    ])
    func valuesComeFromTheCommandLineElseTheEnvironmentElseTheDefault(
        _ arguments: [String], _ environment: [String: String], _ expected: String
    ) async {
        let result = await run(["show"] + arguments, environment: environment)
        #expect(result.err == "")
        #expect(result.code == .success)
        #expect(result.out == expected + "\n")
    }

    // MARK: - Bad values

    static let unsigned = "a whole number from 0 to 18446744073709551615"
    static let oneToHundred = "a whole number from 1 to 100"
    static let seconds = "a number of seconds above 0 and at most 3600"
    static let positiveList = "a whole number of 1 or more, or several separated by commas"

    /// The arguments, then what the error names: the option as typed, what it must be, the value, an example.
    @Test(arguments: [
        (["--seed", "abc"], "--seed", unsigned, "abc", "7"),
        (["--seed", "-1"], "--seed", unsigned, "-1", "7"),
        (["--seed=1.5"], "--seed", unsigned, "1.5", "7"),
        (["--seed", "18446744073709551616"], "--seed", unsigned, "18446744073709551616", "7"),
        (["-s", ""], "-s", unsigned, "", "7"),
        (["--count", "many"], "--count", oneToHundred, "many", "10"),
        (["--count", "0"], "--count", oneToHundred, "0", "10"),
        (["--count", "101"], "--count", oneToHundred, "101", "10"),
        (["--timeout", "0"], "--timeout", seconds, "0", "30"),
        (["--timeout", "nan"], "--timeout", seconds, "nan", "30"),
        (["--timeout", "3601"], "--timeout", seconds, "3601", "30"),
        (["--sizes", "10,,100"], "--sizes", positiveList, "10,,100", "1"),
        (["--sizes", "10,-1"], "--sizes", positiveList, "10,-1", "1"),
    ])
    func aBadValueIsAUsageErrorBeforeTheHandlerRuns(
        _ arguments: [String], _ option: String, _ requirement: String, _ value: String, _ example: String
    ) async {
        let result = await run(["show"] + arguments)
        #expect(result.code == .usage)
        #expect(result.out == "")
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first == "error: \(option) must be \(requirement), not '\(value)' (for example \(option) \(example))")
        #expect(lines.dropFirst().first?.hasPrefix("usage: tool show ") == true)
        // Parsing itself refuses it: the handler is never given the command.
        guard case .usageError = tool.parse(["show"] + arguments) else {
            Issue.record("parse accepted \(arguments)")
            return
        }
    }

    @Test func aBadEnvironmentValueIsAUsageErrorNamingTheVariable() async {
        let result = await run(["show"], environment: ["TOOL_SEED": "-4"])
        #expect(result.code == .usage)
        #expect(result.out == "")
        #expect(
            result.err.hasPrefix(
                "error: the environment variable TOOL_SEED must be a whole number from 0 to 18446744073709551615, "
                    + "not '-4' (for example TOOL_SEED=7, or unset it)\n"))
    }

    @Test func anEmptyEnvironmentValueIsAValueToo() async {
        #expect(await run(["show"], environment: ["TOOL_SEED": ""]).code == .usage)
        #expect(await run(["show"], environment: ["TOOL_SAVES": ""]).out.contains("saves= "))
    }

    // MARK: - Names

    @Test(arguments: [
        (["--sed", "1"], "error: unknown option '--sed' (did you mean '--seed'?)"),
        (["--fodler", "x"], "error: unknown option '--fodler' (did you mean '--folder'?)"),
        (["--save", "x"], "error: unknown option '--save' (did you mean '--saves'?)"),
        (["--Seed", "1"], "error: unknown option '--Seed' (did you mean '--seed'?)"),
        (["--colour"], "error: unknown option '--colour'"),
    ])
    func anUnknownOptionStillGetsDidYouMean(_ arguments: [String], _ firstLine: String) async {
        let result = await run(["show"] + arguments)
        #expect(result.code == .usage)
        #expect(result.err.split(separator: "\n").first.map(String.init) == firstLine)
    }

    @Test func helpShowsTheAliasTheDefaultAndTheEnvironmentVariable() async {
        #expect(
            await run(["show", "--help"]).out == """
                OVERVIEW: Show the values.

                USAGE: tool show [--seed N] [--count N] [--saves DIR] [--timeout SECONDS] [--sizes N,N,...] [--json]

                OPTIONS:
                  -s, --seed N          The seed. (default: $TOOL_SEED if set, else 1)
                  --count N             How many.
                  --saves DIR           The saves folder. (alias: --folder; default: $TOOL_SAVES if set, else SaveGames)
                  --timeout SECONDS     The time limit. (default: 60)
                  --sizes N,N,...       The sizes. (default: 10,100)
                  --json                JSON.
                  -h, --help            Show help information.

                """)
    }

    // MARK: - Reading without a context

    @Test func parsedArgumentsGiveTheTypedValueWithTheEnvironmentPassedIn() throws {
        guard case .run(_, _, let arguments) = tool.parse(["show", "--count", "5"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(try arguments.value(of: Self.count, environment: [:]) == 5)
        #expect(try arguments.value(of: Self.seed, environment: [:]) == 1)
        #expect(try arguments.value(of: Self.seed, environment: ["TOOL_SEED": "12"]) == 12)
        #expect(throws: UsageError.self) { try arguments.value(of: Self.seed, environment: ["TOOL_SEED": "x"]) }
        // A typed option's default is not filled in as text: the environment must be able to come first.
        #expect(arguments.value("seed") == nil)
        #expect(arguments.value("count") == "5")
    }

    @Test func valueTypesFormatWhatTheyRead() {
        let seconds = ValueType<Duration>.seconds(atMost: 100, example: 5)
        #expect(seconds.read("0.0001") == .milliseconds(1))
        #expect(seconds.read("2.5").map(seconds.format) == "2.5")
        #expect(seconds.read("100").map(seconds.format) == "100")
        let list = ValueType<[Int]>.list(of: .integer)
        #expect(list.read("-3,4").map(list.format) == "-3,4")
        #expect(list.read("") == nil)
        #expect(ValueType<Int>.integer.requirement == "a whole number")
        #expect(ValueType<Int>.integer(in: .min...0).requirement == "a whole number of 0 or less")
    }
}
