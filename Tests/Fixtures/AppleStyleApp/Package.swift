// swift-tools-version: 6.2
// Apple-style FoundationModels code (in App/, written here as code for Apple's framework is written: `import
// FoundationModels` and nothing of Parley's), built as two apps from the same files, each target holding symbolic
// links to them:
// - `apple-style-app-mainactor`, a new Xcode 26 app target: the main actor by default, approachable concurrency's
//   upcoming features and member import visibility;
// - `apple-style-app-nonisolated`, a package in Swift 6 mode, nonisolated by default.
// Each runs every check against `SystemLanguageModel.default` (PARLEY_MODEL: `scripted`, or a server's URL) and exits
// with status 1 when one fails. scripts/test builds it; ExamplesTests' AppleStyleAppTests runs both apps with the
// scripted model and with a loopback server.
//
// It links only Parley's FoundationModels product; its own warnings are errors.
import PackageDescription

/// Xcode 26's "Approachable Concurrency" setting: the upcoming features Swift 6 mode does not already have on.
let approachableConcurrency: [SwiftSetting] = [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"), .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "AppleStyleApp",
    dependencies: [
        .package(name: "Parley", path: "../../..")
    ],
    targets: [
        .executableTarget(
            name: "apple-style-app-mainactor",
            dependencies: [.product(name: "FoundationModels", package: "Parley")],
            path: "Sources/MainActorApp",
            swiftSettings: [
                .defaultIsolation(MainActor.self), .enableUpcomingFeature("MemberImportVisibility"),
                .treatAllWarnings(as: .error),
            ] + approachableConcurrency),
        .executableTarget(
            name: "apple-style-app-nonisolated",
            dependencies: [.product(name: "FoundationModels", package: "Parley")],
            path: "Sources/NonisolatedApp",
            swiftSettings: [.treatAllWarnings(as: .error)]),
    ],
    swiftLanguageModes: [.v6]
)
