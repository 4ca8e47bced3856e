// swift-tools-version: 6.2
// An app written for Apple's FoundationModels 26, with 26-era `catch` clauses of
// `LanguageModelSession.GenerationError`, that depends on Parley with the `FoundationModels26Errors` trait, as an app
// keeping Xcode 26's errors would. ExamplesTests' GenerationError26TraitTests builds and runs it.
//
// It links only the products it needs (FoundationModels, and LanguageModelsTesting for its mock model), and its own
// warnings are errors: a deprecation warning on `GenerationError` (the trait's job is to lift it) fails its build.
import PackageDescription

let package = Package(
    name: "GenerationError26",
    dependencies: [
        .package(name: "Parley", path: "../../..", traits: ["FoundationModels26Errors"])
    ],
    targets: [
        .executableTarget(
            name: "generation-error-26",
            dependencies: [
                .product(name: "FoundationModels", package: "Parley"),
                .product(name: "LanguageModelsTesting", package: "Parley"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)])
    ],
    swiftLanguageModes: [.v6]
)
