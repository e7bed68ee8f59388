import SurveyCore
import SurveyPluginSDK

/// The colour-picker plugin: the `color` question type and a `brightness(color)` function.
enum ColorPickerPlugin: SurveyPlugin {
    static let name = "color-picker"
    static let version = "1.0.0"
    static var questionTypes: [any QuestionType] { [ColorType()] }
    static var functions: [PluginFunction] {
        [PluginFunction(name: "brightness", returns: .double, arguments: [.string], function: brightness)]
    }

    static func optionsSchema(forTypeID typeID: String) -> JSONValue? {
        [
            "type": "object", "additionalProperties": false,
            "properties": [
                "palette": ["type": "array", "items": ["type": "string", "pattern": "^#?[0-9A-Fa-f]{3,6}$"]]
            ],
        ]
    }
}

/// Perceived brightness of a colour, 0 (black) to 1 (white); NaN (null in expressions) for a non-colour.
let brightness: @convention(c) (UnsafePointer<CChar>?) -> Double = { text in
    guard let text, let color = ColorType.canonical(String(cString: text)),
        let value = UInt32(color.dropFirst(), radix: 16)
    else { return .nan }
    let red = Double((value >> 16) & 0xFF)
    let green = Double((value >> 8) & 0xFF)
    let blue = Double(value & 0xFF)
    return (0.299 * red + 0.587 * green + 0.114 * blue) / 255
}

// The one export line.
@_cdecl("survey_plugin_entry") public func surveyPluginEntry() -> UnsafeRawPointer {
    PluginExport.descriptor(for: ColorPickerPlugin.self)
}
