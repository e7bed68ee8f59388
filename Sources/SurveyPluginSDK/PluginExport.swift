import CSurveyPluginABI
import SurveyCore
import SurveyPluginMessages
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Builds the C descriptor for a ``SurveyPlugin``: the body of the plugin's one export line.
public enum PluginExport {
    private static let descriptorAddress = Mutex<UInt>(0)

    /// The `survey_plugin` descriptor for `plugin`, built on the first call and kept for the
    /// life of the process.
    ///
    /// ```swift
    /// @_cdecl("survey_plugin_entry") public func entry() -> UnsafeRawPointer { PluginExport.descriptor(for: MyPlugin.self) }
    /// ```
    public static func descriptor<Plugin: SurveyPlugin>(for plugin: Plugin.Type) -> UnsafeRawPointer {
        let address = descriptorAddress.withLock { address -> UInt in
            if address == 0 { address = UInt(bitPattern: makeDescriptor(for: plugin)) }
            return address
        }
        return UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped
    }

    private static func makeDescriptor<Plugin: SurveyPlugin>(for plugin: Plugin.Type) -> UnsafeRawPointer {
        let types = Plugin.questionTypes
        let typeArray = UnsafeMutablePointer<survey_question_type>.allocate(capacity: max(types.count, 1))
        for (index, type) in types.enumerated() {
            let adapter = makeAdapter(type)
            let schema = Plugin.optionsSchema(forTypeID: type.typeID).map { JSONWriter.string(from: $0) }
            (typeArray + index).initialize(
                to: survey_question_type(
                    struct_size: UInt32(MemoryLayout<survey_question_type>.size),
                    collects_answer: type.collectsAnswer ? 1 : 0, type_id: UnsafePointer(strdup(type.typeID)),
                    summary: UnsafePointer(strdup(type.summary)),
                    options_schema: schema.flatMap { UnsafePointer(strdup($0)) },
                    user_data: Unmanaged.passRetained(adapter).toOpaque(), check_options: checkOptionsCallback,
                    describe: describeCallback, normalize: normalizeCallback, parse_line: parseLineCallback,
                    summarize: summarizeCallback, normalize_localized: normalizeLocalizedCallback,
                    computed_expression: nil))
        }
        let functions = Plugin.functions
        let functionArray = UnsafeMutablePointer<survey_function>.allocate(capacity: max(functions.count, 1))
        for (index, function) in functions.enumerated() {
            let argumentTypes = UnsafeMutablePointer<UInt32>.allocate(capacity: max(function.argumentTypes.count, 1))
            for (position, type) in function.argumentTypes.enumerated() {
                (argumentTypes + position).initialize(to: type.rawValue)
            }
            (functionArray + index).initialize(
                to: survey_function(
                    struct_size: UInt32(MemoryLayout<survey_function>.size), return_type: function.returnType.rawValue,
                    name: UnsafePointer(strdup(function.name)),
                    function: UnsafeMutableRawPointer(mutating: function.address),
                    argument_count: UInt32(function.argumentTypes.count), argument_types: UnsafePointer(argumentTypes),
                    flags: 0))
        }
        let descriptor = UnsafeMutablePointer<survey_plugin>.allocate(capacity: 1)
        descriptor.initialize(
            to: survey_plugin(
                abi_version: SURVEY_PLUGIN_ABI_VERSION, struct_size: UInt32(MemoryLayout<survey_plugin>.size),
                name: UnsafePointer(strdup(Plugin.name)), version: UnsafePointer(strdup(Plugin.version)),
                free_string: { free($0) }, question_type_count: UInt32(types.count),
                question_types: UnsafePointer(typeArray), function_count: UInt32(functions.count),
                functions: UnsafePointer(functionArray), abi_minor: SURVEY_PLUGIN_ABI_MINOR))
        return UnsafeRawPointer(descriptor)
    }

    private static func makeAdapter<T: QuestionType>(_ type: T) -> TypeAdapter {
        ConcreteTypeAdapter(type)
    }
}

// MARK: - Callbacks

private func adapter(_ type: UnsafePointer<survey_question_type>?) -> TypeAdapter? {
    guard let userData = type?.pointee.user_data else { return nil }
    return Unmanaged<TypeAdapter>.fromOpaque(userData).takeUnretainedValue()
}

/// Runs `body` with the callback's arguments as Swift strings and returns its JSON as a malloc'd string.
private func respond(
    _ type: UnsafePointer<survey_question_type>?, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    _ body: (TypeAdapter, String, String) -> JSONValue
) -> UnsafeMutablePointer<CChar>? {
    guard let adapter = adapter(type) else { return nil }
    let reply = body(adapter, first.map { String(cString: $0) } ?? "{}", second.map { String(cString: $0) } ?? "null")
    return strdup(JSONWriter.string(from: reply))
}

private let checkOptionsCallback: survey_json_callback = { type, options, _ in
    respond(type, options, nil) { adapter, options, _ in adapter.checkOptions(options) }
}

private let describeCallback: survey_json_callback = { type, options, context in
    respond(type, options, context) { adapter, options, context in adapter.describe(options, context: context) }
}

private let normalizeCallback: survey_json_callback = { type, options, answer in
    respond(type, options, answer) { adapter, options, answer in adapter.normalize(options, answer: answer) }
}

private let normalizeLocalizedCallback: survey_json_callback = { type, options, request in
    respond(type, options, request) { adapter, options, request in
        adapter.normalizeLocalized(options, request: request)
    }
}

private let parseLineCallback: survey_json_callback = { type, options, request in
    respond(type, options, request) { adapter, options, request in adapter.parseLine(options, request: request) }
}

private let summarizeCallback: survey_json_callback = { type, options, request in
    respond(type, options, request) { adapter, options, request in adapter.summarize(options, request: request) }
}
