import ChildProcess
import Foundation
import ParleyBasics
import ParleyHTTP
import ParleyJSON
import ParleyServer
import Testing

/// Debian's Chromium, headless, driven through its WebDriver (`chromedriver`, Debian's `chromium-driver`) over HTTP:
/// the browser the inspector's browser tests open its pages in, click its links and submit its forms with.
///
/// ```swift
/// try await HeadlessChromium.with { browser in
///     try await browser.open(url)
///     let title = try await browser.evaluate("return document.title")
/// }
/// ```
///
/// The binaries are `PARLEY_CHROMIUM` and `PARLEY_CHROMEDRIVER`, else `chromium` and `chromedriver` on the `PATH`.
/// Tests that need them are skipped when they are not installed, unless `PARLEY_BROWSER_TESTS=1` (as `scripts/test`
/// sets), when they fail instead, as the Godot and llama-server tests do.
final class HeadlessChromium: Sendable {
    /// A binary's path: the environment variable's, else the first of that name on the `PATH`.
    static func executable(_ name: String, environment variable: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[variable], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let path = URL(fileURLWithPath: String(directory)).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static var chromium: String? { executable("chromium", environment: "PARLEY_CHROMIUM") }
    static var chromedriver: String? { executable("chromedriver", environment: "PARLEY_CHROMEDRIVER") }

    /// Whether the browser tests run: both are installed, or `PARLEY_BROWSER_TESTS=1` demands them.
    static var testsEnabled: Bool { (chromium != nil && chromedriver != nil) || isRequired }

    /// Whether the environment demands the browser tests.
    static var isRequired: Bool { ProcessInfo.processInfo.environment["PARLEY_BROWSER_TESTS"] == "1" }

    /// Says how to enable the browser tests.
    static let howToEnable =
        "needs a headless browser (Debian's chromium and chromium-driver): run scripts/install-deps --chromium (or "
        + "scripts/test, which installs them and runs these tests), or name the binaries in PARLEY_CHROMIUM and "
        + "PARLEY_CHROMEDRIVER"

    /// The key of an element reference in WebDriver's JSON.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    private let driver: ChildProcess
    private let base: String
    private let session: String
    private let client: HTTPClient
    private let profile: URL

    /// Starts chromedriver and a browser session, runs `body`, and ends both even when `body` throws.
    static func with<T>(_ body: (HeadlessChromium) async throws -> T) async throws -> T {
        let browser = try await HeadlessChromium()
        do {
            let result = try await body(browser)
            await browser.quit()
            return result
        } catch {
            await browser.quit()
            throw error
        }
    }

    private init() async throws {
        guard let chromium = Self.chromium, let chromedriver = Self.chromedriver else {
            throw NotInstalled()
        }
        client = try HTTPClient()
        let port = try await Self.freePort()
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("parley-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = profile.appendingPathComponent("chromedriver.log")
        driver = try ChildProcess.launch(
            chromedriver, arguments: ["--port=\(port)", "--allowed-ips=127.0.0.1", "--log-path=\(log.path)"],
            output: .null, error: .null)
        base = "http://127.0.0.1:\(port)"
        // Ready when its status says so.
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let status = try? await client.execute(.get(base + "/status")),
                (try? JSONValue(parsing: Array(status.body)))?["value"]?["ready"]?.boolValue == true
            {
                break
            }
            guard driver.isRunning, ContinuousClock.now < deadline else {
                driver.send(SIGKILL)
                driver.waitForExit()
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw StartFailure(description: "chromedriver did not become ready:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let arguments: [JSONValue] = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions", "--window-size=1200,900", .string("--user-data-dir=\(profile.path)/profile"),
        ]
        let capabilities: JSONValue = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": ["binary": .string(chromium), "args": .array(arguments)],
                ]
            ]
        ]
        let created: JSONValue
        do {
            created = try await Self.call(client, .post, base + "/session", capabilities)
        } catch {
            driver.send(SIGKILL)
            driver.waitForExit()
            throw error
        }
        guard let id = created["value"]?["sessionId"]?.stringValue else {
            driver.send(SIGKILL)
            driver.waitForExit()
            throw StartFailure(description: "chromedriver made no session: \(created)")
        }
        session = id
    }

