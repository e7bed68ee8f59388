import CSurveyPluginABI
import SurveyCore

/// A loaded shared library and its descriptor. Never unloaded: question types and functions keep
/// pointers into it for the life of the process.
final class PluginLibrary: @unchecked Sendable {
    /// The path as given (used in messages and as the registry origin).
    let path: String
    let descriptor: UnsafePointer<survey_plugin>
    /// The minor ABI version the plugin declares (0 for a 1.0 plugin).
    let abiMinor: UInt32
    /// Where problems of the plugin's own making go (stderr in the CLI), never to a respondent.
    let diagnostics: @Sendable (String) -> Void
    private let freeString: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void

    init(
        path: String, descriptor: UnsafePointer<survey_plugin>,
        freeString: @escaping @convention(c) (UnsafeMutablePointer<CChar>?) -> Void, abiMinor: UInt32 = 0,
        diagnostics: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.path = path
        self.descriptor = descriptor
        self.freeString = freeString
        self.abiMinor = abiMinor
        self.diagnostics = diagnostics
    }

    /// Reports a problem of the plugin's to the operator: `PATH: message`.
    func log(_ message: String) {
        diagnostics("\(path): \(message)")
    }

    /// Copies a string the plugin returned and releases it with the plugin's `free_string`.
    func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { freeString(pointer) }
        return String(cString: pointer)
    }

    /// Calls a JSON callback of `type` and parses what it returns.
    func call(
        _ callback: survey_json_callback, named name: String, type: UnsafePointer<survey_question_type>,
        _ first: String, _ second: String?
    ) -> PluginReply {
        let returned: UnsafeMutablePointer<CChar>? = first.withCString { first in
            if let second {
                return second.withCString { second in callback(type, first, second) }
            }
            return callback(type, first, nil)
        }
        guard let text = take(returned) else {
            return .failure(.pluginReportedError, "\(name) returned no result (NULL)")
        }
        do {
            return .json(try JSONParser.parse(text))
        } catch {
            return .failure(.invalidJSON, "\(name) returned invalid JSON (\(error)): \(Self.excerpt(text))")
        }
    }

    /// The first characters of `text`, on one line.
    static func excerpt(_ text: String) -> String {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }
}
