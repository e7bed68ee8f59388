import Foundation

/// A new plugin's folder, ready to build and test: what `survey plugin new NAME --lang c|swift` writes.
///
/// The folder holds the plugin's source with one question kind (`NAME`: a whole number from 1 to
/// the option `max`) and one expression function (`NAME_percent(value, max)`), its build file, a
/// sample survey that uses both, answer scripts for `survey test` and a README. It builds with one
/// command (`make` for C, with nothing but `cc`; `swift build` for Swift, depending on the engine's
/// package by path) and its scripts pass with the built library loaded:
///
/// ```swift
/// let template = try PluginTemplate(name: "demo", language: .c)
/// try template.write(to: "demo")
/// // cd demo && make && survey test survey.json --plugin ./libdemo.so --answers tests
/// ```
public struct PluginTemplate: Sendable {
    /// The language a plugin is written in.
    public enum Language: String, Sendable, CaseIterable {
        /// Plain C against `survey_plugin.h` (copied into the folder), built with `cc`.
        case c
        /// Swift with `SurveyPluginSDK`, a SwiftPM package of its own.
        case swift
    }

    /// One file of the folder.
    public struct File: Sendable, Hashable {
        /// The path inside the folder, e.g. `tests/high.json`.
        public var path: String
        /// The file's text.
        public var contents: String
    }

    /// The plugin's name, which is also its question kind's id: `demo`, `star-meter`.
    public let name: String
    /// The language of the source.
    public let language: Language
    /// For Swift: the path of the engine's package (the folder of its `Package.swift`), which the
    /// plugin's package depends on by path.
    public let enginePackagePath: String?

    /// Describes a new plugin.
    ///
    /// - Parameters:
    ///   - name: lower-case letters, digits and single `-` between them, starting with a letter (at
    ///     most 40 characters); it is the plugin's name and its question kind's id.
    ///   - language: C or Swift.
    ///   - enginePackagePath: for Swift, the engine's package folder (required); ignored for C.
    ///   - reservedKinds: kind ids already taken (the built-in kinds), which `name` must not be.
    /// - Throws: ``PluginTemplateError`` for an invalid or taken name, or Swift without an engine path.
    public init(name: String, language: Language, enginePackagePath: String? = nil, reservedKinds: Set<String> = [])
        throws(PluginTemplateError)
    {
        guard Self.isValidName(name) else {
            throw .invalidName(
                name,
                "use lower-case letters, digits and single '-' between them, starting with a letter (at most 40 characters)"
            )
        }
        guard !reservedKinds.contains(name) else {
            throw .invalidName(name, "'\(name)' is a built-in question kind; a plugin kind needs an id of its own")
        }
        if language == .swift, enginePackagePath?.isEmpty ?? true {
            throw .missingEnginePackage
        }
        self.name = name
        self.language = language
        self.enginePackagePath = language == .swift ? enginePackagePath : nil
    }

