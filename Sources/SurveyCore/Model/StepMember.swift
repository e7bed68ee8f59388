import Foundation

/// The members a step object may have, so that a decoder matches a member's name once and then
/// works with a small integer: comparing a name against the list as strings cost a string
/// comparison per name tried, and reading it as a `String` first cost an allocation check and a
/// UTF-8 validation per member of every step.
enum StepMember: UInt8, CaseIterable {
    case id, type, title, description, required, enabled, visibleIf, requiredIf, branches, options, tags, steps
    case shuffle, defaultValue, defaultValueExpression, readOnly, enableIf, choicesFromQuestion
    case choicesFromQuestionMode, validators, showCommentArea, commentText, setValueIf, setValueExpression
    case resetValueIf, choicesVisibleIf, requiredMessage

    /// The member's name in a survey file.
    var name: String {
        switch self {
        case .id: "id"
        case .type: "type"
        case .title: "title"
        case .description: "description"
        case .required: "required"
        case .enabled: "enabled"
        case .visibleIf: "visibleIf"
        case .requiredIf: "requiredIf"
        case .branches: "branches"
        case .options: "options"
        case .tags: "tags"
        case .steps: "steps"
        case .shuffle: "shuffle"
        case .defaultValue: "defaultValue"
        case .defaultValueExpression: "defaultValueExpression"
        case .readOnly: "readOnly"
        case .enableIf: "enableIf"
        case .choicesFromQuestion: "choicesFromQuestion"
        case .choicesFromQuestionMode: "choicesFromQuestionMode"
        case .validators: "validators"
        case .showCommentArea: "showCommentArea"
        case .commentText: "commentText"
        case .setValueIf: "setValueIf"
        case .setValueExpression: "setValueExpression"
        case .resetValueIf: "resetValueIf"
        case .choicesVisibleIf: "choicesVisibleIf"
        case .requiredMessage: "requiredMessage"
        }
    }

    /// This member's bit in a set of members held as a `UInt32`.
    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The member with this name; `nil` for a name steps do not have.
    init?(name: String) {
        var name = name
        guard let member = name.withUTF8({ Self(utf8: $0) }) else { return nil }
        self = member
    }

    /// The member whose name is these UTF-8 bytes (the text between a key's quotes, with no
    /// escapes); `nil` for any other bytes. One candidate is picked by the length and the first and
    /// last bytes, then compared whole.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 2, let candidate = Self.candidate(bytes.count, bytes[0], bytes[bytes.count - 1]) else {
            return nil
        }
        var name = candidate.name
        let same = name.withUTF8 { name in
            name.count == bytes.count && memcmp(name.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        guard same else { return nil }
        self = candidate
    }

    /// The only member a name of this length, first and last byte can be.
    private static func candidate(_ count: Int, _ first: UInt8, _ last: UInt8) -> StepMember? {
        switch (count, first, last) {
        case (2, UInt8(ascii: "i"), _): .id
        case (4, UInt8(ascii: "t"), UInt8(ascii: "e")): .type
        case (4, UInt8(ascii: "t"), _): .tags
        case (5, UInt8(ascii: "t"), _): .title
        case (5, UInt8(ascii: "s"), _): .steps
        case (7, UInt8(ascii: "e"), _): .enabled
        case (7, UInt8(ascii: "o"), _): .options
        case (7, UInt8(ascii: "s"), _): .shuffle
        case (8, UInt8(ascii: "r"), UInt8(ascii: "d")): .required
        case (8, UInt8(ascii: "r"), _): .readOnly
        case (8, UInt8(ascii: "b"), _): .branches
        case (8, UInt8(ascii: "e"), _): .enableIf
        case (9, UInt8(ascii: "v"), _): .visibleIf
        case (10, UInt8(ascii: "r"), _): .requiredIf
        case (10, UInt8(ascii: "v"), _): .validators
        case (10, UInt8(ascii: "s"), _): .setValueIf
        case (11, UInt8(ascii: "d"), _): .description
        case (11, UInt8(ascii: "c"), _): .commentText
        case (12, UInt8(ascii: "d"), _): .defaultValue
        case (12, UInt8(ascii: "r"), _): .resetValueIf
        case (15, UInt8(ascii: "s"), _): .showCommentArea
        case (15, UInt8(ascii: "r"), _): .requiredMessage
        case (16, UInt8(ascii: "c"), _): .choicesVisibleIf
        case (18, UInt8(ascii: "s"), _): .setValueExpression
        case (19, UInt8(ascii: "c"), _): .choicesFromQuestion
        case (22, UInt8(ascii: "d"), _): .defaultValueExpression
        case (23, UInt8(ascii: "c"), _): .choicesFromQuestionMode
        default: nil
        }
    }
}

/// A step member's name as a decoder read it: one of the members, or another name (an unknown
/// member, reported with its name).
enum StepKey {
    case member(StepMember)
    case other(String)

    /// The name as written in the file (escapes decoded).
    var name: String {
        switch self {
        case .member(let member): member.name
        case .other(let name): name
        }
    }
}
