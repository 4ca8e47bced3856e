import Foundation
import ParleyEngine
import ParleyEvaluation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Test plans are content files too: a FIFO, a device or a symbolic link loop in `tests/` is a plan error that says
/// what it is, never a hang; a `tests` folder that cannot be listed is an error, not "no plans".
@Suite struct ConversationTestFileTests {
    /// A pack folder with a `tests/` folder holding one good plan.
    struct Folder {
        let url: URL
        var tests: URL { url.appendingPathComponent("tests") }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-plans-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent("tests"), withIntermediateDirectories: true)
            let plan = #"{"name": "greets", "steps": [{"do": "look"}]}"#
            try Data(plan.utf8).write(to: tests.appendingPathComponent("good.json"))
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test func aFIFOPlanIsAnErrorNamingIt() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let fifo = folder.tests.appendingPathComponent("pipe.json")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        #expect(try ConversationTest.planFiles(in: folder.url, displayPath: "pack") == ["good.json", "pipe.json"])
        #expect(throws: ConversationTest.PlanError.self) {
            _ = try ConversationTest(contentsOf: fifo, file: "pack/tests/pipe.json")
        }
        do {
            _ = try ConversationTest(contentsOf: fifo, file: "pack/tests/pipe.json")
        } catch {
            #expect(
                error.description
                    == "pack/tests/pipe.json: $: is a FIFO (named pipe), not a file (a content pack holds plain "
                    + "files: replace it with a JSON file, or move it out of the pack)")
        }
        let good = try ConversationTest(
            contentsOf: folder.tests.appendingPathComponent("good.json"), file: "pack/tests/good.json")
        #expect(good.name == "greets")
    }

    @Test func aPlanThatIsALinkLoopOrADeviceIsAnError() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let loop = folder.tests.appendingPathComponent("loop.json")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop.json")
        let device = folder.tests.appendingPathComponent("zero.json")
        try FileManager.default.createSymbolicLink(atPath: device.path, withDestinationPath: "/dev/zero")
        for (url, problem) in [
            (loop, "is a symbolic link loop (following it leads back to it), not a file"),
            (device, "is a symbolic link to a character device, not a file"),
        ] {
            do {
                _ = try ConversationTest(contentsOf: url, file: url.lastPathComponent)
                Issue.record("\(url.lastPathComponent) was read as a plan")
            } catch {
                #expect(error.path == "$")
                #expect(error.problem.hasPrefix(problem), "\(error)")
            }
        }
    }

    @Test func aTestsFolderThatIsAFIFOIsAnErrorNotNoPlans() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.removeItem(at: folder.tests)
        try #require(mkfifo(folder.tests.path, 0o644) == 0)
        #expect(throws: ConversationTest.PlanError.self) {
            _ = try ConversationTest.planFiles(in: folder.url, displayPath: "pack")
        }
        do {
            _ = try ConversationTest.planFiles(in: folder.url, displayPath: "pack")
        } catch {
            #expect(
                error.description == "pack/tests: $: is a FIFO (named pipe), not a folder (replace it with a folder)")
        }
    }

    @Test func aPackWithoutATestsFolderHasNoPlans() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.removeItem(at: folder.tests)
        #expect(try ConversationTest.planFiles(in: folder.url, displayPath: "pack") == [])
    }

    /// Root lists any folder whatever its permissions; as root this is skipped, and `ParleyCLITests` runs
    /// `parley test` as an unprivileged user instead.
    @Test(.enabled(if: geteuid() != 0, "root ignores permissions: chmod 000 does not make a folder unreadable"))
    func anUnreadableTestsFolderIsAnError() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try #require(chmod(folder.tests.path, 0) == 0)
        defer { chmod(folder.tests.path, 0o755) }
        #expect(throws: ConversationTest.PlanError.self) {
            _ = try ConversationTest.planFiles(in: folder.url, displayPath: "pack")
        }
    }
}
