import CSurveyPluginABI
import SurveyCore

/// The JSON callbacks of a plugin question type, by their names in `survey_plugin.h`.
enum PluginCallback: String, CaseIterable, Sendable {
    case checkOptions = "check_options"
    case describe
    case normalize
    case normalizeLocalized = "normalize_localized"
    case parseLine = "parse_line"
    case summarize
    /// ABI 1.2: makes the kind computed from the expression it returns.
    case computedExpression = "computed_expression"
}

/// What one call of a plugin JSON callback produced.
enum PluginReply: Sendable {
    case json(JSONValue)
    /// A message such as "returned invalid JSON from normalize: 1:2: …".
    case failure(PluginError.Kind, String)
}

/// How ``PluginQuestionType`` reaches its plugin: in this process (a function pointer into the
/// loaded library) or in the plugin host child process (`--isolate-plugins`).
protocol PluginTypeChannel: Sendable {
    /// The plugin file as given.
    var path: String { get }
    /// Whether the plugin provides `callback` (optional ones may be NULL).
    func provides(_ callback: PluginCallback) -> Bool
    /// Calls `callback` with the options text and the second JSON argument.
    func call(_ callback: PluginCallback, options: String, argument: String?) -> PluginReply
    /// Reports a problem of the plugin's to the operator.
    func log(_ message: String)
}

/// A question type's callbacks called directly in this process.
struct InProcessTypeChannel: PluginTypeChannel, @unchecked Sendable {
    let library: PluginLibrary
    /// The plugin's own struct, passed back to every callback (the plugin reads its `user_data`).
    let type: UnsafePointer<survey_question_type>
    /// A copy of its fields as far as the plugin's `struct_size` covers them (later ones are NULL).
    let fields: survey_question_type

    var path: String { library.path }

    private func pointer(_ callback: PluginCallback) -> survey_json_callback? {
        switch callback {
        case .checkOptions: return fields.check_options
        case .describe: return fields.describe
        case .normalize: return fields.normalize
        case .normalizeLocalized: return fields.normalize_localized
        case .parseLine: return fields.parse_line
        case .summarize: return fields.summarize
        case .computedExpression: return fields.computed_expression
        }
    }

    func provides(_ callback: PluginCallback) -> Bool { pointer(callback) != nil }

    func call(_ callback: PluginCallback, options: String, argument: String?) -> PluginReply {
        guard let function = pointer(callback) else {
            return .failure(.invalidDescriptor, "\(callback.rawValue) is missing")
        }
        return library.call(function, named: callback.rawValue, type: type, options, argument)
    }

    func log(_ message: String) { library.log(message) }
}
