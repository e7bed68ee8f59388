import SurveyBuiltins
import SurveyCore
import Testing

struct BuiltinsTests {
    @Test func registryHoldsEveryBuiltinType() {
        let registry = QuestionTypeRegistry.builtins()
        let ids = QuestionTypeRegistry.builtinTypes.map(\.typeID)
        #expect(ids.count >= 15)
        #expect(Set(ids).count == ids.count)
        #expect(registry.typeIDs == ids.sorted())
        #expect(
            Set(ids) == [
                "text", "single-choice", "multiple-choice", "boolean", "rating", "scale", "nps", "number", "date",
                "matrix", "ranking", "contact-form", "feedback-form", "discovery-source", "voice", "content",
                "dropdown", "tagbox", "slider", "expression", "multiple-text", "image-choice", "file", "signature",
                "matrix-dropdown", "repeat",
            ])
        for type in registry.types {
            #expect(!type.summary.isEmpty, "\(type.typeID) has no summary")
            #expect(type.origin == "built-in")
            #expect(type.collectsAnswer == (type.typeID != "content"))
        }
    }

    @Test func registeringABuiltinAgainIsADuplicate() {
        var registry = QuestionTypeRegistry.builtins()
        #expect(throws: RegistryError.duplicateTypeID("text", existingOrigin: "built-in", newOrigin: "plugin.so")) {
            try registry.register(TextType(), origin: "plugin.so")
        }
    }

    @Test func everyTypeAcceptsItsDefaultOrMinimalOptions() throws {
        let minimal: [String: JSONValue] = [
            "single-choice": ["choices": ["a"]], "multiple-choice": ["choices": ["a"]],
            "matrix": ["rows": ["r"], "columns": ["c"]], "ranking": ["items": ["a", "b"]],
            "dropdown": ["choices": ["a"]], "tagbox": ["choices": ["a"]], "expression": ["expression": "1 + 1"],
            "multiple-text": ["items": [["name": "a"]]],
            "image-choice": ["choices": [["value": "a", "image": "a.png"]]],
            "matrix-dropdown": ["rows": ["r"], "columns": [["name": "c", "cellType": "text"]]],
            "repeat": ["items": [["name": "a"]]],
        ]
        for type in QuestionTypeRegistry.builtins().types {
            let options = minimal[type.typeID] ?? [:]
            let question = try type.configure(options: options, path: .root.appending("options"), stepID: "q")
            #expect(question.typeID == type.typeID)
        }
    }

    /// Answers that each built-in type rejects, covering every error code the types throw.
    static let invalidAnswers: [(type: String, options: JSONValue, answers: [JSONValue])] = [
        ("text", ["minLength": 2, "maxLength": 3, "pattern": "[a-z]+"], [1, "a", "abcd", "A1"]),
        ("single-choice", ["choices": ["a"], "other": true], ["", "other", true]),
        ("single-choice", ["choices": ["a"]], ["b"]),
        (
            "multiple-choice", ["choices": ["a", "b", "c"], "minSelections": 2, "maxSelections": 2],
            [["a"], ["a", "b", "c"], ["a", "a"], ["z"]]
        ),
        ("multiple-choice", ["choices": ["a"], "other": true], [["other"], ["x", "y"]]),
        ("boolean", [:], ["maybe"]),
        ("rating", [:], ["x", 1.5, 0, 6]),
        ("scale", ["min": 0, "max": 10, "step": 5], ["x", -5, 15, 3]),
        ("nps", [:], [11, 2.5]),
        ("number", ["min": 0, "max": 10, "integer": true, "step": 2], ["x", 1.5, -2, 12, 3]),
        ("date", ["earliest": "2024-01-01", "latest": "2024-12-31"], ["2024-02-30", "2023-12-31", "2025-01-01"]),
        ("matrix", ["rows": ["r"], "columns": ["c"], "allRowsRequired": true], [[:], ["r": "x"], ["s": "c"], "c"]),
        ("ranking", ["items": ["a", "b"]], [["a"], ["a", "a"], ["a", "z"], "a"]),
        (
            "contact-form", ["fields": ["name", "email", "phone"]],
            [
                ["email": "a@b.co"], ["name": "A", "email": "x"], ["name": "A", "email": "a@b.co", "phone": "1"],
                ["fax": "1"],
            ]
        ),
        (
            "feedback-form", ["categories": ["bug"], "messageMaxLength": 3],
            [
                [:], ["message": "long"], ["message": "a", "rating": 9], ["message": "a", "category": "z"],
                ["message": "a", "email": "x"],
            ]
        ),
        ("discovery-source", [:], ["other", false]),
        (
            "voice", ["maxDurationSeconds": 10],
            ["a.flac", ["file": "a.wav", "durationSeconds": 11], "data:audio/wav;base64,AA"]
        ),
        ("content", [:], ["x"]),
    ]

    static let documentedCodes: Set<String> = [
        "required", "wrongShape", "notAChoice", "otherTextRequired", "tooFewSelections", "tooManySelections",
        "duplicateSelection", "tooShort", "tooLong", "patternMismatch", "notANumber", "notAnInteger", "belowMinimum",
        "aboveMaximum", "notOnStep", "notABoolean", "invalidDate", "dateTooEarly", "dateTooLate", "invalidEmail",
        "invalidPhone", "incompleteRanking", "missingRow", "missingField", "unsupportedFormat", "tooLongRecording",
        "notAnswerable",
    ]

    @Test func everyErrorCodeHasAnEnglishTemplateWithMatchingArguments() throws {
        let registry = QuestionTypeRegistry.builtins()
        let strings = UIStrings(locale: "en")
        var seen: Set<String> = []
        for (typeID, options, answers) in Self.invalidAnswers {
            let type = try #require(registry.type(withID: typeID))
            let question = try type.configure(options: options, path: .root.appending("options"), stepID: "q")
            for answer in answers {
                let error = try #require(answerError(question, answer), "\(typeID) accepted \(answer)")
                seen.insert(error.code)
                let template = strings.template(forKey: "error." + error.code)
                #expect(template != nil, "no English template for \(error.code)")
                #expect(
                    Self.placeholders(in: template ?? "") == Set(error.arguments.keys),
                    "\(typeID): \(error.code) arguments \(error.arguments) do not fill '\(template ?? "")'")
                #expect(!strings.message(for: error).contains("{"))
            }
        }
        #expect(seen == Self.documentedCodes)
    }

    static func placeholders(in template: String) -> Set<String> {
        var names: Set<String> = []
        var current: String?
        for character in template {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                names.insert(name)
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return names
    }
}
