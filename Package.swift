// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "survey-engine",
    products: [
        .library(name: "SurveyCore", targets: ["SurveyCore"]),
        .library(name: "SurveyBuiltins", targets: ["SurveyBuiltins"]),
        .library(name: "SurveyRendering", targets: ["SurveyRendering"]),
        .library(name: "SurveyTestKit", targets: ["SurveyTestKit"]),
        .executable(name: "survey", targets: ["SurveyCLI"]),
    ],
    targets: [
        // The engine: survey model, question-type protocol and registry, expressions, flow.
        // Depends on nothing but Foundation; no terminal, file-system or network code.
        .target(name: "SurveyCore", swiftSettings: strictSettings),
        // Every built-in question kind, registered through SurveyCore's public API only.
        .target(name: "SurveyBuiltins", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        // The renderer protocol and the text, JSON-event and headless front ends.
        .target(name: "SurveyRendering", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        // Helpers to test surveys from XCTest or Swift Testing.
        .target(
            name: "SurveyTestKit",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyRendering"],
            swiftSettings: strictSettings
        ),
        // The `survey` command: a thin shell over the libraries.
        .executableTarget(
            name: "SurveyCLI",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyRendering"],
            swiftSettings: strictSettings
        ),
        // Benchmarks: a generator of large branching surveys and a benchmark program.
        .executableTarget(
            name: "SurveyBench",
            dependencies: ["SurveyCore", "SurveyBuiltins"],
            path: "Benchmarks/SurveyBench",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyCoreTests",
            dependencies: ["SurveyCore", "SurveyBuiltins"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyBuiltinsTests",
            dependencies: ["SurveyCore", "SurveyBuiltins"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyRenderingTests",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyRendering", "SurveyTestKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyCLITests",
            dependencies: ["SurveyCLI"],
            swiftSettings: strictSettings
        ),
        // -- Dynamic plugins (C ABI, loader, SDK, examples) --
    ]
)
