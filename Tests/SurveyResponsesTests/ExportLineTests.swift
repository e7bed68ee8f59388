import Foundation
import SurveyCore
import SurveyResponses
import Testing

/// The export's byte writers give the same text as the general forms they stand for.
@Suite struct ExportLineTests {
    /// Responses with every optional member present or absent, and answers that need escaping.
    static func responses() -> [Response] {
        var generator = SystemRandomNumberGenerator()
        let created = Date(timeIntervalSince1970: 1_790_000_000.123)
        var result: [Response] = []
        for variant in 0..<16 {
            var response = Response(
                id: ResponseID.make(at: created, using: &generator), respondentID: "r\"\(variant)\n",
                surveyID: "s,1", surveyVersion: variant & 1 == 0 ? "2" : nil, locale: "fr",
                seed: UInt64(variant) * 7919,
                today: "2026-12-01", status: variant & 2 == 0 ? .inProgress : .completed, createdAt: created,
                updatedAt: created.addingTimeInterval(61.5), completedAt: variant & 2 == 0 ? nil : created + 90,
                currentUnitID: variant & 4 == 0 ? "p\\1" : nil, path: variant & 8 == 0 ? [] : ["p1", "p\u{1}2"],
                answers: [
                    "q0": .array([.string("a"), .number(2), .string("=b;c")]), "q1": .string("\"quoted\", text\r\n"),
                    "q2": .number(3.5), "q3": .bool(true), "q4": .object(["z": .null, "a": .array([])]),
                    "é": .string("ü\u{7f}"),
                ],
                actionCount: variant * 1_000_003)
            if variant % 3 == 0 {
                response.orphaned = [
                    OrphanedAnswer(
                        stepID: "old", value: .string("x"), reason: .notReached, message: "m", surveyVersion: "1",
                        orphanedOn: "2")
                ]
            }
            if variant % 5 == 0 { response.abandonedReason = "it was \"started\" on version '1'" }
            result.append(response)
        }
        return result
    }

    @Test func aJSONLineIsTheResponsesJSONValueWritten() {
        for response in Self.responses() {
            for isPartial in [false, true] {
                #expect(
                    ResponseExport.jsonLine(of: response, isPartial: isPartial)
                        == JSONWriter.string(from: ResponseExport.jsonValue(of: response, isPartial: isPartial)))
            }
        }
    }

    @Test func aListOfChoicesIsOneCSVFieldJoinedBySemicolons() {
        let response = Self.responses()[0]
        let line = ResponseExport.csvLine(of: response, stepIDs: ["q0", "q1", "q2", "none"])
        #expect(line.hasSuffix(#",a;2;=b;c,"""quoted"", text"# + "\r\n" + #"",3.5,"#))
        // A joined list starting like a formula is guarded as any text is.
        var formula = response
        formula.answers = ["q0": .array([.string("=1+1"), .string("x")])]
        #expect(ResponseExport.csvLine(of: formula, stepIDs: ["q0"]).hasSuffix(",'=1+1;x"))
    }

    /// A stored action read back (the moves and plain answers without building the object) is the
    /// action written, and what the general reader makes of the same text.
    @Test func storedActionsReadBackAsWritten() throws {
        let values: [JSONValue] = [
            .null, .bool(false), .number(-2.5e10), .string(""), .string("a\"b\\c\n}"), .array([.string("c")]),
            .object(["value": .string("}"), "a": .array([.null])]),
        ]
        var actions: [SessionAction] = [.next, .back, .dismiss]
        for id in ["q0", "", "with \"quote", "back\\slash", "tab\t", "é-ü", "q[2]"] {
            for value in values { actions.append(.answer(stepID: id, value: value)) }
        }
        for action in actions {
            let text = ResponseCodec.actionJSON(action)
            #expect(try ResponseCodec.action(fromJSON: text, store: "t") == action)
            #expect(try SessionAction(json: try JSONParser.parse(text), path: .root) == action)
        }
        // Not what the store writes: read the general way, an extra member is still an error.
        #expect(throws: StoreError.self) {
            try ResponseCodec.action(fromJSON: #"{"action":"answer","stepId":"a","value":1,"x":2}"#, store: "t")
        }
        #expect(
            try ResponseCodec.action(fromJSON: #"{"stepId":"a","action":"answer"}"#, store: "t")
                == .answer(stepID: "a", value: .null))
    }
}
