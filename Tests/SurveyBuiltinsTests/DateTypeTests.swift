import SurveyBuiltins
import SurveyCore
import Testing

struct DateTypeTests {
    static let normalForms: [(JSONValue, JSONValue)] = [
        ("2024-02-29", "2024-02-29"), ("2000-02-29", "2000-02-29"), ("2023-12-31", "2023-12-31"),
        (" 2023-01-01 ", "2023-01-01"), ("1999-04-30", "1999-04-30"),
    ]

    @Test(arguments: normalForms)
    func acceptsRealDates(date: JSONValue, expected: JSONValue) throws {
        #expect(try configure(DateType()).normalize(date) == expected)
    }

    @Test(arguments: [
        "2023-02-29", "1900-02-29", "2023-02-30", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "2023-1-01",
        "23-01-01", "2023/01/01", "01-01-2023", "2023-01-01T10:00", "２０２３-01-01", "", "tomorrow",
    ])
    func rejectsInvalidDates(date: String) throws {
        AnswerErrorCase(.string(date), "invalidDate", [:]).check(try configure(DateType()))
    }

    @Test func rejectsNonStrings() throws {
        AnswerErrorCase(20_230_101, "invalidDate").check(try configure(DateType()))
    }

    @Test func enforcesBounds() throws {
        let question = try configure(DateType(), ["earliest": "2024-01-01", "latest": "2024-12-31"])
        #expect(try question.normalize("2024-01-01") == "2024-01-01")
        #expect(try question.normalize("2024-12-31") == "2024-12-31")
        AnswerErrorCase("2023-12-31", "dateTooEarly", ["min": "2024-01-01"]).check(question)
        AnswerErrorCase("2025-01-01", "dateTooLate", ["max": "2024-12-31"]).check(question)
        #expect(question.input(in: english) == .date(DateInput(earliest: "2024-01-01", latest: "2024-12-31")))
    }

    @Test(arguments: [
        OptionErrorCase(["earliest": "2024-02-30"], .invalidValue, "$.options.earliest"),
        OptionErrorCase(["latest": "31/12/2024"], .invalidValue, "$.options.latest"),
        OptionErrorCase(["earliest": 2024], .invalidValue, "$.options.earliest"),
        OptionErrorCase(["earliest": "2024-06-01", "latest": "2024-05-31"], .invalidOptions, "$.options.latest"),
        OptionErrorCase(["min": "2024-01-01"], .unknownField, "$.options.min"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(DateType())
    }

    @Test func parseKeepsTheTypedDate() throws {
        let question = try configure(DateType())
        #expect(try question.normalize(try question.parse(line: " 2024-03-01 ", in: english)) == "2024-03-01")
    }

    @Test func summaryCountsDatesInOrder() throws {
        let summary = try configure(DateType()).summarize(["2024-03-01", "2024-01-01", "2024-03-01"], in: english)
        #expect(summary.buckets.map(\.value) == ["2024-01-01", "2024-03-01"])
        #expect(summary.buckets.map(\.count) == [1, 2])
    }

    @Test(arguments: ["2024-02-29", " 2020-10-10"])
    func normalizeIsIdempotent(date: String) throws {
        let question = try configure(DateType())
        let once = try question.normalize(.string(date))
        #expect(try question.normalize(once) == once)
    }
}
