// swift-tools-version: 6.2
// Parley: a game-integrated NPC dialogue engine. The layers and their arrows are described in
// docs/ARCHITECTURE.md; dependencies point down only, and each C library is wrapped by exactly one module.
//
// Tools version 6.2 or later, because the macro plugin below needs unsafe flags: from 6.2 on SwiftPM lets a package
// that depends on Parley build targets with unsafe flags (before, it refused: "the target 'LanguageModelsMacros' in
// product 'LanguageModels' contains unsafe build flags").
import CompilerPluginSupport
import Foundation
import PackageDescription

// MARK: - The toolchain's SwiftSyntax, for the @Generable macro plugin

/// The toolchain's `lib/swift/host` directory, which holds the SwiftSyntax modules and shared libraries the
/// compiler's own macro plugins use, or `nil` when this toolchain has none.
///
/// SwiftPM cannot fetch the swift-syntax package here, so `LanguageModelsMacros` builds against these instead. The
/// directory is found when the manifest runs, never written down: it is beside the `libPackageDescription.so` this
/// manifest is linked with (the toolchain building the package), else beside the `swift` found on `PATH`.
let toolchainHostLibraries: String? = {
    func hostDirectory(ofLibDirectory lib: URL) -> String? {
        let host = lib.appendingPathComponent("swift/host")
        let found =
            FileManager.default.fileExists(atPath: host.appendingPathComponent("libSwiftSyntax.so").path)
            && FileManager.default.fileExists(
                atPath: host.appendingPathComponent("SwiftSyntax.swiftmodule").path)
        return found ? host.path : nil
    }
    // `<toolchain>/usr/lib/swift/pm/ManifestAPI/libPackageDescription.so`, as mapped into this process.
    if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
        let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libPackageDescription.so") }),
        let start = line.firstIndex(of: "/")
    {
        let library = URL(fileURLWithPath: String(line[start...])).resolvingSymlinksInPath()
        let lib = library.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        if let host = hostDirectory(ofLibDirectory: lib) { return host }
    }
    // `<toolchain>/usr/bin/swift`.
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
        guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
        let lib = swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib")
        return hostDirectory(ofLibDirectory: lib)
    }
    return nil
}()

/// `LanguageModels` depends on the plugin when there is one.
let macroPlugin: [Target.Dependency] = toolchainHostLibraries == nil ? [] : ["LanguageModelsMacros"]

/// `GENERABLE_MACROS` where the plugin is built: `LanguageModels` declares the macros only then (a macro whose plugin
/// is missing is a warning where it is declared, so warnings-as-errors builds would fail), and the tests that use
/// them compile only then.
let macroSettings: [SwiftSetting] = toolchainHostLibraries == nil ? [] : [.define("GENERABLE_MACROS")]

/// The settings that build a module against the toolchain's SwiftSyntax: its modules' interfaces, its libraries,
/// and a run path to them, so that the plugin finds them when the compiler starts it.
let swiftSyntaxSettings: (swift: [SwiftSetting], linker: [LinkerSetting]) = {
    guard let host = toolchainHostLibraries else { return ([], []) }
    return (
        [.unsafeFlags(["-I", host])],
        [.unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host])]
            + [
                "SwiftSyntax", "SwiftSyntaxBuilder", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftParser",
                "SwiftSyntaxMacroExpansion", "SwiftCompilerPluginMessageHandling",
            ].map { .linkedLibrary($0) }
    )
}()

