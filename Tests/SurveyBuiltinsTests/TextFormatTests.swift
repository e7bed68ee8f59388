import SurveyBuiltins
import SurveyCore
import Testing

/// `text` with `inputType` and `mask` (SurveyJS's inputType variants and input masks).
struct TextInputTypeTests {
    @Test(arguments: [
        ("email", " Ada@Example.COM ", "Ada@example.com"), ("tel", "+1 (555) 123-4567", "+1 (555) 123-4567"),
        ("url", "https://example.com/a?b", "https://example.com/a?b"), ("color", "#FF8800", "#ff8800"),
        ("color", "abc", "#aabbcc"), ("time", "9:05", "09:05"), ("month", "2026-12", "2026-12"),
        ("week", "2026-W49", "2026-W49"), ("datetime-local", "2026-12-01T14:30", "2026-12-01T14:30"),
        ("password", " s3cret ", "s3cret"),
    ])
    func validTextIsNormalised(inputType: String, typed: String, kept: String) throws {
        let question = try configure(TextType(), ["inputType": .string(inputType)])
        #expect(try question.normalize(.string(typed)) == .string(kept))
    }

    @Test(arguments: [
        ("email", "ada@", "invalidEmail"), ("tel", "12", "invalidPhone"), ("url", "example.com", "invalidFormat"),
        ("url", "ftp://x.org", "invalidFormat"), ("color", "#GG0000", "invalidFormat"),
        ("time", "24:00", "invalidFormat"),
        ("month", "2026-13", "invalidFormat"), ("week", "2026-W54", "invalidFormat"),
        ("datetime-local", "2026-02-30T10:00", "invalidFormat"),
    ])
    func invalidTextIsRefused(inputType: String, typed: String, code: String) throws {
        let question = try configure(TextType(), ["inputType": .string(inputType)])
        let error = answerError(question, .string(typed))
        #expect(error?.code == code)
        if code == "invalidFormat" { #expect(error?.arguments["example"] != nil) }
    }

    @Test(arguments: [("tel", "12"), ("tel", "n/a"), ("url", "example.com")])
    func withoutCheckFormatAnyTextIsKeptAsTyped(inputType: String, typed: String) throws {
        let question = try configure(TextType(), ["inputType": .string(inputType), "checkFormat": false])
        #expect(try question.normalize(.string(" " + typed + " ")) == .string(typed))
        guard case .freeText(let input) = question.input(in: english) else {
            Issue.record("not free text")
            return
        }
        #expect(input.presentation == (inputType == "tel" ? "phone" : "url"))
    }

    @Test func frontEndsGetTheInputTypeAsAHint() throws {
        let question = try configure(TextType(), ["inputType": "tel"])
        guard case .freeText(let input) = question.input(in: english) else {
            Issue.record("not free text")
            return
        }
        #expect(input.presentation == "phone")
    }

    @Test(arguments: [
        OptionErrorCase(["inputType": "number"], .invalidOptions, "$.options.inputType"),
        OptionErrorCase(["inputType": "emial"], .invalidOptions, "$.options.inputType"),
        OptionErrorCase(
            ["inputType": "email", "mask": ["type": "pattern", "pattern": "999"]], .invalidOptions, "$.options.mask"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(TextType())
    }

    @Test func aNumberInputTypeSaysWhichKindToUse() {
        #expect(optionError(TextType(), ["inputType": "range"])?.message.contains("use \"type\": \"slider\"") == true)
    }
}

struct TextMaskTests {
    @Test func aPatternMaskKeepsThePlaceholdersCharacters() throws {
        let phone = try configure(TextType(), ["mask": ["type": "pattern", "pattern": "+1 (999) 999-9999"]])
        // survey-core keeps the placeholders' characters and the literals that are ASCII letters or
        // digits (the country code's 1); what it keeps, and the placeholders alone, are accepted too.
        #expect(try phone.normalize("+1 (555) 123-4567") == "15551234567")
        #expect(try phone.normalize("15551234567") == "15551234567")
        #expect(try phone.normalize("5551234567") == "15551234567")
        let escaped = try configure(TextType(), ["mask": ["type": "pattern", "pattern": "ID-\\9-999"]])
        #expect(try escaped.normalize("ID-9-042") == "ID9042")
        #expect(answerError(escaped, "ID-8-042")?.code == "invalidFormat")
        let refused = answerError(phone, "+1 (555) 12-34567")
        #expect(refused?.code == "invalidFormat" && refused?.arguments["example"] == "+1 (999) 999-9999")
        #expect(answerError(phone, "555123456a")?.code == "invalidFormat")
        let kept = try configure(
            TextType(), ["mask": ["type": "pattern", "pattern": "aa-9999", "saveMaskedValue": true]])
        #expect(try kept.normalize("AB1234") == "AB-1234")
        #expect(answerError(kept, "A11234")?.code == "invalidFormat")
        guard case .freeText(let input) = phone.input(in: english) else {
            Issue.record("not free text")
            return
        }
        #expect(input.placeholder == "+1 (999) 999-9999" && input.presentation == "mask")
    }

    @Test func numericAndCurrencyMasksKeepANumber() throws {
        let amount = try configure(
            TextType(),
            [
                "mask": [
                    "type": "numeric", "decimalSeparator": ",", "thousandsSeparator": ".", "precision": 1, "max": 5000,
                ]
            ])
        #expect(try amount.normalize("1.234,56") == 1234.5)
        #expect(try amount.normalize(12) == 12)
        #expect(try amount.normalize("-3") == -3)
        #expect(answerError(amount, "12a")?.code == "notANumber")
        #expect(answerError(amount, "5.000,1")?.code == "aboveMaximum")
        let price = try configure(
            TextType(), ["mask": ["type": "currency", "prefix": "$", "allowNegativeValues": false, "precision": 2]])
        #expect(try price.normalize("$1,299.999") == 1299.99)
        #expect(try price.normalize("45") == 45)
        #expect(answerError(price, "-$3")?.code == "belowMinimum")
        #expect(answerError(price, true)?.code == "wrongShape")
    }

    /// What is typed in a datetime mask is kept in ISO 8601; the ISO value it keeps (what survey-core's
    /// data and scripts hold) is accepted as well, and `yy` above 68 is 19yy.
    @Test(arguments: [
        ("mm/dd/yyyy", "12/01/2026", "2026-12-01"), ("mm/dd/yyyy", "2026-12-01", "2026-12-01"),
        ("mm/yyyy", "04/1989", "1989-04"), ("mm/yyyy", "1989-04", "1989-04"), ("yyyy", "1989", "1989"),
        ("dd/mm/yy HH:MM", "18/04/89 14:30", "1989-04-18T14:30"),
        ("dd/mm/yy HH:MM", "18/04/68 14:30", "2068-04-18T14:30"),
        ("dd/mm/yy HH:MM", "1989-04-18T14:30", "1989-04-18T14:30"),
        ("dd.mm.yy HH:MM", "01.12.26 09:05", "2026-12-01T09:05"), ("HH:MM", "23:59", "23:59"),
    ])
    func aDateTimeMaskKeepsISO8601(pattern: String, typed: String, kept: String) throws {
        let mask = try configure(TextType(), ["mask": ["type": "datetime", "pattern": .string(pattern)]])
        #expect(try mask.normalize(.string(typed)) == .string(kept))
    }

    @Test(arguments: [("mm/dd/yyyy", "02/30/2026"), ("mm/dd/yyyy", "2026-02-30"), ("HH:MM", "24:00")])
    func aDateTimeMaskRefusesWhatIsNoDateOrTime(pattern: String, typed: String) throws {
        let mask = try configure(TextType(), ["mask": ["type": "datetime", "pattern": .string(pattern)]])
        #expect(answerError(mask, .string(typed))?.code == "invalidFormat")
    }

    @Test(arguments: [
        OptionErrorCase(["mask": ["type": "regex"]], .invalidOptions, "$.options.mask.type"),
        OptionErrorCase(["mask": ["type": "pattern", "pattern": "---"]], .invalidOptions, "$.options.mask.pattern"),
        OptionErrorCase(["mask": ["type": "pattern"]], .missingField, "$.options.mask"),
        OptionErrorCase(
            ["mask": ["type": "numeric", "decimalSeparator": ",", "thousandsSeparator": ","]], .invalidOptions,
            "$.options.mask.decimalSeparator"),
        OptionErrorCase(["mask": ["type": "numeric", "min": 5, "max": 1]], .invalidOptions, "$.options.mask.max"),
        OptionErrorCase(["mask": ["type": "numeric", "prefix": "$"]], .unknownField, "$.options.mask.prefix"),
        OptionErrorCase(
            ["mask": ["type": "datetime", "pattern": "dd/yyyy"]], .invalidOptions, "$.options.mask.pattern"),
        OptionErrorCase(
            ["mask": ["type": "datetime", "pattern": "dd/dd/yyyy"]], .invalidOptions, "$.options.mask.pattern"),
    ])
    func rejectsInvalidMasks(invalid: OptionErrorCase) {
        invalid.check(TextType())
    }
}
