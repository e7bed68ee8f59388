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
        .executable(name: "survey", targets: ["SurveyCLI"]),
    ],
    targets: [
        // The engine: survey model, question-type protocol and registry, expressions, flow.
        // Depends on nothing but Foundation; no terminal, file-system or network code.
        .target(name: "SurveyCore", swiftSettings: strictSettings),
        // Every built-in question kind, registered through SurveyCore's public API only.
        .target(name: "SurveyBuiltins", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        .executableTarget(
            name: "SurveyCLI",
            dependencies: ["SurveyCore", "SurveyBuiltins"],
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
    ]
)
