import CSurveyPluginABI
import SurveyCore

/// Checks a plugin's descriptor field by field and wraps what it declares.
struct DescriptorReader {
    let path: String
    let descriptor: UnsafePointer<survey_plugin>

    /// The most arguments an expression function may declare.
    static let maximumArgumentCount: UInt32 = 16

    func read() throws(PluginError) -> LoadedPlugin {
        let plugin = descriptor.pointee
        guard plugin.abi_version == PluginLoader.abiVersion else {
            throw PluginError(
                .abiVersionMismatch, path: path,
                "ABI version \(plugin.abi_version) is not supported (this engine reads version \(PluginLoader.abiVersion))"
            )
        }
        try checkSize(plugin.struct_size, MemoryLayout<survey_plugin>.size, "survey_plugin")
        guard let freeString = plugin.free_string else { throw invalid("free_string is NULL") }
        guard let name = plugin.name.map({ String(cString: $0) }), !name.isEmpty else {
            throw invalid("the plugin name is missing")
        }
        let version = plugin.version.map { String(cString: $0) } ?? ""
        let library = PluginLibrary(path: path, descriptor: descriptor, freeString: freeString)

        var types: [AnyQuestionType] = []
        var schemas: [String: JSONValue] = [:]
        if plugin.question_type_count > 0 {
            guard let array = plugin.question_types else {
                throw invalid("question_type_count is \(plugin.question_type_count) but question_types is NULL")
            }
            for index in 0..<Int(plugin.question_type_count) {
                let (type, schema) = try readType(array + index, index: index, library: library)
                guard !types.contains(where: { $0.typeID == type.typeID }) else {
                    throw PluginError(.duplicateTypeID, path: path, "question type '\(type.typeID)' is declared twice")
                }
                types.append(type)
                if let schema { schemas[type.typeID] = schema }
            }
        }

        var functions: [ExpressionFunction] = []
        var signatures: [String: String] = [:]
        if plugin.function_count > 0 {
            guard let array = plugin.functions else {
                throw invalid("function_count is \(plugin.function_count) but functions is NULL")
            }
            for index in 0..<Int(plugin.function_count) {
                let function = try readFunction(array + index, index: index, library: library)
                guard signatures[function.name.lowercased()] == nil else {
                    throw PluginError(
                        .duplicateFunction, path: path, "expression function '\(function.name)' is declared twice")
                }
                signatures[function.name.lowercased()] = function.signature
                functions.append(function.expressionFunction)
            }
        }
        return LoadedPlugin(
            path: path, name: name, version: version, questionTypes: types, functions: functions,
            optionsSchemas: schemas, functionSignatures: signatures)
    }

    private func readType(_ pointer: UnsafePointer<survey_question_type>, index: Int, library: PluginLibrary)
        throws(PluginError) -> (AnyQuestionType, JSONValue?)
    {
        let type = pointer.pointee
        try checkSize(type.struct_size, MemoryLayout<survey_question_type>.size, "survey_question_type #\(index)")
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
        let wrapper = PluginQuestionType(
            library: library, type: pointer, typeID: id,
            summary: type.summary.map { String(cString: $0) } ?? "", collectsAnswer: type.collects_answer != 0)
        return (AnyQuestionType(wrapper, origin: path), schema)
    }

    private func readFunction(_ pointer: UnsafePointer<survey_function>, index: Int, library: PluginLibrary)
        throws(PluginError) -> ForeignFunction
    {
        let function = pointer.pointee
        try checkSize(function.struct_size, MemoryLayout<survey_function>.size, "survey_function #\(index)")
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
                library: library, name: name, function: address, returnType: returnType, argumentTypes: argumentTypes)
        else {
            throw invalid("libffi cannot prepare a call to '\(name)'")
        }
        return foreign
    }

    private func checkSize(_ declared: UInt32, _ expected: Int, _ structName: String) throws(PluginError) {
        guard Int(declared) == expected else {
            throw PluginError(
                .structSizeMismatch, path: path,
                "\(structName).struct_size is \(declared) but this engine expects \(expected) (built against a different survey_plugin.h?)"
            )
        }
    }

    private func invalid(_ message: String) -> PluginError {
        PluginError(.invalidDescriptor, path: path, message)
    }
}
