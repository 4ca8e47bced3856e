import CommandLineKit
import ContentPacks
import Foundation
import GameWorld
import ParleyInspector
import ParleyModels
import ParleyServer
import SaveGames

/// `parley inspect`: the inspector alone, on loopback: the saves, their conversations, feedback and replays in a
/// browser (docs/api.md, "The inspector").
enum InspectCommand {
    /// The `inspect` subcommand.
    static let command = Command(
        "inspect", abstract: "Inspect saves, conversations and feedback in a browser.",
        discussion: """
            Serves the inspector's pages on 127.0.0.1 and prints their URL (http://127.0.0.1:PORT/inspect); open it in
            a browser. Serves until stopped (Ctrl-C, SIGTERM). It reads the saves in --saves and writes only the
            feedback reports filed from its pages. Replays run against --model over the content pack in --content.
            'parley serve' serves the same pages at /inspect, beside the game API.
            """,
        options: [
            CommonOptions.saves.option, ServeCommand.portOption.option, CommonOptions.content.option,
            CommonOptions.model.option, CommonOptions.seed.option, ServeCommand.replayTimeoutOption.option,
        ],
        handler: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let choice = try context.modelChoice()
        let folder = URL(fileURLWithPath: try context.value(of: CommonOptions.saves))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            context.printError(
                "parley: there is no saves folder at \(folder.path); play a game first, or name one with --saves DIR.")
            return .failure
        }
        let directory = try context.value(of: CommonOptions.content)
        let loaded = ContentPack.load(from: URL(fileURLWithPath: directory), displayPath: directory)
        var replay: Inspector.ReplaySetup?
        if let pack = loaded.pack, !loaded.diagnostics.contains(where: { $0.severity == .error }) {
            do {
                replay = .init(
                    pack: pack, models: try await choice.makeProvider(), modelName: "\(choice)",
                    timeLimit: .seconds(try context.value(of: ServeCommand.replayTimeoutOption)))
            } catch {
                context.printError("parley: replays are off: \(error)")
            }
        } else {
            context.printError("parley: replays are off: the content pack in \(directory) cannot be read.")
        }
        var router = HTTPRouter()
        InspectorRoutes.register(
            on: &router, inspector: Inspector(store: SaveGameStore(folder: folder), replay: replay), listingSaves: true)
        let server: HTTPServer
        do {
            server = try HTTPServer(
                configuration: .init(host: "127.0.0.1", port: try context.value(of: ServeCommand.portOption)),
                router: router)
        } catch {
            context.printError("parley: \(error)")
            return .failure
        }
        context.print(server.url("/inspect"))
        let trap = SignalTrap(exits: false) { await server.stop() }
        defer { trap.cancel() }
        await server.waitUntilStopped()
        return .success
    }
}
