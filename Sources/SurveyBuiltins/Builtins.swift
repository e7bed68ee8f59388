import SurveyCore

extension QuestionTypeRegistry {
    /// All built-in types, listed explicitly (Swift cannot discover conformances at run time).
    ///
    /// Each is registered like any custom type would be; the engine has no special cases for them.
    public static var builtinTypes: [any QuestionType] {
        [
            TextType(), SingleChoiceType(), MultipleChoiceType(), BooleanType(), RatingType(), ScaleType(), NPSType(),
            NumberType(), DateType(), MatrixType(), RankingType(), ContactFormType(), FeedbackFormType(),
            DiscoverySourceType(), VoiceType(), ContentType(), DropdownType(), TagboxType(), SliderType(),
            ExpressionType(), MultipleTextType(), ImageChoiceType(), FileType(), SignatureType(),
            MatrixDropdownType(), RepeatType(),
        ]
    }

    /// A registry holding every built-in type, with origin `"built-in"`.
    ///
    /// ```swift
    /// var registry = QuestionTypeRegistry.builtins()
    /// try registry.register(ColorType(), origin: "my-app")
    /// ```
    public static func builtins() -> QuestionTypeRegistry {
        var registry = QuestionTypeRegistry()
        for type in builtinTypes {
            do {
                try registry.register(type)
            } catch {
                assertionFailure("built-in question types must have unique ids: \(error)")
            }
        }
        return registry
    }
}
