// swift-tools-version:6.0
// A plugin package of its own, outside the engine's package: how a team ships a Swift question
// type as a shared library. Build it with `swift build` here; load the library with
// `survey types --plugin .build/debug/libTriStatePlugin.so`. See docs/plugin-abi.md.
import PackageDescription

let package = Package(
    name: "tri-state-plugin",
    products: [
        // The shared library the engine loads with --plugin.
        .library(name: "TriStatePlugin", type: .dynamic, targets: ["TriStatePlugin"])
    ],
    dependencies: [
        // The engine's package: from a path here; a git URL and version in a real project.
        .package(name: "survey-engine", path: "../..")
    ],
    targets: [
        .target(
            name: "TriStatePlugin",
            dependencies: [
                .product(name: "SurveyCore", package: "survey-engine"),
                .product(name: "SurveyPluginSDK", package: "survey-engine"),
            ]
        )
    ]
)
