import Foundation
import Testing

/// A `--model` URL that cannot be right is refused when the command starts, saying what is wrong, instead of
/// failing at every turn. (How a specification is parsed is tested in `ParleyModelsTests/ModelChoiceTests`.)
@Suite(.timeLimit(.minutes(10))) struct ModelURLTests {
    @Test(arguments: TurnTimeoutCommandTests.turnCommands, ["htp:/x", "http://host:99999/v1"])
    func everyCommandRefusesAMalformedModelURLAtStartUp(command: [String], model: String) async throws {
        let work = TemporaryFolder()
        let run = try await ParleyProcess.run(command + ["--model", model], in: work.url, input: "look\nquit\n")
        #expect(run.status == 64, "\(run.out) \(run.err)")
        #expect(run.err.contains("is not a model"), "\(run.err)")
        #expect(!run.out.contains("Your goal"), "the game started anyway")
    }
}
