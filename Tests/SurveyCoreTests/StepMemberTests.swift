import Foundation
import Testing

@testable import SurveyCore

/// The streaming decoder matches a step's member names straight from the bytes (``StepMember``)
/// instead of reading each as a `String` and comparing it with every name: what it accepts,
/// rejects and reports must not change.
@Suite struct StepMemberTests {
    /// The member a name means, found the slow way.
    static func expected(_ name: String) -> StepMember? {
        StepMember.allCases.first { $0.name == name }
    }

    @Test func everyNameAndItsNearMissesMatchAsTheyRead() {
        var names: [String] = ["", "i", "d", "ID", "Id", "idd", "ty", "tyle", "tags ", " tags", "stepss", "é"]
        for member in StepMember.allCases {
            let name = member.name
            #expect(StepMember(name: name) == member)
            names.append(name.uppercased())
            names.append(String(name.dropFirst()))
            names.append(String(name.dropLast()))
            names.append(name + "s")
            names.append("x" + name.dropFirst())
            names.append(name.dropLast() + "x")
            // Same length, first and last byte as the name, another byte in the middle.
            if name.count > 2 {
                var bytes = Array(name.utf8)
                bytes[bytes.count / 2] = UInt8(ascii: "_")
                names.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        // Every pairing of a length with a first and a last byte the table knows.
        for length in 2...24 {
            for first in StepMember.allCases.map({ $0.name.first! }) {
                for last in StepMember.allCases.map({ $0.name.last! }) {
                    names.append(String(first) + String(repeating: "a", count: max(0, length - 2)) + String(last))
                }
            }
        }
        for name in names {
            #expect(StepMember(name: name) == Self.expected(name), "\(name)")
            var text = name
            let fromBytes = text.withUTF8 { StepMember(utf8: $0) }
            #expect(fromBytes == Self.expected(name), "\(name)")
        }
    }

    /// Escaped names, unknown names, misspelt names and names that only look like members decode
    /// as the tree decoder decodes them, with the same problems.
    @Test func keysDecodeAsTheTreeDecoderReadsThem() throws {
        let steps = [
            #"{"id": "a", "type": "t-text", "vis\u0069bleIf": "{b} = 1", "t\u0069tle": "A"}"#,
            #"{"id": "b", "type": "t-text", "visibleif": "{a} = 1", "x-y": null}"#,
            #"{"id": "c", "type": "t-text", "colour": "red", "\u0063olour2": 1}"#,
            #"{"\u0069d": "d", "type": "t-text", "requiredIf": "{a} = 1", "required": true}"#,
            #"{"id": "p", "type": "page", "st\u0065ps": [{"id": "e", "type": "t-text"}]}"#,
        ]
        let (streamed, tree, treeErrors) = try decodeBothWays(surveyJSON(steps))
        #expect(streamed.steps?.steps == tree.steps)
        #expect(streamed.errors.map(\.message) == treeErrors.map(\.message))
        #expect(streamed.errors.map(\.path) == treeErrors.map(\.path))
        let messages = streamed.errors.map(\.message)
        #expect(messages.contains("unknown member 'visibleif' (did you mean 'visibleIf'?)"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("unknown member 'colour2'") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("unknown member 'x-y'") }, "\(messages)")
        let decoded = try #require(streamed.steps?.steps)
        #expect(decoded.first?.visibleIf == "{b} = 1")
        #expect(decoded.first?.title == LocalizedText("A"))
        #expect(decoded.map(\.id).contains("d"))
        #expect(decoded.last?.steps.map(\.id) == ["e"])
    }

    /// A member named twice is a syntax error, whether the second spelling is escaped or not and
    /// whether or not steps have such a member; different unknown names are not repeats.
    @Test(arguments: [
        (#"{"id": "a", "type": "t-text", "id": "b"}"#, #"duplicate member name "id""#),
        (#"{"id": "a", "type": "t-text", "\u0069d": "b"}"#, #"duplicate member name "id""#),
        (#"{"id": "a", "type": "t-text", "zz": 1, "zz": 2}"#, #"duplicate member name "zz""#),
        (#"{"id": "a", "type": "t-text", "z\u007a": 1, "zz": 2}"#, #"duplicate member name "zz""#),
        (#"{"id": "a", "type": "t-text", "zz": 1, "zy": 2}"#, nil),
    ])
    func repeatedNamesAreSyntaxErrors(step: String, message: String?) throws {
        let loader = SurveyLoader(registry: testRegistry())
        do {
            _ = try loader.load(text: surveyJSON([step]), source: "s.json")
            Issue.record("loaded a survey with an unknown member")
        } catch {
            let messages = error.errors.map(\.message)
            if let message {
                #expect(messages == ["invalid JSON: \(message)"])
                #expect(error.errors.first?.position?.line == 2)
            } else {
                #expect(messages.allSatisfy { $0.hasPrefix("unknown member") }, "\(messages)")
                #expect(messages.count == 2)
            }
        }
    }
}
