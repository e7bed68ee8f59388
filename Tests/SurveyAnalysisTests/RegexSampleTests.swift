import Foundation
import Testing

@testable import SurveyAnalysis

/// Texts that regular expressions match, for paths through questions with a `regex` validator.
@Suite struct RegexSampleTests {
    @Test(arguments: [
        #"^\d{9}$"#, #"^\d{3}-\d{2}-\d{4}$"#, "^[A-Z]{2}-[0-9]+$", #"^\(?\d{3}\)?[- ]?\d{3}-\d{4}$"#,
        "^(yes|no)$", "^[^0-9]+$", #"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$"#,
        #"^(?=.*[A-Z])(?=.*\d).{8,}$"#, #"^[0-9]{5}(?:-[0-9]{4})?$"#, #"\bcat\b"#, "colou?r",
        #"^\p{Lu}"#, "^[1-9][0-9]{0,2}$", #"^https?://\S+$"#,
    ])
    func eachSampleMatchesItsPattern(pattern: String) throws {
        guard pattern != #"^\p{Lu}"# else {
            // Outside the subset (a Unicode property): no sample rather than a wrong one.
            #expect(RegexSample.text(matching: pattern) == nil)
            return
        }
        let sample = try #require(RegexSample.text(matching: pattern), "no sample for \(pattern)")
        let regex = try NSRegularExpression(pattern: pattern)
        #expect(regex.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil, "\(sample)")
    }

    @Test func samplesAreShortAndReadable() {
        #expect(RegexSample.text(matching: #"^\d{9}$"#) == "000000000")
        #expect(RegexSample.text(matching: "^[A-Z]{2}-[0-9]+$") == "AA-0")
        #expect(RegexSample.text(matching: "^(yes|no)$") == "yes")
    }

    @Test(arguments: ["a^b", "^[0-9]+$(?<=x)", "[z-a]", "(unclosed", "^$x"])
    func anUnsatisfiableOrUnreadablePatternHasNoSample(pattern: String) {
        #expect(RegexSample.text(matching: pattern) == nil)
    }
}
