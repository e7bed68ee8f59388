import CSurveyPluginABI
import SurveyCore

/// Checks a plugin's descriptor field by field and wraps what it declares.
struct DescriptorReader {
    let path: String
    let descriptor: UnsafePointer<survey_plugin>
    let diagnostics: @Sendable (String) -> Void

    /// The most arguments an expression function may declare.
    static let maximumArgumentCount: UInt32 = 16

    /// The sizes of the ABI 1.0 structs: every struct_size from these up is accepted.
    static let minimumPluginSize = 64
    static let minimumQuestionTypeSize = 80
    static let minimumFunctionSize = 40
    /// No struct of a future minor version is this large; a bigger struct_size is a broken descriptor.
    static let maximumStructSize = 4096

    /// A copy of the C struct at `pointer` whose first `declared` bytes are the plugin's: fields the
    /// plugin's (older) header does not have stay zero (NULL), and nothing past `declared` is read.
    static func copy<T>(_ type: T.Type, from pointer: UnsafeRawPointer, declared: Int, zero: T) -> T {
        var value = zero
        withUnsafeMutableBytes(of: &value) { destination in
            destination.copyMemory(
                from: UnsafeRawBufferPointer(start: pointer, count: min(declared, MemoryLayout<T>.size)))
        }
        return value
    }