    deinit {
        driver.send(SIGKILL)
        driver.waitForExit()
        try? FileManager.default.removeItem(at: profile)
    }

    /// Ends the session and chromedriver.
    func quit() async {
        _ = try? await Self.call(client, .delete, base + "/session/\(session)", nil)
        driver.send(SIGTERM)
        _ = await offThePool { [driver] in driver.waitForExit() }
    }

    // MARK: - Commands

    /// Opens a URL and waits for its page to load.
    func open(_ url: String) async throws {
        _ = try await command(.post, "url", ["url": .string(url)])
    }

    /// The page's URL.
    func currentURL() async throws -> String {
        try await command(.get, "url", nil).stringValue ?? ""
    }

    /// Runs a script in the page (its body, which may `return` a value) and returns what it returned.
    func evaluate(_ script: String, _ arguments: [JSONValue] = []) async throws -> JSONValue {
        try await command(.post, "execute/sync", ["script": .string(script), "args": .array(arguments)])
    }

    /// Waits until a script returns `true` in the page, for at most `limit` (a click may return before the
    /// navigation it starts, such as a form's submission, has begun).
    ///
    /// - Returns: Whether it did.
    func wait(until script: String, limit: Duration = .seconds(30)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if (try? await evaluate(script)) == .bool(true) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The first element a CSS selector matches.
    func element(_ selector: String) async throws -> String {
        let found = try await command(.post, "element", ["using": "css selector", "value": .string(selector)])
        guard let id = found[Self.elementKey]?.stringValue else {
            throw WebDriverError(description: "no element matches \(selector): \(found)")
        }
        return id
    }

    /// Clicks an element, as a person would (it must be visible).
    func click(_ selector: String) async throws {
        let id = try await element(selector)
        _ = try await command(.post, "element/\(id)/click", [:])
    }

    /// Types text into an element.
    func type(_ text: String, into selector: String) async throws {
        let id = try await element(selector)
        _ = try await command(.post, "element/\(id)/value", ["text": .string(text)])
    }

    /// Presses a key, as on a keyboard, wherever the focus is (`"\u{E004}"` is Tab, `"\u{E007}"` Enter).
    func press(_ key: String) async throws {
        let actions: JSONValue = [
            "actions": [
                [
                    "type": "key", "id": "keyboard",
                    "actions": [
                        ["type": "keyDown", "value": .string(key)], ["type": "keyUp", "value": .string(key)],
                    ],
                ]
            ]
        ]
        _ = try await command(.post, "actions", actions)
    }

    /// A screenshot of the page, as PNG.
    func screenshot() async throws -> Data {
        let encoded = try await command(.get, "screenshot", nil).stringValue ?? ""
        return Data(base64Encoded: encoded) ?? Data()
    }

    private func command(_ method: HTTPMethod, _ path: String, _ body: JSONValue?) async throws -> JSONValue {
        try await Self.call(client, method, base + "/session/\(session)/" + path, body)["value"] ?? .null
    }

    private static func call(
        _ client: HTTPClient, _ method: HTTPMethod, _ url: String, _ body: JSONValue?
    ) async throws -> JSONValue {
        let request = HTTPRequest(
            method: method, url: url, headers: body == nil ? [:] : ["Content-Type": "application/json"],
            body: body.map { Data($0.jsonString().utf8) }, timeout: .seconds(60))
        let response = try await client.execute(request)
        let json = (try? JSONValue(parsing: Array(response.body))) ?? .null
        guard response.isSuccess else {
            throw WebDriverError(description: "\(method) \(url): \(response.status) \(response.bodyText.prefix(2_000))")
        }
        return json
    }

    /// A free port on loopback: a server listens on port 0, says which it got, and stops.
    static func freePort() async throws -> Int {
        let server = try HTTPServer(configuration: .init(port: 0), router: HTTPRouter())
        let port = server.port
        await server.stop()
        return port
    }

    /// The browser is demanded but not installed.
    struct NotInstalled: Error, CustomStringConvertible {
        var description: String { "chromium or chromedriver is not installed; \(HeadlessChromium.howToEnable)" }
    }

    /// The browser did not start.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A WebDriver command failed.
    struct WebDriverError: Error, CustomStringConvertible {
        var description: String
    }
}

