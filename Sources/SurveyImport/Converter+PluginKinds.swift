import SurveyCore

extension Converter {
    /// The members of a question that the conversion reads for every kind (its id, wording,
    /// conditions, default, validators…), so never a plugin kind's options.
    static let commonQuestionMembers: Set<String> = [
        "type", "name", "valueName", "title", "description", "visibleIf", "enableIf", "requiredIf", "setValueIf",
        "setValueExpression", "resetValueIf", "isRequired", "readOnly", "visible", "defaultValue",
        "defaultValueExpression", "validators", "correctAnswer", "choicesFromQuestion", "choicesFromQuestionMode",
        "showCommentArea", "hasComment", "commentText",
    ]

    /// A custom SurveyJS question type (one an app registers in survey-core, such as a
    /// `ComponentCollection` entry) with the id of a kind a loaded plugin registered: that kind,
    /// its options every member that is not one of ``commonQuestionMembers``, a layout-only
    /// property or one the converter knows it cannot convert. `nil` for any other type.
    mutating func pluginKind(_ type: String, _ members: inout Members) -> ConvertedKind? {
        guard pluginKinds.contains(type) else { return nil }
        var kind = ConvertedKind(type: type)
        for key in members.members.keys.sorted()
        where !Self.commonQuestionMembers.contains(key) && !Vocabulary.layout.contains(key)
            && Vocabulary.unsupported[key] == nil
        {
            if let value = members.take(key) { kind.options[key] = value }
        }
        return kind
    }
}