    func read() throws(PluginError) -> LoadedPlugin {
        let raw = UnsafeRawPointer(descriptor)
        let abiVersion = raw.loadUnaligned(as: UInt32.self)
        guard abiVersion == PluginLoader.abiVersion else {
            throw PluginError(
                .abiVersionMismatch, path: path,
                "ABI version \(abiVersion) is not supported (this engine reads version \(PluginLoader.abiVersion).x)"
            )
        }
        let size = Int(raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        try checkSize(size, minimum: Self.minimumPluginSize, "survey_plugin")
        let plugin = Self.copy(survey_plugin.self, from: raw, declared: size, zero: survey_plugin())
        guard let freeString = plugin.free_string else { throw invalid("free_string is NULL") }
        guard let name = plugin.name.map({ String(cString: $0) }), !name.isEmpty else {
            throw invalid("the plugin name is missing")
        }
        let version = plugin.version.map { String(cString: $0) } ?? ""
        let minor =
            size >= MemoryLayout<survey_plugin>.offset(of: \.abi_minor).map { $0 + 4 } ?? .max ? plugin.abi_minor : 0
        let library = PluginLibrary(
            path: path, descriptor: descriptor, freeString: freeString, abiMinor: minor, diagnostics: diagnostics)

        var types: [AnyQuestionType] = []
        var channels: [String: InProcessTypeChannel] = [:]
        var schemas: [String: JSONValue] = [:]
        if plugin.question_type_count > 0 {
            guard let array = plugin.question_types else {
                throw invalid("question_type_count is \(plugin.question_type_count) but question_types is NULL")
            }
            let stride = Int(UnsafeRawPointer(array).loadUnaligned(as: UInt32.self))
            try checkSize(stride, minimum: Self.minimumQuestionTypeSize, "survey_question_type #0")
            for index in 0..<Int(plugin.question_type_count) {
                let element = UnsafeRawPointer(array) + index * stride
                let (type, schema, channel) = try readType(element, stride: stride, index: index, library: library)
                guard !types.contains(where: { $0.typeID == type.typeID }) else {
                    throw PluginError(.duplicateTypeID, path: path, "question type '\(type.typeID)' is declared twice")
                }
                types.append(type)
                channels[type.typeID] = channel
                if let schema { schemas[type.typeID] = schema }
            }
        }

        var functions: [ExpressionFunction] = []
        var foreign: [String: ForeignFunction] = [:]
        var signatures: [String: String] = [:]
        if plugin.function_count > 0 {
            guard let array = plugin.functions else {
                throw invalid("function_count is \(plugin.function_count) but functions is NULL")
            }
            let stride = Int(UnsafeRawPointer(array).loadUnaligned(as: UInt32.self))
            try checkSize(stride, minimum: Self.minimumFunctionSize, "survey_function #0")
            for index in 0..<Int(plugin.function_count) {
                let function = try readFunction(
                    UnsafeRawPointer(array) + index * stride, stride: stride, index: index, library: library)
                guard signatures[function.name.lowercased()] == nil else {
                    throw PluginError(
                        .duplicateFunction, path: path, "expression function '\(function.name)' is declared twice")
                }
                signatures[function.name.lowercased()] = function.signature
                functions.append(function.expressionFunction)
                foreign[function.name.lowercased()] = function
            }
        }
        return LoadedPlugin(
            path: path, name: name, version: version, questionTypes: types, functions: functions,
            optionsSchemas: schemas, functionSignatures: signatures, abiMinor: minor,
            inProcess: LoadedPlugin.InProcess(types: channels, functions: foreign))
    }

    private func readType(_ pointer: UnsafeRawPointer, stride: Int, index: Int, library: PluginLibrary)
        throws(PluginError) -> (AnyQuestionType, JSONValue?, InProcessTypeChannel)
    {
        let declared = Int(pointer.loadUnaligned(as: UInt32.self))
        guard declared == stride else {
            throw PluginError(
                .structSizeMismatch, path: path,
                "survey_question_type #\(index).struct_size is \(declared) but #0 declares \(stride) (all the elements of one array must have the same size)"
            )
        }
        let type = Self.copy(
            survey_question_type.self, from: pointer, declared: declared, zero: survey_question_type())
        guard let idPointer = type.type_id else { throw invalid("question type #\(index) has no type_id") }
        let id = String(cString: idPointer)
        guard !id.isEmpty,
            id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else {
            throw invalid("question type id '\(id)' must be lower-case letters, digits and '-'")
        }
        guard type.describe != nil else { throw invalid("question type '\(id)' has no describe callback") }
        guard type.normalize != nil else { throw invalid("question type '\(id)' has no normalize callback") }
        var schema: JSONValue?
        if let schemaText = type.options_schema {
            do {
                schema = try JSONParser.parse(String(cString: schemaText))
            } catch {
                throw PluginError(
                    .invalidJSON, path: path, "the options_schema of question type '\(id)' is not valid JSON (\(error))"
                )
            }
        }
        var optionsSchema: OptionsSchema?
        if let schema {
            do {
                optionsSchema = try OptionsSchema(schema)
            } catch {
                throw PluginError(
                    .invalidDescriptor, path: path, "the options_schema of question type '\(id)': \(error.message)")
            }
        }
        let channel = InProcessTypeChannel(
            library: library, type: pointer.assumingMemoryBound(to: survey_question_type.self), fields: type)
        let wrapper = PluginQuestionType(
            channel: channel, optionsSchema: optionsSchema, typeID: id,
            summary: type.summary.map { String(cString: $0) } ?? "", collectsAnswer: type.collects_answer != 0)
        return (AnyQuestionType(wrapper, origin: path), schema, channel)
    }

    private func readFunction(_ pointer: UnsafeRawPointer, stride: Int, index: Int, library: PluginLibrary)
        throws(PluginError) -> ForeignFunction
    {
        let declared = Int(pointer.loadUnaligned(as: UInt32.self))
        guard declared == stride else {
            throw PluginError(
                .structSizeMismatch, path: path,
                "survey_function #\(index).struct_size is \(declared) but #0 declares \(stride) (all the elements of one array must have the same size)"
            )
        }
        let function = Self.copy(survey_function.self, from: pointer, declared: declared, zero: survey_function())
        let flags =
            declared >= MemoryLayout<survey_function>.offset(of: \.flags).map { $0 + 4 } ?? .max ? function.flags : 0
        guard flags & ~UInt32(SURVEY_FUNCTION_REPORTS_ERRORS) == 0 else {
            throw invalid(
                "function #\(index) has unknown flags \(flags) (this engine reads ABI 1.\(SURVEY_PLUGIN_ABI_MINOR))")
        }
        guard let namePointer = function.name else { throw invalid("function #\(index) has no name") }
        let name = String(cString: namePointer)
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw invalid("function name '\(name)' must be letters, digits and '_'")
        }
        guard let address = function.function else { throw invalid("function '\(name)' has a NULL function pointer") }
        guard let returnType = ForeignValueType(rawValue: function.return_type) else {
            throw invalid("function '\(name)' has an unknown return type \(function.return_type)")
        }
        guard function.argument_count <= Self.maximumArgumentCount else {
            throw invalid(
                "function '\(name)' declares \(function.argument_count) arguments (at most \(Self.maximumArgumentCount))"
            )
        }
        var argumentTypes: [ForeignValueType] = []
        if function.argument_count > 0 {
            guard let types = function.argument_types else {
                throw invalid(
                    "function '\(name)' declares \(function.argument_count) arguments but argument_types is NULL")
            }
            for position in 0..<Int(function.argument_count) {
                guard let type = ForeignValueType(rawValue: types[position]) else {
                    throw invalid("function '\(name)' argument \(position + 1) has an unknown type \(types[position])")
                }
                argumentTypes.append(type)
            }
        }
        guard
            let foreign = ForeignFunction(
                library: library, name: name, function: address, returnType: returnType, argumentTypes: argumentTypes,
                reportsErrors: flags & UInt32(SURVEY_FUNCTION_REPORTS_ERRORS) != 0)
        else {
            throw invalid("libffi cannot prepare a call to '\(name)'")
        }
        return foreign
    }

    private func checkSize(_ declared: Int, minimum: Int, _ structName: String) throws(PluginError) {
        guard declared >= minimum, declared <= Self.maximumStructSize, declared % 4 == 0 else {
            throw PluginError(
                .structSizeMismatch, path: path,
                "\(structName).struct_size is \(declared) but this engine reads sizes from \(minimum) (ABI 1.0) up "
                    + "(built against a different survey_plugin.h?)")
        }
    }

    private func invalid(_ message: String) -> PluginError {
        PluginError(.invalidDescriptor, path: path, message)
    }
}