let package = Package(
    name: "Parley",
    products: [
        // MARK: - Libraries for game developers
        .library(name: "ParleyJSON", targets: ["ParleyJSON"]),
        .library(name: "LanguageModels", targets: ["LanguageModels"]),
        .library(name: "LanguageModelsTesting", targets: ["LanguageModelsTesting"]),
        .library(name: "FoundationModels", targets: ["FoundationModels"]),
        .library(name: "ParleySQLite", targets: ["ParleySQLite"]),
        .library(name: "ParleyHTTPTypes", targets: ["ParleyHTTPTypes"]),
        .library(name: "ParleyHTTP", targets: ["ParleyHTTP"]),
        .library(name: "ParleyServer", targets: ["ParleyServer"]),
        .library(name: "OpenAICompatible", targets: ["OpenAICompatible"]),
        .library(name: "GameWorld", targets: ["GameWorld"]),
        .library(name: "ContentPacks", targets: ["ContentPacks"]),
        .library(name: "ParleySpeech", targets: ["ParleySpeech"]),
        .library(name: "ParleySpeechServer", targets: ["ParleySpeechServer"]),
        .library(name: "NPCContract", targets: ["NPCContract"]),
        .library(name: "ScriptedModel", targets: ["ScriptedModel"]),
        .library(name: "SaveGames", targets: ["SaveGames"]),
        .library(name: "ParleyEngine", targets: ["ParleyEngine"]),
        .library(name: "ParleyHost", targets: ["ParleyHost"]),
        .library(name: "ParleyEvaluation", targets: ["ParleyEvaluation"]),
        .library(name: "ParleyModels", targets: ["ParleyModels"]),
        .library(name: "ParleyInspector", targets: ["ParleyInspector"]),

        // MARK: - Executables
        .executable(name: "parley", targets: ["parley"]),
        .executable(name: "transcript-tour", targets: ["TranscriptTour"]),
        .executable(name: "parley-bench", targets: ["parley-bench"]),
    ],
    // MARK: - Traits, none on by default: a package that depends on Parley enables one in its dependency,
    // `.package(url: ..., traits: ["FoundationModels26Errors"])`; here, `swift build --traits ...`.
    traits: [
        .trait(
            name: "FoundationModels26Errors",
            description: "Sessions throw Apple 26's LanguageModelSession.GenerationError, as apps built with Xcode 26 "
                + "receive it, instead of Apple 27's LanguageModelError, LanguageModelSession.Error, "
                + "SystemLanguageModel.Error and GeneratedContent.ParsingError; GenerationError is then not "
                + "deprecated (docs/porting.md)."),
    ],
    targets: [
        // MARK: - ParleyBasics: the small helpers every layer shares (did-you-mean suggestions, saturating integer
        // arithmetic, durations in milliseconds); no dependencies
        .target(name: "ParleyBasics"),
        .testTarget(name: "ParleyBasicsTests", dependencies: ["ParleyBasics"]),

        // MARK: - ParleyJSON: an ordered, lossless JSON tree shared by every format
        .target(name: "ParleyJSON"),
        .testTarget(name: "ParleyJSONTests", dependencies: ["ParleyJSON"]),

        // MARK: - LanguageModels: Apple's FoundationModels session and transcript API, no I/O; its @Generable and
        // @Guide macros are expanded by LanguageModelsMacros, a compiler plugin SwiftPM builds and hands to every
        // module that imports LanguageModels (docs/generable.md)
        .target(
            name: "LanguageModels", dependencies: ["ParleyBasics", "ParleyJSON"] + macroPlugin,
            swiftSettings: macroSettings),
        .target(name: "LanguageModelsTesting", dependencies: ["LanguageModels"]),
        .testTarget(
            name: "LanguageModelsTests", dependencies: ["LanguageModels", "LanguageModelsTesting", "ParleyJSON"],
            resources: [.copy("Fixtures")], swiftSettings: macroSettings),

        // MARK: - ChildProcess: posix_spawn for the tests, benchmarks and test servers that run programs (Foundation's
        // Process.run() on Linux can crash the whole test process; see Sources/ChildProcess)
        .target(name: "ChildProcess"),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess"]),

        // MARK: - SQLite: the system libsqlite3 (imported only by ParleySQLite) and a small Swift layer over it
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "ParleySQLite", dependencies: ["CSQLite", "ParleyBasics"]),
        .testTarget(name: "ParleySQLiteTests", dependencies: ["ParleySQLite", "ChildProcess", "ParleyBasics"]),

        // MARK: - ParleyHTTPTypes: what the HTTP client and server share (header fields with one credential list and
        // one case folding, methods, server-sent events); no C module, no Foundation
        .target(name: "ParleyHTTPTypes", dependencies: ["ParleyBasics"]),
        .testTarget(name: "ParleyHTTPTypesTests", dependencies: ["ParleyHTTPTypes"]),

        // MARK: - HTTP: the system libcurl (imported only by ParleyHTTP), an async client over it, and a loopback
        // test server for fault injection
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "ParleyHTTP", dependencies: ["CCurl", "ParleyHTTPTypes", "ParleyBasics"]),
        .target(name: "HTTPTestSupport", dependencies: ["ParleyBasics"]),
        .testTarget(name: "ParleyHTTPTests", dependencies: ["ParleyHTTP", "HTTPTestSupport"]),

        // MARK: - ParleyServer: an HTTP/1.1 server over POSIX sockets (keep-alive, chunked bodies, server-sent events,
        // limits and timeouts, problem+json, bearer tokens) for `parley serve`; no game logic, no C module
        .target(name: "ParleyServer", dependencies: ["ParleyHTTPTypes", "ParleyJSON", "ParleyBasics"]),
        .testTarget(
            name: "ParleyServerTests", dependencies: ["ParleyServer", "ParleyHTTP", "ParleyJSON", "HTTPTestSupport"]),

        // MARK: - OpenAICompatible: a LanguageModel for llama-server, Ollama, vLLM and OpenAI, over ParleyHTTP
        .target(
            name: "OpenAICompatible", dependencies: ["LanguageModels", "ParleyHTTP", "ParleyJSON", "ParleyBasics"]),
        .target(name: "LLMTestSupport", dependencies: ["ParleyHTTP", "ChildProcess"]),
        .testTarget(
            name: "OpenAICompatibleTests",
            dependencies: [
                "OpenAICompatible", "LanguageModels", "LanguageModelsTesting", "ParleyHTTP", "HTTPTestSupport",
                "LLMTestSupport", "ParleyJSON", "ChildProcess",
            ]),

        // MARK: - FoundationModels: Apple's `import FoundationModels` on Linux (LanguageModels and Foundation re-exported,
        // SystemLanguageModel configured by code or PARLEY_MODEL, ScriptedLanguageModel for PARLEY_MODEL=scripted);
        // compiles to nothing on Apple platforms
        .target(name: "FoundationModels", dependencies: ["LanguageModels", "OpenAICompatible", "ParleyJSON"]),
        .testTarget(
            name: "FoundationModelsTests", dependencies: ["FoundationModels", "HTTPTestSupport"],
            swiftSettings: macroSettings),

        // MARK: - GameWorld: the world model (world, player, items, NPCs, trade rules, events, dialogue rules, the
        // lexicon with its built-in languages); pure Swift, no I/O
        .target(
            name: "GameWorld", dependencies: ["ParleyJSON", "ParleyBasics"],
            resources: [.embedInCode("Resources/lexicon.en.json"), .embedInCode("Resources/lexicon.de.json")]),
        .testTarget(
            name: "GameWorldTests",
            dependencies: ["GameWorld", "GameWorldFixtures", "ContentPacks", "SyntheticWorlds"]),

        // MARK: - ContentPacks: content packs read from files and checked (`parley content check`), and the
        // evaluation corpus format (`eval/*.jsonl`), over GameWorld
        .target(name: "ContentPacks", dependencies: ["GameWorld", "ParleyJSON", "ParleyBasics"]),
        .testTarget(
            name: "ContentPacksTests",
            dependencies: ["ContentPacks", "GameWorld", "GameWorldFixtures", "SyntheticWorlds", "ParleyJSON"],
            exclude: ["Fixtures"]),
        // The small worlds and packs that GameWorldTests and ContentPacksTests share (`TestWorld`, `StoryPack`)
        .target(name: "GameWorldFixtures", dependencies: ["GameWorld", "ContentPacks"]),

        // MARK: - SyntheticWorlds: large content packs made from a seed, for the benchmarks, fuzzers and scale tests
        .target(name: "SyntheticWorlds", dependencies: ["GameWorld", "ContentPacks", "ParleyJSON"]),

        // MARK: - NPCContract: what the engine and every model say to each other (tool names, arguments and outputs,
        // witnessed events, the game context), as types with one encoding each
        .target(name: "NPCContract", dependencies: ["GameWorld", "LanguageModels", "ParleyJSON"]),
        .testTarget(
            name: "NPCContractTests", dependencies: ["NPCContract", "GameWorld", "ContentPacks", "LanguageModels"]),

        // MARK: - ScriptedModel: the embedded default LanguageModel, playing each NPC from its content's dialogue rules
        .target(
            name: "ScriptedModel",
            dependencies: ["LanguageModels", "GameWorld", "NPCContract", "ParleyJSON", "ParleyBasics"]),
        .testTarget(
            name: "ScriptedModelTests",
            dependencies: [
                "ScriptedModel", "NPCContract", "ParleyEngine", "LanguageModels", "GameWorld", "ContentPacks",
                "ParleyJSON",
            ],
            exclude: ["Goldens"]),

        // MARK: - SaveGames: one SQLite save file per slot (game state, annotated transcripts, feedback), over
        // ParleySQLite; `save-stress` is the writer the crash-safety test kills with SIGKILL
        .target(
            name: "SaveGames",
            dependencies: ["ParleySQLite", "GameWorld", "LanguageModels", "ParleyJSON", "ParleyBasics"]),
        .executableTarget(
            name: "save-stress",
            dependencies: ["SaveGames", "ParleySQLite", "GameWorld", "SyntheticWorlds", "LanguageModels", "ParleyJSON"],
            path: "Sources/SaveStress"),
        .testTarget(
            name: "SaveGamesTests",
            dependencies: [
                "SaveGames", "save-stress", "ParleySQLite", "GameWorld", "SyntheticWorlds", "LanguageModels",
                "ParleyJSON", "ChildProcess", "ParleyBasics",
            ],
            exclude: ["Fixtures"]),

        // MARK: - ParleyEngine: one session per NPC, NPC tools bound to the game state, the turn loop; no saves
        .target(
            name: "ParleyEngine",
            dependencies: ["LanguageModels", "GameWorld", "NPCContract", "ParleyJSON", "ParleyBasics"]),

        // MARK: - ParleyHost: a game with its saves (autosave, load, save slots, turn recordings in save files)
        .target(
            name: "ParleyHost",
            dependencies: ["ParleyEngine", "SaveGames", "GameWorld", "ContentPacks", "LanguageModels", "ParleyJSON"]),

        // MARK: - ParleyEvaluation: evaluation corpora, conversation tests and replays of recorded turns
        .target(
            name: "ParleyEvaluation",
            dependencies: [
                "ParleyEngine", "GameWorld", "ContentPacks", "NPCContract", "LanguageModels", "ParleyJSON",
                "ParleyBasics",
            ]),
        // `random-ids` makes every kind of id with every file descriptor taken, for RandomIDTests
        .executableTarget(
            name: "random-ids", dependencies: ["ParleyEngine", "LanguageModels", "GameWorld", "ParleyJSON"],
            path: "Sources/RandomIDs"),
        .testTarget(
            name: "ParleyEngineTests",
            dependencies: [
                "ParleyEngine", "LanguageModels", "LanguageModelsTesting", "GameWorld", "ContentPacks", "SaveGames",
                "ScriptedModel", "OpenAICompatible", "LLMTestSupport", "ParleyJSON", "NPCContract", "random-ids",
                "ChildProcess", "ParleyHost", "ParleyEvaluation", "SyntheticWorlds",
            ]),

        // MARK: - ParleyModels: the backends an app offers (`--model scripted` or a server's URL), chosen by the app
        // and handed to the engine as a model provider, so that the engine links no HTTP
        .target(
            name: "ParleyModels",
            dependencies: ["LanguageModels", "OpenAICompatible", "ScriptedModel", "GameWorld", "ParleyEngine"]),
        .testTarget(name: "ParleyModelsTests", dependencies: ["ParleyModels", "HTTPTestSupport"]),

        // MARK: - ParleyInspector: saves, conversations, feedback and replays in a browser (`/inspect`), rendered on the
        // server as HTML with its stylesheet and script as resources, over JSON under /v1/saves
        .target(
            name: "ParleyInspector",
            dependencies: [
                "ParleyEngine", "ParleyHost", "ParleyEvaluation", "SaveGames", "LanguageModels", "GameWorld",
                "NPCContract", "ParleyJSON", "ParleyServer", "ParleyBasics",
            ],
            resources: [.embedInCode("Resources/inspector.css"), .embedInCode("Resources/inspector.js")]),
        .testTarget(
            name: "ParleyInspectorTests",
            dependencies: [
                "ParleyInspector", "ParleyEngine", "SaveGames", "LanguageModels", "LanguageModelsTesting", "GameWorld",
                "ContentPacks", "ScriptedModel", "ParleyJSON", "ParleyServer", "ParleyHTTP", "ChildProcess", "parley",
                "ParleyHost", "ParleyBasics",
            ]),

        // MARK: - The game over HTTP: what `parley serve` says to games in any language
        .target(
            name: "ParleyAPI",
            dependencies: [
                "ParleyEngine", "GameWorld", "LanguageModels", "ParleyJSON", "SaveGames", "ParleyServer",
                "ParleyInspector", "ParleyBasics", "ParleyHost", "ParleySpeech",
            ]),
        .testTarget(
            name: "ParleyAPITests",
            dependencies: [
                "ParleyAPI", "ParleyEngine", "GameWorld", "ContentPacks", "ParleyJSON", "SaveGames", "ScriptedModel",
                "ParleyServer", "ParleyHTTP", "LanguageModels", "LanguageModelsTesting", "ParleySpeech",
                "GameWorldFixtures", "HTTPTestSupport",
            ]),

        // MARK: - Speech: NPC lines spoken with espeak-ng, loaded at run time (dlopen) so that the package builds and
        // everything else works without it; WAV files and visemes for lip sync
        .target(name: "ParleySpeech", dependencies: ["GameWorld", "ParleyBasics"]),
        .testTarget(
            name: "ParleySpeechTests",
            dependencies: ["ParleySpeech", "GameWorld", "ContentPacks", "ParleyJSON", "GameWorldFixtures"]),
        // Any OpenAI-compatible speech server (`/v1/audio/speech`) over the HTTP client: a module of its own, so that a
        // game speaking with espeak-ng alone links no libcurl
        .target(
            name: "ParleySpeechServer", dependencies: ["ParleySpeech", "ParleyHTTP", "ParleyJSON", "ParleyBasics"]),
        .testTarget(
            name: "ParleySpeechServerTests",
            dependencies: ["ParleySpeechServer", "ParleySpeech", "HTTPTestSupport", "ParleyHTTP"]),

        // MARK: - Executables: hand-written argument parsing shared by every command line tool, and `parley`
        .target(name: "CommandLineKit", dependencies: ["ParleyBasics"]),
        .executableTarget(
            name: "parley",
            dependencies: [
                "CommandLineKit", "GameWorld", "ContentPacks", "ParleyEngine", "ParleyHost", "ParleyEvaluation",
                "ParleyModels", "SaveGames", "LanguageModels", "ParleyJSON", "ParleyAPI", "ParleyServer",
                "ParleyInspector", "ParleyBasics", "ParleySpeech", "ParleySpeechServer", "ChildProcess",
            ]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(
            name: "ParleyCLITests",
            dependencies: [
                "parley", "ChildProcess", "LLMTestSupport", "ParleyJSON", "ParleyHTTP", "HTTPTestSupport",
                "ParleySpeech", "ParleyBasics", "CommandLineKit", "ParleyAPI",
            ],
            exclude: ["Goldens"]),

        // MARK: - Benchmarks and reliability: `parley-bench`, and the seeded fuzzers it shares with ReliabilityTests
        .target(
            name: "ParleyFuzz",
            dependencies: [
                "LanguageModels", "LanguageModelsTesting", "GameWorld", "ContentPacks", "SyntheticWorlds", "SaveGames",
                "ParleySQLite", "ParleyHTTP", "OpenAICompatible", "HTTPTestSupport", "ParleyJSON", "ParleyEngine",
                "ParleyHost", "ParleyAPI", "ParleyServer",
            ]),
        .executableTarget(
            name: "parley-bench",
            dependencies: [
                "CommandLineKit", "ParleyFuzz", "ParleyEngine", "ParleyHost", "SaveGames", "ParleySQLite", "GameWorld",
                "ContentPacks", "SyntheticWorlds", "NPCContract", "LanguageModels", "ScriptedModel", "OpenAICompatible",
                "LLMTestSupport", "ParleyJSON", "ParleyBasics", "ChildProcess", "ParleyAPI", "ParleyServer",
                "ParleyHTTP", "ParleySpeech", "ParleyEvaluation",
            ]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "ParleyFuzz", "ParleyEngine", "LanguageModels", "LanguageModelsTesting", "GameWorld", "ContentPacks",
                "SyntheticWorlds", "SaveGames", "ScriptedModel", "OpenAICompatible", "HTTPTestSupport", "ParleyJSON",
                "parley", "ChildProcess", "ParleyBasics", "ParleyHost", "ParleyEvaluation",
            ]),

        // MARK: - ArchitectureTests: docs/ARCHITECTURE.md's table of modules against Package.swift and the imports
        // (reads both files from the package's root; depends on nothing)
        .testTarget(name: "ArchitectureTests"),

        // MARK: - Examples
        .executableTarget(
            name: "TranscriptTour", dependencies: ["LanguageModels", "LanguageModelsTesting"],
            path: "Examples/TranscriptTour"),
        // A sample written for Apple's FoundationModels (in FoundationModels/, not compiled), built unchanged against
        // the FoundationModels module, its model set by PARLEY_MODEL. It keeps the sample's 26-era
        // `catch ... as GenerationError`, which Apple 27 deprecates, so here as there that use warns instead of
        // failing the build (docs/porting.md).
        .executableTarget(
            name: "itinerary-planner", dependencies: ["FoundationModels"],
            path: "Examples/ItineraryPlanner", exclude: ["FoundationModels", "README.md"],
            swiftSettings: [.treatWarning("DeprecatedDeclaration", as: .warning)]),
        .testTarget(
            name: "ExamplesTests", dependencies: ["itinerary-planner", "ChildProcess", "HTTPTestSupport", "ParleyJSON"]),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - The macro plugin, where the toolchain has SwiftSyntax for it (every Linux toolchain does; elsewhere the
// package builds without it, and without the macros: @Generable is then an unknown attribute). What the macros write is in LanguageModelsMacroSupport, a library, so that its tests depend on a
// library: a test target that depends on a macro makes SwiftPM build every test target a second time for the host,
// where executables such as `parley` cannot be imported by their tests.
if toolchainHostLibraries != nil {
    package.targets += [
        .target(
            name: "LanguageModelsMacroSupport", swiftSettings: swiftSyntaxSettings.swift,
            linkerSettings: swiftSyntaxSettings.linker),
        .macro(
            name: "LanguageModelsMacros", dependencies: ["LanguageModelsMacroSupport"],
            swiftSettings: swiftSyntaxSettings.swift, linkerSettings: swiftSyntaxSettings.linker),
        .testTarget(
            name: "LanguageModelsMacrosTests", dependencies: ["LanguageModelsMacroSupport"],
            swiftSettings: swiftSyntaxSettings.swift, linkerSettings: swiftSyntaxSettings.linker),
    ]
    // MARK: - GenerableIsolation…Tests: one file of Apple-style `@Generable` code (in the MainActor target; the others
    // hold a symbolic link to it), compiled and run under each isolation and language mode apps use: what the macros
    // write must hold in all of them (docs/generable.md)
    let fixtureDependencies: [Target.Dependency] = ["FoundationModels", "LanguageModelsTesting"]
    /// Xcode 26's "Approachable Concurrency" setting: the upcoming features Swift 6 mode does not already have on.
    let approachableConcurrency: [SwiftSetting] = [
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"), .enableUpcomingFeature("InferIsolatedConformances"),
    ]
    /// What Swift 6 mode has on and an Xcode project in Swift 5 mode turns on too (approachable concurrency's
    /// remaining features, and bare `/regex/` literals).
    let swift5ProjectFeatures: [SwiftSetting] = [
        .enableUpcomingFeature("DisableOutwardActorInference"),
        .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
        .enableUpcomingFeature("InferSendableFromCaptures"), .enableUpcomingFeature("BareSlashRegexLiterals"),
    ]
    package.targets += [
        // A new Xcode 26 app target in Swift 6 mode: the main actor by default, approachable concurrency, and member
        // import visibility.
        .testTarget(
            name: "GenerableIsolationMainActorTests", dependencies: fixtureDependencies,
            swiftSettings: [.defaultIsolation(MainActor.self), .enableUpcomingFeature("MemberImportVisibility")]
                + approachableConcurrency),
        // A new Xcode 26 app target as the template makes it: the same, in Swift 5 mode.
        .testTarget(
            name: "GenerableIsolationSwift5MainActorTests", dependencies: fixtureDependencies,
            swiftSettings: [
                .swiftLanguageMode(.v5), .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("MemberImportVisibility"),
            ] + approachableConcurrency + swift5ProjectFeatures),
        // An older project in Swift 5 mode, nonisolated by default.
        .testTarget(
            name: "GenerableIsolationSwift5Tests", dependencies: fixtureDependencies,
            swiftSettings: [.swiftLanguageMode(.v5), .enableUpcomingFeature("BareSlashRegexLiterals")]),
        // A package in Swift 6 mode, nonisolated by default, as Parley's own targets are.
        .testTarget(name: "GenerableIsolationNonisolatedTests", dependencies: fixtureDependencies),
    ]
}

// MARK: - Warnings are errors in every target of this package (SwiftPM ignores these settings in packages that depend
// on Parley), so that a plain `swift build` holds the same line as CI; the Apple sample's port keeps its deprecation
// warnings, set after this, as on Apple platforms.
for target in package.targets where target.type != .system {
    target.swiftSettings = [.treatAllWarnings(as: .error)] + (target.swiftSettings ?? [])
}
