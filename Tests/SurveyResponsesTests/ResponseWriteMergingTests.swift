import Foundation
import SurveyCore
import SurveyResponses
import Testing

/// `ResponseWrite.merged(with:)`: two writes of one response as one, leaving the store as both in order.
@Suite struct ResponseWriteMergingTests {
    static let id = ResponseID.make()
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func header(actions: Int) -> Response {
        Response(
            id: id, respondentID: "ada", surveyID: "branching", surveyVersion: "2", locale: "en", seed: 1,
            today: "2026-05-01", createdAt: now, actionCount: actions)
    }

    static func action(_ sequence: Int, _ action: SessionAction) -> RecordedAction {
        RecordedAction(sequence: sequence, action: action, recordedAt: now)
    }

    @Test func actionsFollowEachOtherAndAFunnelEventIsKeptOnce() throws {
        let first = ResponseWrite(
            response: Self.header(actions: 3), actions: [Self.action(3, .answer(stepID: "rating", value: 4))],
            funnelEvents: [
                FunnelEvent(kind: .stepSeen, stepID: "rating", recordedAt: Self.now),
                FunnelEvent(kind: .answered, stepID: "rating", recordedAt: Self.now),
            ], requeuedDeliveries: ["crm"])
        let later = ResponseWrite(
            response: Self.header(actions: 4), actions: [Self.action(4, .next)],
            funnelEvents: [
                FunnelEvent(kind: .stepSeen, stepID: "rating", recordedAt: Self.now.addingTimeInterval(1)),
                FunnelEvent(kind: .stepSeen, stepID: "wants-contact", recordedAt: Self.now),
            ], deliveries: ["crm", "sheet"], requeuedDeliveries: ["crm"])
        let merged = try #require(first.merged(with: later))
        #expect(merged.response == later.response)
        #expect(merged.actions.map(\.sequence) == [3, 4])
        #expect(merged.removesActionsFrom == nil)
        #expect(
            merged.funnelEvents.map { "\($0.kind.rawValue) \($0.stepID ?? "")" } == [
                "step-seen rating", "answered rating", "step-seen wants-contact",
            ])
        #expect(merged.funnelEvents.first?.recordedAt == Self.now, "the first of two events is the one kept")
        #expect(merged.deliveries == ["crm", "sheet"] && merged.requeuedDeliveries == ["crm"])
    }

    /// A later answer takes the place of this write's (it removes from its sequence): this write's
    /// action is left out and the merged write removes from there; a later write that removes stored
    /// actions (a Back undone) removes them in the merged write too.
    @Test func aLaterWriteThatRemovesActionsRemovesThemInTheMergedOne() throws {
        let answered = ResponseWrite(
            response: Self.header(actions: 3), actions: [Self.action(3, .answer(stepID: "rating", value: 4))])
        let replaced = ResponseWrite(
            response: Self.header(actions: 3), actions: [Self.action(3, .answer(stepID: "rating", value: 5))],
            removesActionsFrom: 3)
        let merged = try #require(answered.merged(with: replaced))
        #expect(merged.actions == replaced.actions && merged.removesActionsFrom == 3)

        let undone = ResponseWrite(response: Self.header(actions: 1), removesActionsFrom: 2)
        let both = try #require(answered.merged(with: undone))
        #expect(both.actions.isEmpty && both.removesActionsFrom == 2 && both.response.actionCount == 1)

        let rewritten = ResponseWrite(
            response: Self.header(actions: 2), actions: [Self.action(1, .next), Self.action(2, .next)],
            removesActionsFrom: 1)
        let afterRewrite = try #require(rewritten.merged(with: replaced))
        #expect(afterRewrite.removesActionsFrom == 1)
        #expect(afterRewrite.actions.map(\.sequence) == [1, 2, 3])
    }

    @Test func writesOfTwoResponsesAreNotOne() {
        let other = Response(
            id: .make(), respondentID: "bo", surveyID: "branching", surveyVersion: "2", locale: "en", seed: 1,
            today: "2026-05-01", createdAt: Self.now)
        #expect(ResponseWrite(response: Self.header(actions: 0)).merged(with: ResponseWrite(response: other)) == nil)
    }
}
