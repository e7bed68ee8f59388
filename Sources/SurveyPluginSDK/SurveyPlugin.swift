import SurveyCore

/// A plugin written in Swift: a name, a version, question types and expression functions.
///
/// Question types are ordinary `QuestionType` conformances, written exactly like built-ins.
/// The SDK adapts them to the C ABI of `survey_plugin.h`; the host never sees a Swift object,
/// so host and plugin need not share a build or a copy of `SurveyCore`.
///
/// ```swift
/// import SurveyCore
/// import SurveyPluginSDK
///
/// enum ColorPickerPlugin: SurveyPlugin {
///     static let name = "color-picker"
///     static let version = "1.0.0"
///     static var questionTypes: [any QuestionType] { [ColorType()] }
/// }
///
/// // The one export line:
/// @_cdecl("survey_plugin_entry") public func entry() -> UnsafeRawPointer { PluginExport.descriptor(for: ColorPickerPlugin.self) }
/// ```
public protocol SurveyPlugin {
    /// The plugin's name, e.g. `"color-picker"`.
    static var name: String { get }
    /// The plugin's version, e.g. `"1.0.0"`.
    static var version: String { get }
    /// The question types it adds. Default: none.
    static var questionTypes: [any QuestionType] { get }
    /// The expression functions it adds. Default: none.
    static var functions: [PluginFunction] { get }
    /// A JSON Schema for the options of the type with id `typeID`, or `nil`. Default: `nil`.
    static func optionsSchema(forTypeID typeID: String) -> JSONValue?
}

extension SurveyPlugin {
    public static var questionTypes: [any QuestionType] { [] }
    public static var functions: [PluginFunction] { [] }
    public static func optionsSchema(forTypeID typeID: String) -> JSONValue? { nil }
}

/// An expression function exported by a Swift plugin: a `@convention(c)` function and its signature.
///
/// String arguments arrive as `UnsafePointer<CChar>?` owned by the host; a string result must be
/// allocated with `malloc`/`strdup` (the SDK's `free_string` calls `free`), or `nil` for null.
///
/// ```swift
/// let brightness: @convention(c) (UnsafePointer<CChar>?) -> Double = { text in … }
/// PluginFunction(name: "brightness", returns: .double, arguments: [.string], function: brightness)
/// ```
public struct PluginFunction {
    /// A C type from the ABI's `survey_value_type`.
    public enum ValueType: UInt32, Sendable {
        /// `double`.
        case double = 1
        /// `int64_t`.
        case int64 = 2
        /// `bool` (Swift `Bool`).
        case bool = 3
        /// `const char *` argument, `char *` (malloc'd) result.
        case string = 4
    }

    /// The name used in expressions.
    public var name: String
    /// The return type.
    public var returnType: ValueType
    /// The argument types, in order.
    public var argumentTypes: [ValueType]
    /// The function's address; `nil` when the value passed was not a C function pointer.
    public var address: UnsafeRawPointer?

    /// Exports `function`, a `@convention(c)` function value whose C signature matches
    /// `returns` and `arguments`.
    public init<Function>(name: String, returns: ValueType, arguments: [ValueType], function: Function) {
        self.name = name
        self.returnType = returns
        self.argumentTypes = arguments
        if MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size {
            address = unsafeBitCast(function, to: UnsafeRawPointer?.self)
        } else {
            // Not a C function pointer (a Swift closure is two words): the loader reports a NULL function.
            address = nil
        }
    }
}
