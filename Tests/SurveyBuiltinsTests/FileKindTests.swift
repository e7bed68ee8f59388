import SurveyBuiltins
import SurveyCore
import Testing

/// `file`: attached files as references, with allowed types, a size limit and a count.
struct FileTypeTests {
    @Test func aPathOrOneFileIsAnArrayOfOneNormalisedFile() throws {
        let question = try configure(FileType())
        #expect(try question.normalize("docs/CV.PDF") == [["file": "docs/CV.PDF", "name": "CV.PDF", "format": "pdf"]])
        #expect(
            try question.normalize([
                "content": "https://files.example/a1?sig=x", "name": "scan.JPG", "type": "image/jpeg", "size": 2048,
            ]) == [
                [
                    "file": "https://files.example/a1?sig=x", "name": "scan.JPG", "format": "jpg", "type": "image/jpeg",
                    "size": 2048,
                ]
            ])
        #expect(try question.normalize([]) == .null)
        #expect(try question.normalize(["README"]) == [["file": "README", "name": "README"]])
    }

    @Test func formatsSizeAndCountAreChecked() throws {
        let question = try configure(
            FileType(), ["formats": ["PDF", ".docx"], "maxSizeBytes": 1_048_576, "multiple": true, "maxFiles": 2])
        #expect(
            try question.normalize([["file": "a.pdf", "size": 10], ["file": "b.docx", "size": 1_048_576]])
                == [
                    ["file": "a.pdf", "name": "a.pdf", "format": "pdf", "size": 10],
                    ["file": "b.docx", "name": "b.docx", "format": "docx", "size": 1_048_576],
                ])
        let wrongType = answerError(question, [["file": "a.pdf", "size": 1], ["file": "b.exe", "size": 1]])
        #expect(wrongType?.code == "unsupportedFormat" && wrongType?.field == "files[1]")
        #expect(wrongType?.arguments["formats"] == "pdf, docx")
        let tooLarge = answerError(question, [["file": "a.pdf", "size": 1_048_577]])
        #expect(tooLarge?.code == "fileTooLarge" && tooLarge?.arguments["max"] == "1 MB")
        #expect(tooLarge?.field == "files[0].size")
        // Without a size there is nothing to check the limit against.
        #expect(try question.normalize(["a.pdf"]) == [["file": "a.pdf", "name": "a.pdf", "format": "pdf"]])
        let three = (1...3).map { JSONValue.object(["file": .string("f\($0).pdf"), "size": 1]) }
        #expect(answerError(question, .array(three))?.code == "tooManyFiles")
        #expect(answerError(question, [["file": "a.pdf", "size": -1]])?.code == "wrongShape")
        #expect(answerError(question, [["file": "a.pdf", "size": 1.5]])?.code == "wrongShape")
    }

    @Test func aSingleFileQuestionTakesOneFile() throws {
        let question = try configure(FileType())
        #expect(answerError(question, ["a.pdf", "b.pdf"])?.code == "tooManyFiles")
        guard case .fileReference(let input) = question.input(in: english) else {
            Issue.record("not a file reference")
            return
        }
        #expect(input.maximumCount == 1 && input.presentation == "file" && input.allowedFormats.isEmpty)
        #expect(try question.parse(line: " a, b.pdf ", in: english) == [["file": "a, b.pdf"]])
        let several = try configure(FileType(), ["multiple": true])
        #expect(try several.parse(line: "a.pdf, b.pdf", in: english) == [["file": "a.pdf"], ["file": "b.pdf"]])
        #expect(several.input(in: english).jsonValue["maxFiles"] == nil)
    }

    @Test func inlineBytesAndBadShapesAreRefused() throws {
        let question = try configure(FileType())
        #expect(
            answerError(question, "data:application/pdf;base64,JVBERi0=")?.message.contains("not the file bytes")
                == true)
        #expect(
            answerError(question, [["name": "a.pdf", "content": "data:application/pdf;base64,AA=="]])?.code
                == "wrongShape")
        #expect(answerError(question, [["file": "a.pdf", "base64": "AA=="]])?.code == "wrongShape")
        let unknown = answerError(question, [["file": "a.pdf", "colour": "red"]])
        #expect(unknown?.code == "wrongShape" && unknown?.field == "files[0].colour")
        #expect(answerError(question, [["file": "a.pdf", "content": "b.pdf"]])?.field == "files[0].content")
        #expect(answerError(question, [["name": "a.pdf"]])?.field == "files[0].file")
        #expect(answerError(question, 3)?.code == "wrongShape")
        #expect(answerError(question, [3])?.field == "files[0]")
    }

    @Test func theSummaryCountsFormatsAndFiles() throws {
        let question = try configure(FileType(), ["multiple": true])
        let answers: [JSONValue] = [
            try question.normalize(["a.pdf", "b.png"]), try question.normalize(["c.pdf"]), .null,
        ]
        let summary = question.summarize(answers, in: english)
        #expect(summary.answered == 2)
        #expect(summary.buckets.map(\.value) == ["pdf", "png"])
        #expect(summary.buckets.map(\.count) == [2, 1])
        #expect(summary.mean == 1.5 && summary.maximum == 2)
    }

    @Test(arguments: [
        OptionErrorCase(["formats": []], .invalidOptions, "$.options.formats"),
        OptionErrorCase(["formats": ["a/b"]], .invalidOptions, "$.options.formats[0]"),
        OptionErrorCase(["formats": ["pdf", ".PDF"]], .invalidOptions, "$.options.formats[1]"),
        OptionErrorCase(["maxSizeBytes": 0], .invalidValue, "$.options.maxSizeBytes"),
        OptionErrorCase(["maxSizeBytes": 1.5], .invalidValue, "$.options.maxSizeBytes"),
        OptionErrorCase(["maxFiles": 3], .invalidOptions, "$.options.maxFiles"),
        OptionErrorCase(["multiple": "yes"], .invalidValue, "$.options.multiple"),
        OptionErrorCase(["allowMultiple": true], .unknownField, "$.options.allowMultiple"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(FileType())
    }

    @Test func byteCountsReadAsPeopleWriteThem() {
        #expect(FileInput.byteCount(1) == "1 byte")
        #expect(FileInput.byteCount(1023) == "1023 bytes")
        #expect(FileInput.byteCount(1536) == "1.5 KB")
        #expect(FileInput.byteCount(5 * 1_048_576) == "5 MB")
        #expect(FileInput.byteCount(3 * 1_073_741_824 / 2) == "1.5 GB")
    }
}

/// `signature`: a reference to the image of a drawn signature.
struct SignatureTypeTests {
    @Test func answersAreImageReferences() throws {
        let question = try configure(SignatureType())
        #expect(try question.normalize("sig/123.PNG") == ["file": "sig/123.PNG", "format": "png"])
        #expect(
            try question.normalize(["file": "https://x.example/s?id=1", "format": "SVG"]) == [
                "file": "https://x.example/s?id=1", "format": "svg",
            ])
        #expect(try question.normalize("") == .null)
        #expect(answerError(question, "sig.gif")?.code == "unsupportedFormat")
        #expect(
            answerError(question, "data:image/png;base64,iVBORw0KGgo=")?.message.contains("signature image") == true)
        #expect(answerError(question, ["file": "s.png", "width": 3])?.field == "width")
        #expect(answerError(question, ["s.png"])?.code == "wrongShape")
        let gifs = try configure(SignatureType(), ["formats": ["gif"]])
        #expect(try gifs.normalize("s.gif") == ["file": "s.gif", "format": "gif"])
        guard case .fileReference(let input) = question.input(in: english) else {
            Issue.record("not a file reference")
            return
        }
        #expect(input.presentation == "signature" && input.maximumCount == 1)
        #expect(input.allowedFormats == ["png", "svg", "jpeg", "jpg"])
        let summary = question.summarize(
            [try question.normalize("a.png"), try question.normalize("b.svg"), .null], in: english)
        #expect(summary.answered == 2 && summary.buckets.map(\.count) == [1, 1, 0, 0])
    }

    @Test(arguments: [
        OptionErrorCase(["formats": []], .invalidOptions, "$.options.formats"),
        OptionErrorCase(["penColor": "blue"], .unknownField, "$.options.penColor"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(SignatureType())
    }
}

/// `matrix-dropdown`: rows × columns, each column a question of its own kind.
struct MatrixDropdownTypeTests {
    static let options: JSONValue = [
        "rows": ["Email", ["value": "chat", "label": ["en": "Chat", "fr": "Messagerie"]]],
        "choices": ["daily", "weekly", "never"],
        "columns": [
            ["name": "often", "title": ["en": "How often", "fr": "Fréquence"], "required": true],
            ["name": "hours", "cellType": "number", "options": ["min": 0, "max": 80]],
            ["name": "tools", "cellType": "multiple-choice", "options": ["choices": ["web", "app"]]],
            ["name": "likes", "cellType": "boolean"],
        ],
    ]

    @Test func eachCellIsCheckedByItsColumnsKind() throws {
        let question = try configure(MatrixDropdownType(), Self.options)
        #expect(
            try question.normalize([
                "Email": ["often": "Daily", "hours": "5", "tools": ["app"], "likes": true],
                "chat": ["often": "never", "hours": nil, "tools": []],
            ]) == [
                "Email": ["often": "daily", "hours": 5, "tools": ["app"], "likes": true], "chat": ["often": "never"],
            ])
        #expect(try question.normalize([:]) == .null)
        #expect(try question.normalize(["Email": [:]]) == .null)
        let range = answerError(question, ["Email": ["often": "daily", "hours": 81]])
        #expect(range?.code == "aboveMaximum" && range?.field == "Email.hours")
        let choice = answerError(question, ["chat": ["often": "hourly"]])
        #expect(choice?.code == "notAChoice" && choice?.field == "chat.often")
        let missing = answerError(question, ["chat": ["hours": 3]])
        #expect(missing?.code == "missingField" && missing?.field == "Email.often")
        #expect(missing?.arguments["field"] == "How often")
        do {
            _ = try question.normalize(
                ["chat": ["hours": 3]], in: PresentationContext(locale: "fr", defaultLocale: "en"))
            Issue.record("accepted a row without its required cell")
        } catch {
            #expect(error.arguments["field"] == "Fréquence")
        }
    }

    @Test func wrongShapesNameTheRowOrColumn() throws {
        let question = try configure(MatrixDropdownType(), Self.options)
        #expect(answerError(question, "daily")?.code == "wrongShape")
        #expect(answerError(question, ["Fax": ["often": "daily"]])?.field == "Fax")
        #expect(answerError(question, ["Email": ["colour": "red"]])?.field == "Email.colour")
        #expect(answerError(question, ["Email": "daily"])?.field == "Email")
        let everyRow = try configure(
            MatrixDropdownType(),
            ["rows": ["a", "b"], "columns": [["name": "n", "cellType": "text"]], "allRowsRequired": true])
        #expect(answerError(everyRow, ["a": ["n": "x"]])?.code == "missingRow")
    }

    @Test func itIsAskedAsAFormOfRowsOfCells() throws {
        let question = try configure(MatrixDropdownType(), Self.options)
        guard case .composite(let rows) = question.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
        else {
            Issue.record("not a composite")
            return
        }
        #expect(rows.presentation == "matrix-dropdown")
        #expect(rows.fields.map(\.label) == ["Email", "Messagerie"])
        guard case .composite(let cells) = rows.fields[0].input else {
            Issue.record("a row is not a composite")
            return
        }
        #expect(cells.fields.map(\.name) == ["often", "hours", "tools", "likes"])
        #expect(cells.fields[0].label == "Fréquence" && cells.fields[0].isRequired)
        #expect(cells.fields[0].input.choiceInput?.presentation == "dropdown")
        #expect(cells.fields[1].input.kindName == "number")
        let summary = question.summarize(
            [try question.normalize(["Email": ["often": "daily"], "chat": ["often": "weekly", "hours": 2]]), .null],
            in: english)
        #expect(summary.answered == 1)
        #expect(summary.buckets.filter { $0.count == 1 }.map(\.value) == ["Email.often", "chat.often", "chat.hours"])
    }

    @Test(arguments: [
        OptionErrorCase(["rows": ["a"]], .missingField, "$.options"),
        OptionErrorCase(["rows": ["a"], "columns": [["name": "c"]]], .missingField, "$.options.columns[0]"),
        OptionErrorCase(
            ["rows": ["a"], "columns": [["name": "c", "cellType": "sparkle"]]], .invalidOptions,
            "$.options.columns[0].cellType"),
        OptionErrorCase(
            ["rows": ["a"], "columns": [["name": "c", "cellType": "number", "options": ["min": "x"]]]], .invalidValue,
            "$.options.columns[0].options.min"),
        OptionErrorCase(
            ["rows": ["a"], "columns": [["name": "c", "cellType": "text"], ["name": "c", "cellType": "text"]]],
            .invalidOptions,
            "$.options.columns[1]"),
        OptionErrorCase(
            ["rows": ["a"], "columns": [["name": "c", "cellType": "text", "colour": 1]]], .unknownField,
            "$.options.columns[0].colour"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(MatrixDropdownType())
    }

    @Test func noRowsOrNoColumnsAskNothingAndLoad() throws {
        // SurveyJS allows both; `survey lint` reports them (nothing-to-answer).
        let noColumns = try configure(MatrixDropdownType(), ["rows": ["a"], "columns": []])
        #expect(noColumns.isEmpty(try noColumns.normalize(.object([:]))))
        let noRows = try configure(MatrixDropdownType(), ["rows": [], "columns": [["name": "c", "cellType": "text"]]])
        #expect(throws: AnswerError.self) { try noRows.normalize(["a": ["c": "x"]]) }
    }
}
