import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses
import SurveyStoreSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let storeOption = CommandSpec.Option(
    name: "--store", valueName: "PATH|URL",
    help:
        "The response store: a SQLite file (default: $XDG_DATA_HOME/survey/responses.sqlite) or a postgresql:// URL.")
let noStoreOption = CommandSpec.Option(
    name: "--no-store", valueName: nil, help: "Keep no response: answers live only in this process.")
let respondentOption = CommandSpec.Option(
    name: "--respondent", valueName: "ID",
    help: "Who is answering (default: this user on this machine, kept in $XDG_DATA_HOME/survey/respondent-id).")

/// Where responses go, as chosen on the command line.
enum StoreChoice {
    case none
    case location(String, isDefault: Bool)
}

extension CommandContext {
    /// `$XDG_DATA_HOME/survey`, else `~/.local/share/survey`.
    var dataDirectory: String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/survey" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/survey"
    }

    /// The default store file.
    var defaultStorePath: String { dataDirectory + "/responses.sqlite" }

    /// `--store` / `--no-store`, with `defaultToStore` deciding what no option means.
    func storeChoice(_ arguments: ParsedArguments, command: String, defaultToStore: Bool) throws(UsageError)
        -> StoreChoice
    {
        let location = arguments.value(storeOption)
        if arguments.flag(noStoreOption) {
            guard location == nil else {
                throw UsageError("--store and --no-store exclude each other", command: command)
            }
            return .none
        }
        if let location {
            guard !location.isEmpty else { throw UsageError("--store needs a file path or a URL", command: command) }
            return .location(location, isDefault: false)
        }
        return defaultToStore ? .location(defaultStorePath, isDefault: true) : .none
    }

    /// Opens the store at `location`: a `postgresql://` or `postgres://` URL, or a SQLite file
    /// (a path, or `sqlite:PATH`). The default file's directory is created when missing, and the
    /// first time the default file is created its path is printed once on stderr.
    func openStore(_ location: String, isDefault: Bool = false) throws(InputError) -> any ResponseStore {
        let lowered = location.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") {
            return try openPostgresStore(location)
        }
        if let scheme = lowered.range(of: "://"), !lowered.hasPrefix("sqlite:") {
            let name = String(location[..<scheme.lowerBound])
            throw InputError(
                "--store: '\(name)://' is not a store this program knows; use a SQLite file path or a postgresql:// URL"
            )
        }
        var path = location
        if lowered.hasPrefix("sqlite://") {
            path = String(location.dropFirst("sqlite://".count))
        } else if lowered.hasPrefix("sqlite:") {
            path = String(location.dropFirst("sqlite:".count))
        }
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isDefault, isNew {
            let directory = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw InputError(
                    "\(directory): cannot create the directory of the response store (\(Self.reason(error)))")
            }
        }
        do {
            let store = try SQLiteResponseStore(path: path)
            if isDefault, isNew {
                Console.error("survey: responses are kept in \(path) (choose another with --store, or --no-store)")
            }
            return store
        } catch {
            throw InputError(error.description)
        }
    }

    /// `--respondent`, else the id this user has on this machine: a UUID created on first use and kept
    /// in `respondent-id` beside the default store.
    func respondentID(_ arguments: ParsedArguments, command: String) throws -> String {
        if let given = arguments.value(respondentOption) {
            let trimmed = given.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw UsageError("--respondent must not be empty", command: command) }
            guard trimmed.utf8.count <= 200, !trimmed.contains(where: { $0.isNewline }) else {
                throw UsageError("--respondent must be one line of at most 200 bytes", command: command)
            }
            return trimmed
        }
        let file = dataDirectory + "/respondent-id"
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        let id = UUID().uuidString.lowercased()
        do {
            try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw InputError(
                "\(file): cannot keep this user's respondent id (\(Self.reason(error))); give --respondent ID")
        }
        return id
    }
}

/// Saves nothing on quit, because every accepted action is already in the store; the location it
/// reports is the store, so the respondent is told where the answers are.
struct RecordedStateStore: SessionStateStore {
    var storeName: String

    func save(_ state: SessionState) throws -> String { storeName }
}
