import SurveyCore
import SurveyPluginSDK

/// `tri-state`: yes, no or "not sure", with the labels in the respondent's language.
struct TriStateType: QuestionType {
    var typeID: String { "tri-state" }
    var summary: String { "Yes, no or not sure" }

    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Bool {
        try reader.bool("allowUnsure", default: true)
    }

    func input(for allowUnsure: Bool, in context: PresentationContext) -> InputPrimitive {
        let french = context.locale.hasPrefix("fr")
        var choices = [
            Choice(value: "yes", label: french ? "Oui" : "Yes"), Choice(value: "no", label: french ? "Non" : "No"),
        ]
        if allowUnsure { choices.append(Choice(value: "unsure", label: french ? "Je ne sais pas" : "Not sure")) }
        return .singleChoice(ChoiceInput(choices: choices))
    }

    func normalize(_ answer: JSONValue, options allowUnsure: Bool) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: allowUnsure, in: PresentationContext(locale: "en", defaultLocale: "en"))
    }

    /// ABI 1.1: the message in the respondent's language.
    func normalize(_ answer: JSONValue, options allowUnsure: Bool, in context: PresentationContext)
        throws(AnswerError) -> JSONValue
    {
        let allowed = allowUnsure ? ["yes", "no", "unsure"] : ["yes", "no"]
        guard let value = answer.stringValue, allowed.contains(value) else {
            let message = context.locale.hasPrefix("fr") ? "Répondez oui ou non." : "Answer yes or no."
            throw AnswerError(code: "notAChoice", message: message, isLocalized: true)
        }
        return .string(value)
    }
}

enum TriStatePlugin: SurveyPlugin {
    static let name = "tri-state"
    static let version = "1.0.0"
    static var questionTypes: [any QuestionType] { [TriStateType()] }
}

// The one export line.
@_cdecl("survey_plugin_entry") public func surveyPluginEntry() -> UnsafeRawPointer {
    PluginExport.descriptor(for: TriStatePlugin.self)
}
