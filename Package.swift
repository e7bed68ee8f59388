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
        .library(name: "SurveyResponses", targets: ["SurveyResponses"]),
        .library(name: "SurveyStoreSQLite", targets: ["SurveyStoreSQLite"]),
        .library(name: "SurveyStorePostgres", targets: ["SurveyStorePostgres"]),
        .library(name: "SurveyAnalysis", targets: ["SurveyAnalysis"]),
        .library(name: "SurveyImport", targets: ["SurveyImport"]),
        .library(name: "SurveyDelivery", targets: ["SurveyDelivery"]),
        .library(name: "SurveyReports", targets: ["SurveyReports"]),
        .library(name: "SurveyServer", targets: ["SurveyServer"]),
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
        // Static analysis of compiled surveys: lint rules, the flow graph and its export.
        .target(name: "SurveyAnalysis", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        // SurveyJS surveys → this engine's format, with a note for everything not carried over.
        .target(name: "SurveyImport", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        // Responses: the ResponseStore protocol, the response and funnel model, the recorder that
        // observes a session, the in-memory store and the conformance suite every store passes.
        .target(name: "SurveyResponses", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        // The logic of the SQL response stores, written once over a small connection protocol: the write
        // path, reads, deletion and the delivery outbox (no product: SQLite's and PostgreSQL's store use it).
        .target(
            name: "SurveyStoreSQL", dependencies: ["SurveyCore", "SurveyResponses"], swiftSettings: strictSettings),
        // SQLite (Debian libsqlite3-dev), for the embedded default store.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The embedded default response store, on SQLite in WAL mode.
        .target(
            name: "SurveyStoreSQLite", dependencies: ["SurveyCore", "SurveyResponses", "SurveyStoreSQL", "CSQLite"],
            swiftSettings: strictSettings),
        // libpq, the PostgreSQL client library (Debian libpq-dev).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The response store for many collectors, on PostgreSQL (same schema and semantics as SQLite's).
        .target(
            name: "SurveyStorePostgres", dependencies: ["SurveyCore", "SurveyResponses", "SurveyStoreSQL", "CLibPQ"],
            swiftSettings: strictSettings),
        // Delivery: remote survey sources and fetched choice lists through an HTTP cache
        // (URLSession / FoundationNetworking, libcurl).
        .target(
            name: "SurveyDelivery", dependencies: ["SurveyCore", "SurveyResponses"], swiftSettings: strictSettings),
        // Reports: results per question (the types' summaries), funnel, paths; HTML with inline SVG, JSON.
        .target(
            name: "SurveyReports", dependencies: ["SurveyCore", "SurveyResponses"], swiftSettings: strictSettings),
        // GNU libmicrohttpd, the HTTP server library (Debian libmicrohttpd-dev).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // `survey serve`: the JSON-event protocol over HTTP (and the web front end), on libmicrohttpd;
        // the only code that calls it.
        .target(
            name: "SurveyServer",
            dependencies: ["SurveyCore", "SurveyRendering", "SurveyResponses", "SurveyReports", "CMicroHTTPD"],
            swiftSettings: strictSettings),
        // The `survey` command: a thin shell over the libraries.
        .executableTarget(
            name: "SurveyCLI",
            dependencies: [
                "SurveyCore", "SurveyBuiltins", "SurveyRendering", "SurveyPluginLoader", "SurveyResponses",
                "SurveyStoreSQLite", "SurveyStorePostgres", "SurveyAnalysis", "SurveyImport", "SurveyDelivery",
                "SurveyReports", "SurveyServer", "SurveyPluginTemplates",
            ],
            swiftSettings: strictSettings
        ),
        // Benchmarks: a generator of large branching surveys and a benchmark program.
        .executableTarget(
            name: "SurveyBench",
            dependencies: [
                "SurveyCore", "SurveyBuiltins", "SurveyImport", "SurveyResponses", "SurveyReports",
                "SurveyStoreSQLite", "SurveyStorePostgres", "SurveyAnalysis",
            ],
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
            name: "SurveyResponsesTests",
            dependencies: [
                "SurveyCore", "SurveyBuiltins", "SurveyRendering", "SurveyResponses", "SurveyStoreSQLite",
                "SurveyStorePostgres", "CLibPQ", "CSQLite", "SurveyTestFixtures",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyDeliveryTests",
            dependencies: [
                "SurveyCore", "SurveyBuiltins", "SurveyDelivery", "SurveyResponses", "SurveyStoreSQLite",
                "SurveyTestFixtures",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyReportsTests",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyResponses", "SurveyReports"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyServerTests",
            dependencies: [
                "SurveyCore", "SurveyBuiltins", "SurveyRendering", "SurveyResponses", "SurveyServer",
                "SurveyStoreSQL", "SurveyStoreSQLite", "SurveyTestFixtures",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyImportTests",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyImport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyAnalysisTests",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyAnalysis", "SurveyImport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SurveyCLITests",
            dependencies: ["SurveyCLI", "SurveyTestFixtures", "SurveyCore", "SurveyResponses", "SurveyStoreSQLite"],
            swiftSettings: strictSettings
        ),
        // -- Dynamic plugins (C ABI, loader, SDK, examples) --
        // The versioned C ABI between the engine and plugin shared libraries (header only; install
        // `include/survey_plugin.h` for C authors). Documented in docs/plugin-abi.md.
        .target(name: "CSurveyPluginABI"),
        // libffi, for calling plugin expression functions whose signatures are known only at run time.
        .systemLibrary(name: "CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        // The JSON messages both sides of the ABI exchange (results, errors, summaries, contexts).
        .target(name: "SurveyPluginMessages", dependencies: ["SurveyCore"], swiftSettings: strictSettings),
        // The loader: the only code that calls dlopen/dlsym/libffi.
        .target(
            name: "SurveyPluginLoader",
            dependencies: ["SurveyCore", "SurveyPluginMessages", "CSurveyPluginABI", "CFFI"],
            swiftSettings: strictSettings
        ),
        // The SDK for plugins written in Swift: conform to QuestionType, add one export line.
        .target(
            name: "SurveyPluginSDK",
            dependencies: ["SurveyCore", "SurveyPluginMessages", "CSurveyPluginABI"],
            swiftSettings: strictSettings
        ),
        // `survey plugin new`: the files of a new plugin's folder (C or Swift), ready to build and test.
        .target(name: "SurveyPluginTemplates", swiftSettings: strictSettings),
        .testTarget(
            name: "SurveyPluginTemplatesTests", dependencies: ["SurveyPluginTemplates"], swiftSettings: strictSettings),
        // Example plugins, each built as a shared library by `swift build`.
        .target(
            name: "ColorPicker",
            dependencies: ["SurveyCore", "SurveyPluginSDK"],
            path: "Plugins/ColorPicker",
            swiftSettings: strictSettings
        ),
        .target(
            name: "CStarPlugin",
            dependencies: ["CSurveyPluginABI"],
            path: "Plugins/CStarPlugin",
            publicHeadersPath: "."
        ),
        .target(
            name: "HealthFunctions",
            dependencies: ["CSurveyPluginABI"],
            path: "Plugins/HealthFunctions",
            publicHeadersPath: "."
        ),
        // Fuzz targets (Tests/fuzz.sh runs them under libFuzzer; the tests replay their corpus).
        .target(
            name: "SurveyFuzzTargets",
            dependencies: ["SurveyCore", "SurveyBuiltins", "SurveyRendering", "SurveyImport"],
            path: "Tests/Fuzz/SurveyFuzzTargets", swiftSettings: strictSettings),
        .executableTarget(
            name: "SurveyFuzz", dependencies: ["SurveyFuzzTargets"], path: "Tests/Fuzz/SurveyFuzz",
            swiftSettings: strictSettings),
        .testTarget(
            name: "SurveyFuzzTests", dependencies: ["SurveyCore", "SurveyFuzzTargets"], swiftSettings: strictSettings),
        // Test-only helpers shared by test targets (no product: never seen downstream).
        .target(name: "SurveyTestFixtures", path: "Tests/SurveyTestFixtures", swiftSettings: strictSettings),
        .testTarget(
            name: "SurveyPluginLoaderTests",
            dependencies: ["SurveyCore", "SurveyPluginLoader", "SurveyPluginMessages", "SurveyTestFixtures"],
            swiftSettings: strictSettings
        ),
        // Cost of a plugin normalize call and a libffi function call against the same logic built in.
        .executableTarget(
            name: "PluginBench",
            dependencies: ["SurveyCore", "SurveyPluginLoader"],
            path: "Benchmarks/PluginBench",
            swiftSettings: strictSettings
        ),
    ]
)

// -- Dynamic plugins: each example and test plugin is a shared library (lib<Name>.so in the bin path).
// The deliberately broken plugins of the tests (Tests/PluginFixtures/) are no products: the tests
// compile them with `cc` when they need them, so a downstream package sees only real libraries.
package.products += ["ColorPicker", "CStarPlugin", "HealthFunctions"].map {
    Product.library(name: $0, type: .dynamic, targets: [$0])
}
package.products += [
    .library(name: "SurveyPluginLoader", targets: ["SurveyPluginLoader"]),
    .library(name: "SurveyPluginSDK", targets: ["SurveyPluginSDK"]),
]