    /// Whether `name` can name a plugin and its kind.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...40).contains(name.count), name.first.map({ $0 >= "a" && $0 <= "z" }) == true,
            !name.hasSuffix("-"), !name.contains("--")
        else { return false }
        return name.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }

    /// The question kind's id (the plugin's name).
    public var kindID: String { name }

    /// The expression function's name: `demo_percent` (a `-` in the name becomes `_`).
    public var functionName: String { identifier + "_percent" }

    /// The name as a C identifier: `star_meter`.
    var identifier: String { name.replacingOccurrences(of: "-", with: "_") }

    /// The name in UpperCamelCase: `StarMeter`.
    var typeName: String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The shared library the build writes, relative to the folder: `libdemo.so` or
    /// `.build/debug/libDemoPlugin.so`.
    public var libraryPath: String {
        switch language {
        case .c: "lib\(name).so"
        case .swift: ".build/debug/lib\(typeName)Plugin.so"
        }
    }

    /// The plugin's manifest, written beside the build file: the library's name with `.so`
    /// replaced by `.plugin.json` (`libdemo.plugin.json`), so that copied next to the library it is
    /// where the engine looks for it.
    public var manifestPath: String {
        let library = libraryPath.split(separator: "/").last.map(String.init) ?? libraryPath
        return String(library.dropLast(3)) + ".plugin.json"
    }

    /// The ABI version of the header the template is written against: `1.1`.
    static var abiVersion: String {
        func define(_ name: String) -> String {
            for line in abiHeaderText.split(separator: "\n") where line.hasPrefix("#define \(name) ") {
                return String(line.dropFirst("#define \(name) ".count).prefix { $0.isNumber })
            }
            return "0"
        }
        return define("SURVEY_PLUGIN_ABI_VERSION") + "." + define("SURVEY_PLUGIN_ABI_MINOR")
    }

    /// The manifest's text: what the library declares (see docs/plugin-abi.md, "Distribute a plugin").
    var manifest: String {
        """
        {
          "name": "\(name)",
          "version": "0.1.0",
          "abi": "\(Self.abiVersion)",
          "kinds": ["\(kindID)"],
          "functions": ["\(functionName)"]
        }

        """
    }

    /// The one command that builds the library, run in the folder.
    public var buildCommand: [String] {
        switch language {
        case .c: ["make"]
        case .swift: ["swift", "build"]
        }
    }

    /// The sample survey's file name.
    public static let surveyFile = "survey.json"
    /// The folder of the answer scripts.
    public static let testsFolder = "tests"

    /// Every file of the folder, in a stable order.
    public var files: [File] {
        let shared = [
            File(path: Self.surveyFile, contents: sampleSurvey),
            File(path: Self.testsFolder + "/high.json", contents: highScript),
            File(path: Self.testsFolder + "/low.json", contents: lowScript),
            File(path: "README.md", contents: readme),
            File(path: manifestPath, contents: manifest),
        ]
        switch language {
        case .c:
            return [
                File(path: "\(name).c", contents: cSource), File(path: "survey_plugin.h", contents: abiHeaderText),
                File(path: "Makefile", contents: makefile),
            ] + shared
        case .swift:
            return [
                File(path: "Package.swift", contents: packageManifest),
                File(path: "Sources/\(typeName)Plugin/\(typeName)Plugin.swift", contents: swiftSource),
                File(path: ".gitignore", contents: "/.build\n"),
            ] + shared
        }
    }

    /// Writes the folder `directory`, creating it (and its parents) when missing.
    ///
    /// - Throws: ``PluginTemplateError/folderNotEmpty(_:)`` when `directory` exists and holds
    ///   anything (nothing is overwritten), ``PluginTemplateError/cannotWrite(_:_:)`` when a file
    ///   cannot be written.
    public func write(to directory: String) throws(PluginTemplateError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .folderNotEmpty(directory) }
            let entries = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else { throw .folderNotEmpty(directory) }
        }
        for file in files {
            let path = (directory as NSString).appendingPathComponent(file.path)
            do {
                try manager.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw .cannotWrite(path, (error as NSError).localizedDescription)
            }
        }
    }

    // MARK: the files every language shares

    var sampleSurvey: String {
        """
        {
          "formatVersion": 1,
          "id": "\(name)-sample",
          "version": "1",
          "title": "\(name): a sample survey",
          "description": "Uses the plugin's question kind '\(kindID)' and its function \(functionName)().",
          "defaultLocale": "en",
          "calculatedValues": [
            { "name": "percent", "expression": "round(\(functionName)({level}, 5))" }
          ],
          "steps": [
            {
              "id": "level",
              "type": "\(kindID)",
              "title": "How did it go, from 1 to 5?",
              "required": true,
              "options": { "max": 5 }
            },
            {
              "id": "better",
              "type": "text",
              "title": "What could have gone better?",
              "visibleIf": "\(functionName)({level}, 5) < 60"
            },
            {
              "id": "thanks",
              "type": "content",
              "title": "Thank you!",
              "options": { "body": "You gave it {percent}%." }
            }
          ]
        }

        """
    }

    var highScript: String {
        """
        {
          "description": "4 of 5 is 80%: \(functionName) hides the follow-up question",
          "answers": { "level": 4 },
          "expectPath": ["level", "thanks"],
          "expectAnswers": { "level": 4 }
        }

        """
    }

    var lowScript: String {
        """
        {
          "description": "2 of 5 is 40%: \(functionName) shows the follow-up question",
          "answers": { "level": 2, "better": "Shorter queues" },
          "expectPath": ["level", "better", "thanks"],
          "expectAnswers": { "level": 2, "better": "Shorter queues" }
        }

        """
    }

    var installHint: String {
        switch language {
        case .c: "`make install` copies them to `$(PLUGINDIR)`, default `$HOME/.survey/plugins`"
        case .swift: "`cp \(libraryPath) \(manifestPath) $HOME/.survey/plugins/` after `swift build`"
        }
    }

    var readme: String {
        let build: String
        let layout: String
        switch language {
        case .c:
            build = """
                make                                   # cc -shared -fPIC … -o \(libraryPath)
                survey test survey.json --plugin ./\(libraryPath) --answers tests      # or: make test
                survey plugin check ./\(libraryPath) --survey survey.json              # or: make check
                """
            layout = """
                | `\(name).c` | the plugin: the `\(kindID)` kind (`describe`, `normalize`) and `\(functionName)` |
                | `survey_plugin.h` | the ABI header, copied from the engine (depends only on the C library) |
                | `Makefile` | `make` builds `\(libraryPath)` with `cc`; `make test`, `make check`, `make install` |
                """
        case .swift:
            build = """
                swift build                            # writes \(libraryPath)
                survey test survey.json --plugin \(libraryPath) --answers tests
                survey plugin check \(libraryPath) --survey survey.json
                """
            layout = """
                | `Sources/\(typeName)Plugin/\(typeName)Plugin.swift` | the plugin: the `\(kindID)` kind (a `QuestionType`) and `\(functionName)` |
                | `Package.swift` | a dynamic library product; depends on the engine's package (SurveyCore, SurveyPluginSDK) by path |
                """
        }
        return """
            # \(name): a survey plugin

            A plugin for the survey engine, written in \(language == .c ? "C" : "Swift"), made by
            `survey plugin new \(name) --lang \(language.rawValue)`. It adds:

            * the question kind `\(kindID)`: a whole number from 1 to the option `max` (2 to 10, default 5);
            * the expression function `\(functionName)(value, max)`: `value` as a percentage of `max`
              (`null` when `max` is 0).

            ## Build, test, check

            ```sh
            \(build)
            ```

            `survey test` runs `survey.json` with each answer script of `tests/` and checks the path and
            the answers they expect; `survey plugin check` calls every callback and function of the
            plugin with edge cases (no answer, wrong types, huge strings…) and reports what a respondent
            would otherwise find first. Use the plugin anywhere with `--plugin PATH`, or put the library
            in a directory of `SURVEY_PLUGIN_PATH`.

            ## Distribute

            `\(manifestPath)` says what the library declares (name, version, ABI, kinds, functions);
            the engine reads it beside the library and refuses a library that disagrees with it, so
            change it with the source. Copy both into a directory of `SURVEY_PLUGIN_PATH`
            (\(installHint)); then `--plugin \(name)` needs no path:

            ```sh
            SURVEY_PLUGIN_PATH=$HOME/.survey/plugins survey test survey.json --plugin \(name) --answers tests
            ```

            ## What is where

            | File | What it is |
            |---|---|
            \(layout)
            | `\(manifestPath)` | the manifest, installed beside the library |
            | `survey.json` | a sample survey using the kind and the function |
            | `tests/*.json` | answer scripts for `survey test`, each with the path and answers it expects |

            Rename the kind, change what `describe` and `normalize` accept, and add a script to `tests/`
            for each behaviour. The engine's plugin guide (docs/plugin-abi.md) describes every callback,
            the JSON they exchange and the versioning rules.

            """
    }
}

/// Why a plugin folder could not be made.
public enum PluginTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name cannot name a plugin kind; the second value says why.
    case invalidName(String, String)
    /// A Swift plugin needs the engine's package path.
    case missingEnginePackage
    /// The folder exists and is not empty (or is a file).
    case folderNotEmpty(String)
    /// A file could not be written: its path and the reason.
    case cannotWrite(String, String)

    /// The message the CLI prints.
    public var description: String {
        switch self {
        case .invalidName(let name, let reason): "invalid plugin name '\(name)': \(reason)"
        case .missingEnginePackage: "a Swift plugin depends on the engine's package: give its folder"
        case .folderNotEmpty(let path): "\(path): exists and is not an empty folder; choose another one"
        case .cannotWrite(let path, let reason): "\(path): cannot write the file (\(reason))"
        }
    }
}
