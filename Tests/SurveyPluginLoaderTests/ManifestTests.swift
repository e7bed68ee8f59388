import Foundation
import SurveyCore
import SurveyPluginLoader
import Testing

/// A plugin's manifest (`libNAME.plugin.json` beside `libNAME.so`) and `--plugin NAME` through
/// `SURVEY_PLUGIN_PATH` (docs/plugin-abi.md, "Distribute a plugin").
@Suite struct ManifestTests {
    /// The 1.0 legacy fixture compiled into a fresh directory as `liblegacy.so`.
    static func legacyLibrary() throws -> (directory: String, library: String) {
        let directory = try PluginFixtures.temporaryDirectory()
        let source = try String(
            contentsOfFile: ABICompatibilityTests.legacyDirectory + "/legacy_plugin.c", encoding: .utf8)
        let library = try PluginFixtures.compile(
            source, name: "liblegacy", in: directory, includeDirectory: ABICompatibilityTests.legacyDirectory)
        return (directory, library)
    }

    static func write(_ manifest: String, beside library: String) throws {
        try manifest.write(toFile: PluginManifest.path(forLibrary: library), atomically: true, encoding: .utf8)
    }

    @Test func theManifestPathReplacesTheSOSuffix() {
        #expect(PluginManifest.path(forLibrary: "/opt/p/libdemo.so") == "/opt/p/libdemo.plugin.json")
        #expect(PluginManifest.path(forLibrary: "plugin") == "plugin.plugin.json")
    }

    @Test func aManifestThatAgreesLoadsAndDescribesA10Plugin() throws {
        let (directory, library) = try Self.legacyLibrary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unchecked = try #require(try PluginLoader().load(paths: [library], environment: [:]).first)
        let declared = PluginManifest(describing: unchecked)
        #expect(declared.abi == "1.0")
        #expect(declared.name == "legacy")
        try Self.write(declared.json, beside: library)
        #expect(try PluginManifest.read(path: PluginManifest.path(forLibrary: library)) == declared)
        let plugins = try PluginLoader().load(paths: [library], environment: [:])
        #expect(plugins.map(\.name) == ["legacy"])
    }

    @Test(arguments: [
        ("name", #""other""#, #"field 'name' is "other" but the library LIB declares "legacy""#),
        ("abi", #""1.1""#, #"field 'abi' is "1.1" but the library LIB declares "1.0""#),
        (
            "kinds", #"["legacy-text", "extra"]"#,
            "field 'kinds' is [\"legacy-text\", \"extra\"] but the library LIB declares [\"legacy-text\"]"
        ),
        ("functions", "[]", "field 'functions' is [] but the library LIB declares [\"legacy_twice\"]"),
    ])
    func aManifestThatDisagreesIsRefusedNamingTheFileAndTheField(field: String, value: String, message: String)
        throws
    {
        let (directory, library) = try Self.legacyLibrary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unchecked = try #require(try PluginLoader().load(paths: [library], environment: [:]).first)
        var object = try #require(try JSONParser.parse(PluginManifest(describing: unchecked).json).objectValue)
        object[field] = try JSONParser.parse(value)
        try Self.write(JSONWriter.string(from: .object(object)), beside: library)
        let manifest = PluginManifest.path(forLibrary: library)
        for loader in [PluginLoader(), PluginLoader(isolation: PluginIsolation(executable: IsolationTests.host))] {
            let error = PluginFixtures.error { () throws(PluginError) in
                _ = try loader.load(paths: [library], environment: [:])
            }
            #expect(error?.kind == .invalidManifest)
            #expect(error?.path == manifest)
            let expected = message.replacingOccurrences(of: "LIB", with: library)
            #expect(error?.description.hasPrefix(manifest + ": " + expected) == true, "\(String(describing: error))")
        }
    }

    @Test func aMalformedManifestNamesTheField() throws {
        let (directory, library) = try Self.legacyLibrary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(#"{"name": "legacy", "version": 1}"#, beside: library)
        let error = PluginFixtures.error { () throws(PluginError) in
            _ = try PluginLoader().load(paths: [library], environment: [:])
        }
        #expect(
            error?.description == PluginManifest.path(forLibrary: library) + ": field 'version' must be a string")
        try Self.write("{", beside: library)
        let syntax = PluginFixtures.error { () throws(PluginError) in
            _ = try PluginLoader().load(paths: [library], environment: [:])
        }
        #expect(syntax?.kind == .invalidManifest)
        #expect(syntax?.message.hasPrefix("not valid JSON") == true)
    }

    @Test func aBareNameIsFoundInSurveyPluginPath() throws {
        let (directory, _) = try Self.legacyLibrary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = try PluginFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let environment = ["SURVEY_PLUGIN_PATH": empty + ":" + directory]
        let plugins = try PluginLoader().load(paths: ["legacy"], environment: environment)
        #expect(plugins.map(\.name) == ["legacy"])  // named and found by the directory scan: loaded once
        #expect(plugins.first?.path == directory + "/liblegacy.so")

        let missing = PluginFixtures.error { () throws(PluginError) in
            _ = try PluginLoader().load(paths: ["nothing"], environment: environment)
        }
        #expect(missing?.kind == .notFound)
        #expect(
            missing?.description
                == "nothing: plugin file not found (no such file, and no libnothing.so or nothing.so; searched SURVEY_PLUGIN_PATH: \(empty):\(directory))"
        )
    }
}
