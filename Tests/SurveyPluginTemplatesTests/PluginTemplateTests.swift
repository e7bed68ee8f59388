import Foundation
import SurveyPluginTemplates
import Testing

/// The files of `survey plugin new` (building and testing a generated plugin is end to end, in
/// SurveyCLITests' PluginNewTests and, for Swift, in .ci/run).
@Suite("Plugin templates")
struct PluginTemplateTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCopiedHeaderIsTheABIHeaderByteForByte() throws {
        let header = try String(
            contentsOf: Self.repositoryRoot.appendingPathComponent("Sources/CSurveyPluginABI/include/survey_plugin.h"),
            encoding: .utf8)
        let template = try PluginTemplate(name: "demo", language: .c)
        let copied = try #require(template.files.first { $0.path == "survey_plugin.h" })
        #expect(copied.contents == header, "run python3 scripts/abi-header.py")
    }

    @Test func aCPluginHasItsSourceHeaderMakefileSurveyScriptsAndReadme() throws {
        let template = try PluginTemplate(name: "star-meter", language: .c)
        #expect(
            template.files.map(\.path) == [
                "star-meter.c", "survey_plugin.h", "Makefile", "survey.json", "tests/high.json", "tests/low.json",
                "README.md", "libstar-meter.plugin.json",
            ])
        #expect(template.kindID == "star-meter")
        #expect(template.functionName == "star_meter_percent")
        #expect(template.libraryPath == "libstar-meter.so")
        let source = try #require(template.files.first { $0.path == "star-meter.c" }).contents
        #expect(source.contains(".type_id = \"star-meter\""))
        #expect(source.contains(".name = \"star_meter_percent\""))
        #expect(source.contains("static double star_meter_percent(double value, double max)"))
        let makefile = try #require(template.files.first { $0.path == "Makefile" }).contents
        #expect(makefile.contains("\tcc -shared -fPIC $(CFLAGS) -I . -o $@ star-meter.c"))
        #expect(makefile.contains("install: libstar-meter.so libstar-meter.plugin.json\n"))
        #expect(makefile.contains("\tcp libstar-meter.so libstar-meter.plugin.json $(PLUGINDIR)/\n"))
    }

    @Test func theManifestDeclaresTheKindTheFunctionAndTheHeadersABI() throws {
        let template = try PluginTemplate(name: "star-meter", language: .c)
        let text = try #require(template.files.first { $0.path == "libstar-meter.plugin.json" }).contents
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["name"] as? String == "star-meter")
        #expect(json["version"] as? String == "0.1.0")
        #expect(json["kinds"] as? [String] == ["star-meter"])
        #expect(json["functions"] as? [String] == ["star_meter_percent"])
        let header = try #require(template.files.first { $0.path == "survey_plugin.h" }).contents
        let minor = try #require(
            header.split(separator: "\n").first { $0.hasPrefix("#define SURVEY_PLUGIN_ABI_MINOR ") })
        #expect(json["abi"] as? String == "1." + minor.split(separator: " ")[2].filter(\.isNumber))
    }

    @Test func aSwiftPluginDependsOnTheEnginePackageByPath() throws {
        let template = try PluginTemplate(
            name: "star-meter", language: .swift, enginePackagePath: "/opt/survey \"engine\"")
        #expect(
            template.files.map(\.path) == [
                "Package.swift", "Sources/StarMeterPlugin/StarMeterPlugin.swift", ".gitignore", "survey.json",
                "tests/high.json", "tests/low.json", "README.md", "libStarMeterPlugin.plugin.json",
            ])
        #expect(template.libraryPath == ".build/debug/libStarMeterPlugin.so")
        let manifest = try #require(template.files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#".package(name: "survey-engine", path: "/opt/survey \"engine\"")"#))
        #expect(manifest.contains(#".library(name: "StarMeterPlugin", type: .dynamic, targets: ["StarMeterPlugin"])"#))
        let source = try #require(template.files.first { $0.path.hasSuffix(".swift") && $0.path != "Package.swift" })
        #expect(source.contents.contains(#"PluginFunction(name: "star_meter_percent""#))
    }

    @Test func theSampleSurveyAndScriptsNameTheKindAndFunction() throws {
        let template = try PluginTemplate(name: "demo", language: .c)
        let survey = try #require(template.files.first { $0.path == "survey.json" }).contents
        let json = try #require(try JSONSerialization.jsonObject(with: Data(survey.utf8)) as? [String: Any])
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.first?["type"] as? String == "demo")
        #expect(survey.contains("demo_percent({level}, 5) < 60"))
        for script in ["tests/high.json", "tests/low.json"] {
            let text = try #require(template.files.first { $0.path == script }).contents
            #expect((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["expectPath"] != nil)
        }
    }

    @Test(arguments: ["", "Demo", "1demo", "demo-", "de--mo", "de_mo", "dé", String(repeating: "a", count: 41)])
    func anInvalidNameIsRefused(name: String) {
        #expect(throws: PluginTemplateError.self) { try PluginTemplate(name: name, language: .c) }
    }

    @Test func aBuiltInKindsIdIsRefused() {
        #expect(
            throws: PluginTemplateError.invalidName(
                "rating", "'rating' is a built-in question kind; a plugin kind needs an id of its own")
        ) {
            try PluginTemplate(name: "rating", language: .c, reservedKinds: ["rating", "text"])
        }
    }

    @Test func swiftNeedsTheEnginePackage() {
        #expect(throws: PluginTemplateError.missingEnginePackage) { try PluginTemplate(name: "demo", language: .swift) }
    }

    @Test func writingIntoAFolderThatHoldsSomethingIsRefusedAndOverwritesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "plugin-template-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "mine".write(to: folder.appendingPathComponent("demo.c"), atomically: true, encoding: .utf8)
        let template = try PluginTemplate(name: "demo", language: .c)
        #expect(throws: PluginTemplateError.folderNotEmpty(folder.path)) { try template.write(to: folder.path) }
        #expect(try String(contentsOf: folder.appendingPathComponent("demo.c"), encoding: .utf8) == "mine")
    }

    @Test func writingMakesTheFolderAndEveryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "plugin-template-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try PluginTemplate(name: "demo", language: .c)
        try template.write(to: folder.appendingPathComponent("nested/demo").path)
        for file in template.files {
            let written = try String(
                contentsOf: folder.appendingPathComponent("nested/demo/" + file.path), encoding: .utf8)
            #expect(written == file.contents)
        }
    }
}
