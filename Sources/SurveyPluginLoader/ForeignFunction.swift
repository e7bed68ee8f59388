import CFFI
import CSurveyPluginABI
import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A C type an expression function takes or returns (`enum survey_value_type`).
enum ForeignValueType: UInt32, Sendable {
    case double = 1
    case int64 = 2
    case bool = 3
    case string = 4

    var name: String {
        switch self {
        case .double: return "double"
        case .int64: return "int64"
        case .bool: return "bool"
        case .string: return "string"
        }
    }

    var ffiType: UnsafeMutablePointer<ffi_type> {
        switch self {
        case .double: return survey_ffi_type_double()
        case .int64: return survey_ffi_type_sint64()
        case .bool: return survey_ffi_type_uint8()
        case .string: return survey_ffi_type_pointer()
        }
    }
}

/// A plugin's C function with a signature known only at run time, called through libffi.
///
/// The call interface (`ffi_cif`) and its argument-type array are prepared once and live exactly
/// as long as this object.
final class ForeignFunction: @unchecked Sendable {
    let library: PluginLibrary
    let name: String
    let returnType: ForeignValueType
    let argumentTypes: [ForeignValueType]
    private let function: @convention(c) () -> Void
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let ffiArgumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    /// Prepares the call interface; `nil` when libffi rejects the signature.
    /// ABI 1.1 `SURVEY_FUNCTION_REPORTS_ERRORS`: the C function takes a last `char **error` argument.
    let reportsErrors: Bool

    init?(
        library: PluginLibrary, name: String, function: UnsafeMutableRawPointer, returnType: ForeignValueType,
        argumentTypes: [ForeignValueType], reportsErrors: Bool = false
    ) {
        self.library = library
        self.name = name
        self.returnType = returnType
        self.argumentTypes = argumentTypes
        self.reportsErrors = reportsErrors
        self.function = unsafeBitCast(function, to: (@convention(c) () -> Void).self)
        let cCount = argumentTypes.count + (reportsErrors ? 1 : 0)
        cif = .allocate(capacity: 1)
        ffiArgumentTypes = .allocate(capacity: max(cCount, 1))
        for (index, type) in argumentTypes.enumerated() { (ffiArgumentTypes + index).initialize(to: type.ffiType) }
        if reportsErrors { (ffiArgumentTypes + argumentTypes.count).initialize(to: survey_ffi_type_pointer()) }
        let status = ffi_prep_cif(
            cif, FFI_DEFAULT_ABI, UInt32(cCount), returnType.ffiType, cCount == 0 ? nil : ffiArgumentTypes)
        guard status == FFI_OK else {
            // deinit does not run for a failed initializer.
            cif.deallocate()
            ffiArgumentTypes.deallocate()
            return nil
        }
    }

    deinit {
        cif.deallocate()
        ffiArgumentTypes.deallocate()
    }

    /// Calls the function. An argument that cannot be converted to its declared type (including
    /// `null`, an unanswered question) makes the result `null` without calling the plugin.
    func call(_ arguments: [JSONValue]) -> JSONValue {
        guard arguments.count == argumentTypes.count else { return .null }
        let count = argumentTypes.count
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(count + 1, 1)) { slots in
            withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: max(count + 1, 1)) { values in
                var strings: [UnsafeMutablePointer<CChar>] = []
                defer { for string in strings { free(string) } }
                for index in 0..<count {
                    let slot = slots.baseAddress.unsafelyUnwrapped + index
                    let raw = UnsafeMutableRawPointer(slot)
                    let argument = arguments[index]
                    switch argumentTypes[index] {
                    case .double:
                        guard let number = argument.numberValue else { return .null }
                        raw.storeBytes(of: number, as: Double.self)
                    case .int64:
                        guard let number = argument.numberValue, number.rounded() == number,
                            let integer = Int64(exactly: number)
                        else { return .null }
                        raw.storeBytes(of: integer, as: Int64.self)
                    case .bool:
                        guard let flag = argument.boolValue else { return .null }
                        raw.storeBytes(of: flag ? 1 : 0, as: UInt8.self)
                    case .string:
                        guard let text = argument.stringValue, let copy = strdup(text) else { return .null }
                        strings.append(copy)
                        raw.storeBytes(of: copy, as: UnsafeMutablePointer<CChar>.self)
                    }
                    values[index] = raw
                }
                var reported: UnsafeMutablePointer<CChar>? = nil
                var result: UInt64 = 0
                withUnsafeMutablePointer(to: &reported) { errorPointer in
                    if reportsErrors {
                        let slot = slots.baseAddress.unsafelyUnwrapped + count
                        UnsafeMutableRawPointer(slot).storeBytes(
                            of: errorPointer, as: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.self)
                        values[count] = UnsafeMutableRawPointer(slot)
                    }
                    withUnsafeMutableBytes(of: &result) { resultBytes in
                        ffi_call(cif, function, resultBytes.baseAddress, values.baseAddress)
                    }
                }
                if let message = library.take(reported) {
                    // A string result that came with an error is released too; no value is used.
                    if returnType == .string { _ = library.take(UnsafeMutablePointer<CChar>(bitPattern: UInt(result))) }
                    library.log("function '\(name)': \(message)")
                    return .null
                }
                switch returnType {
                case .double:
                    let number = Double(bitPattern: result)
                    return number.isFinite ? .number(number) : .null
                case .int64:
                    return .number(Double(Int64(bitPattern: result)))
                case .bool:
                    return .bool(UInt8(truncatingIfNeeded: result) != 0)
                case .string:
                    guard let text = library.take(UnsafeMutablePointer<CChar>(bitPattern: UInt(result))) else {
                        return .null
                    }
                    return .string(text)
                }
            }
        }
    }

    /// The function as an expression function registered under the plugin's path.
    var expressionFunction: ExpressionFunction {
        ExpressionFunction(name: name, arity: argumentTypes.count...argumentTypes.count, origin: library.path) {
            arguments, _ in
            self.call(arguments)
        }
    }

    /// `bmi(double, double) -> double`.
    var signature: String {
        "\(name)(\(argumentTypes.map(\.name).joined(separator: ", "))) -> \(returnType.name)"
    }
}
