import Foundation
import ParleyServer

/// A folder's files served over HTTP on a free loopback port, as any static file server serves a web page (`python3
/// -m http.server`): `GET /` is `index.html`, `GET /NAME` a file of the folder, with its media type. The web example's
/// browser tests open its page from here, an origin other than `parley serve`'s.
final class StaticSite: Sendable {
    /// The media types of the files a web page is made of.
    static let mediaTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    ]

    private let server: HTTPServer

    /// The site's origin, `http://127.0.0.1:PORT`, as a browser sends it in `Origin`.
    var origin: String { server.baseURL }

    /// Serves a folder's files (not its subfolders), read when asked for.
    ///
    /// - Parameter folder: The folder.
    /// - Throws: `HTTPServerError` when the server cannot listen.
    init(folder: URL) throws {
        let serve: @Sendable (String) -> HTTPServerResponse = { name in
            let file = folder.appendingPathComponent(name)
            guard !name.hasPrefix("."), let type = Self.mediaTypes[file.pathExtension],
                let contents = try? Data(contentsOf: file)
            else { return .text("Not found: /\(name)", status: .notFound) }
            return .bytes(contents, contentType: type, headers: ["Cache-Control": "no-store"])
        }
        var router = HTTPRouter()
        router.get("/") { _ in serve("index.html") }
        router.get("/{file}") { request in serve(request.pathParameters["file"] ?? "") }
        server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), router: router)
    }

    /// Stops serving.
    func stop() async { await server.stop() }

    /// Serves a folder while `body` runs, and stops even when it throws.
    static func with<T>(folder: URL, _ body: (StaticSite) async throws -> T) async throws -> T {
        let site = try StaticSite(folder: folder)
        do {
            let result = try await body(site)
            await site.stop()
            return result
        } catch {
            await site.stop()
            throw error
        }
    }
}
