import CommandLineKit
import Synchronization
import Testing

/// Collects what a command writes, for checking.
final class Output: Sendable {
    let text = Mutex("")
    func write(_ string: String) { text.withLock { $0 += string } }
    var value: String { text.withLock { $0 } }
}

@Suite struct CommandLineToolTests {
    static let check = Command(
        "check", abstract: "Check a pack.",
        arguments: [Argument("DIR", help: "The pack's directory.", defaultValue: "Content")],
        options: [
            .flag("json", help: "Print JSON."),
            .value("seed", shortName: "s", valueName: "N", defaultValue: "7", help: "The seed."),
            .value("tag", help: "A tag; may repeat."),
        ]
    ) { context in
        let arguments = context.arguments
        context.print(
            "dir=\(arguments.value("DIR") ?? "-") json=\(arguments.flag("json")) seed=\(try arguments.integer("seed") ?? -1) tags=\(arguments.values("tag"))"
        )
        return .success
    }

    static let root = Command(
        "tool", abstract: "A test tool.",
        subcommands: [
            Command("content", abstract: "Work with packs.", subcommands: [check]),
            Command(
                "echo", abstract: "Echo words.", arguments: [Argument("WORDS", help: "Words.", isRepeating: true)]
            ) { context in
                context.print(context.arguments.values("WORDS").joined(separator: " "))
                return .success
            },
            Command("fail", abstract: "Fails.") { _ in
                struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
                throw Broken()
            },
        ],
        handler: { context in
            context.printError("no game yet")
            return .failure
        })

    let tool = CommandLineTool(root: root)

    func run(_ arguments: [String]) async -> (code: ExitCode, out: String, err: String) {
        let out = Output()
        let err = Output()
        let code = await tool.run(arguments, standardOutput: out.write, standardError: err.write)
        return (code, out.value, err.value)
    }

    // MARK: - Parsing

    @Test(arguments: [
        (["content", "check"], "dir=Content json=false seed=7 tags=[]"),
        (["content", "check", "Mods"], "dir=Mods json=false seed=7 tags=[]"),
        (["content", "check", "--json", "Mods"], "dir=Mods json=true seed=7 tags=[]"),
        (["content", "check", "Mods", "--seed", "42"], "dir=Mods json=false seed=42 tags=[]"),
        (["content", "check", "--seed=-3"], "dir=Content json=false seed=-3 tags=[]"),
        (["content", "check", "-s", "5"], "dir=Content json=false seed=5 tags=[]"),
        (["content", "check", "--tag", "a", "--tag=b"], #"dir=Content json=false seed=7 tags=["a", "b"]"#),
        (["content", "check", "--", "--json"], "dir=--json json=false seed=7 tags=[]"),
    ])
    func parsesOptionsArgumentsAndDefaults(_ arguments: [String], _ expected: String) async {
        let result = await run(arguments)
        #expect(result.code == .success)
        #expect(result.out == expected + "\n")
        #expect(result.err == "")
    }

    @Test func repeatingArgumentsTakeTheRest() async {
        #expect(await run(["echo", "a", "b", "c"]).out == "a b c\n")
        #expect(await run(["echo"]).out == "\n")
    }

    @Test func theRootCommandRunsWithoutASubcommand() async {
        let result = await run([])
        #expect(result.code == .failure)
        #expect(result.err == "no game yet\n")
    }

    // MARK: - Usage errors

    @Test(arguments: [
        (["content", "check", "--jsn"], "error: unknown option '--jsn' (did you mean '--json'?)"),
        (["content", "check", "--colour"], "error: unknown option '--colour'"),
        (["content", "check", "-x"], "error: unknown option '-x'"),
        (["content", "check", "--json=yes"], "error: the flag '--json' takes no value"),
        (["content", "check", "--seed"], "error: the option '--seed' needs a value (--seed N)"),
        (["content", "check", "a", "b"], "error: unexpected argument 'b'"),
        (["contnet", "check"], "error: unknown command 'contnet' (did you mean 'content'?)"),
        (["content"], "error: missing a subcommand (one of: check)"),
    ])
    func usageErrorsExitWith64AndSayWhatToDo(_ arguments: [String], _ firstLine: String) async {
        let result = await run(arguments)
        #expect(result.code == .usage)
        #expect(result.out == "")
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.first == firstLine)
        #expect(lines.count == 3)
        #expect(lines.last?.hasPrefix("See '") == true)
    }

    @Test func aBadIntegerValueIsAUsageError() async {
        let result = await run(["content", "check", "--seed", "many"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: the value of seed must be a whole number, not 'many'\n"))
    }

    @Test func aThrowingHandlerFailsWithItsError() async {
        let result = await run(["fail"])
        #expect(result.code == .failure)
        #expect(result.err == "error: it broke\n")
    }

    // MARK: - Help

    @Test(arguments: [
        ["--help"], ["-h"], ["content", "--help"], ["content", "check", "-h"], ["content", "check", "x", "--help"],
    ])
    func helpIsAvailableEverywhere(_ arguments: [String]) async {
        let result = await run(arguments)
        #expect(result.code == .success)
        #expect(result.out.hasPrefix("OVERVIEW: "))
        #expect(result.out.contains("-h, --help"))
    }

    @Test func helpIsGeneratedFromTheDeclaration() async {
        #expect(
            await run(["content", "check", "--help"]).out == """
                OVERVIEW: Check a pack.

                USAGE: tool content check [DIR] [--json] [--seed N] [--tag VALUE]

                ARGUMENTS:
                  DIR                   The pack's directory. (default: Content)

                OPTIONS:
                  --json                Print JSON.
                  -s, --seed N          The seed. (default: 7)
                  --tag VALUE           A tag; may repeat.
                  -h, --help            Show help information.

                """)
        let group = await run(["content", "--help"]).out
        #expect(group.contains("USAGE: tool content <subcommand>"))
        #expect(group.contains("SUBCOMMANDS:\n  check                 Check a pack."))
    }

    @Test func parseReportsWhatItFound() async {
        guard case .run(let command, let path, let arguments) = tool.parse(["content", "check", "--json"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(command.name == "check")
        #expect(path == ["tool", "content", "check"])
        #expect(arguments.flag("json"))
        #expect(arguments.value("DIR") == "Content")
    }
}
