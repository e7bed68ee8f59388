import Foundation
import SurveyCore

/// The behaviour every ``ResponseStore`` must have, as named checks that any test framework can run.
///
/// Each check works in its own namespace (fresh survey and respondent ids), so one store, empty or
/// not, serves every check, and a shared database server needs no cleaning between runs.
///
/// ```swift
/// let suite = ResponseStoreConformance { try SQLiteResponseStore(path: file) }
/// @Test(arguments: ResponseStoreConformance.checkNames)
/// func conforms(check: String) throws { try suite.run(check) }
/// ```
public struct ResponseStoreConformance: Sendable {
    /// Opens a handle to the store under test; each call may return a new connection to the same store.
    public let open: @Sendable () throws -> any ResponseStore

    /// A suite for the store `open` returns.
    public init(open: @escaping @Sendable () throws -> any ResponseStore) {
        self.open = open
    }

    /// The names of the checks, for parameterised tests.
    public static let checkNames: [String] = checks.map(\.name)

    /// Runs the check called `name`.
    /// - Throws: ``ConformanceFailure`` saying what the store did wrong, or the store's own error.
    public func run(_ name: String) throws {
        guard let check = Self.checks.first(where: { $0.name == name }) else {
            throw ConformanceFailure(check: name, message: "there is no such check")
        }
        let store = try open()
        var context = Context(check: name, store: store, open: open)
        try check.body(&context)
    }

    /// Runs every check.
    public func runAll() throws {
        for name in Self.checkNames { try run(name) }
    }

    struct Check: Sendable {
        var name: String
        var body: @Sendable (inout Context) throws -> Void
    }

    struct Context {
        let check: String
        let store: any ResponseStore
        let open: @Sendable () throws -> any ResponseStore
        let namespace = ResponseID.make().rawValue.suffix(12)
        let base = Date(timeIntervalSince1970: 1_780_000_000)
        var counter = 0

        var surveyID: String { "conformance-\(namespace)" }

        func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition { throw ConformanceFailure(check: check, message: message()) }
        }

        func expectError(_ kind: StoreError.Kind, _ what: String, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch let error as StoreError {
                try expect(error.kind == kind, "\(what): expected a \(kind) error, got \(error.kind): \(error.message)")
                return
            }
            throw ConformanceFailure(check: check, message: "\(what): expected a \(kind) error, got success")
        }

        mutating func makeResponse(
            respondent: String? = nil, survey: String? = nil, minutes: Double = 0, status: ResponseStatus = .inProgress
        ) -> Response {
            counter += 1
            let created = base.addingTimeInterval(minutes * 60)
            return Response(
                id: ResponseID.make(at: created), respondentID: respondent ?? "respondent-\(namespace)-\(counter)",
                surveyID: survey ?? surveyID, surveyVersion: "1", locale: "en", seed: 7, today: "2026-06-01",
                status: status, createdAt: created, updatedAt: created)
        }

        func at(_ seconds: Double) -> Date { base.addingTimeInterval(seconds) }
    }

    static let checks: [Check] = [
        Check(name: "writes and reads a response") { context in
            var response = context.makeResponse()
            response.surveyVersion = nil
            response.seed = UInt64.max
            response.answers = ["name": "Zoë 🌷 \"quoted\"\n", "nested": ["a": [1, 2.5, true, .null]], "empty": ""]
            response.path = ["welcome", "page-1"]
            response.currentUnitID = "page-1"
            response.orphaned = [
                OrphanedAnswer(
                    stepID: "role", value: "désigner", reason: .refused, message: "not a choice", surveyVersion: "1",
                    orphanedOn: "2"),
                OrphanedAnswer(
                    stepID: "gone[0]", value: ["a": 1], reason: .removedStep, message: "", surveyVersion: nil,
                    orphanedOn: nil),
            ]
            response.abandonedReason = "none of its answers fits"
            response.status = .endedByQuota
            response.quotasReached = [
                QuotaReached(quotaID: "retired", action: .flag),
                QuotaReached(quotaID: "students", action: .skip(to: "end")),
                QuotaReached(quotaID: "young-fr", action: .end(message: nil), message: "Merci ! Assez de réponses."),
            ]
            try context.store.write(ResponseWrite(response: response))
            let read = try context.store.response(response.id)
            try context.expect(read == response, "read back \(String(describing: read)), wrote \(response)")
            // The quotas reached change with a later write of the header.
            response.quotasReached.removeLast()
            response.actionCount += 1
            try context.store.write(ResponseWrite(response: response))
            let updated = try context.store.response(response.id)
            try context.expect(updated == response, "read back \(String(describing: updated)), wrote \(response)")
            let missing = try context.store.response(ResponseID.make())
            try context.expect(missing == nil, "an unknown id returned \(String(describing: missing))")
        },
        Check(name: "reads a response's version without its answers") { context in
            var response = context.makeResponse()
            response.answers = ["q1": "first"]
            try context.store.write(ResponseWrite(response: response))
            let first = try context.store.responseVersion(response.id)
            try context.expect(
                first == ResponseVersion(of: response), "version \(String(describing: first)) of \(response)")
            response.actionCount = 1
            response.updatedAt = context.at(61.5)
            response.status = .completed
            try context.store.write(
                ResponseWrite(
                    response: response,
                    actions: [RecordedAction(sequence: 1, action: .next, recordedAt: context.at(61.5))]))
            let second = try context.store.responseVersion(response.id)
            try context.expect(
                second
                    == ResponseVersion(
                        surveyID: context.surveyID, status: .completed, actionCount: 1,
                        updatedAtMilliseconds: 1_780_000_061_500),
                "after a write: \(String(describing: second))")
            let missing = try context.store.responseVersion(ResponseID.make())
            try context.expect(missing == nil, "an unknown id has the version \(String(describing: missing))")
        },
        Check(name: "keeps actions in order") { context in
            var response = context.makeResponse()
            let actions: [SessionAction] = [
                .answer(stepID: "q1", value: ["x": "ü"]), .next, .back, .answer(stepID: "q1", value: .null), .dismiss,
            ]
            for (offset, action) in actions.enumerated() {
                response.actionCount = offset + 1
                try context.store.write(
                    ResponseWrite(
                        response: response,
                        actions: [
                            RecordedAction(sequence: offset + 1, action: action, recordedAt: context.at(Double(offset)))
                        ]
                    ))
            }
            let stored = try context.store.actions(of: response.id)
            try context.expect(stored.map(\.action) == actions, "actions read back as \(stored.map(\.action))")
            try context.expect(stored.map(\.sequence) == [1, 2, 3, 4, 5], "sequence numbers \(stored.map(\.sequence))")
            try context.expect(stored.last?.recordedAt == context.at(4), "the time of the last action is kept")
            try context.expect(try context.store.response(response.id)?.actionCount == 5, "the header counts 5 actions")
        },
        Check(name: "removes the actions a session dropped") { context in
            var response = context.makeResponse()
            let actions: [SessionAction] = [.next, .answer(stepID: "q1", value: 1), .next, .back]
            for (offset, action) in actions.enumerated() {
                response.actionCount = offset + 1
                try context.store.write(
                    ResponseWrite(
                        response: response,
                        actions: [RecordedAction(sequence: offset + 1, action: action, recordedAt: context.at(1))]))
            }
            // A Next undid the Back: the session's log lost it, and so does the store (retried: the same).
            response.actionCount = 3
            response.currentUnitID = "after-next"
            for _ in 0..<2 { try context.store.write(ResponseWrite(response: response, removesActionsFrom: 4)) }
            try context.expect(
                try context.store.actions(of: response.id).map(\.action) == Array(actions.prefix(3)),
                "actions 1 to 3 remain")
            let header = try context.store.response(response.id)
            try context.expect(
                header?.actionCount == 3, "the header counts 3 actions, got \(String(describing: header))")
            try context.expect(
                header?.currentUnitID == "after-next", "the header with fewer actions replaced the old one")
            // The next action takes number 4 again; a rewrite from 1 replaces them all.
            response.actionCount = 4
            try context.store.write(
                ResponseWrite(
                    response: response, actions: [RecordedAction(sequence: 4, action: .next, recordedAt: context.at(2))]
                ))
            try context.expect(try context.store.actions(of: response.id).count == 4, "action 4 is the new one")
            response.actionCount = 1
            try context.store.write(
                ResponseWrite(
                    response: response,
                    actions: [RecordedAction(sequence: 1, action: .back, recordedAt: context.at(3))],
                    removesActionsFrom: 1))
            try context.expect(
                try context.store.actions(of: response.id).map(\.action) == [.back], "the rewrite replaced them all")
        },
        Check(name: "a retried write changes nothing") { context in
            var response = context.makeResponse()
            response.actionCount = 1
            let write = ResponseWrite(
                response: response, actions: [RecordedAction(sequence: 1, action: .next, recordedAt: context.at(1))],
                funnelEvents: [FunnelEvent(kind: .started, recordedAt: context.at(1))])
            for _ in 0..<3 { try context.store.write(write) }
            try context.expect(try context.store.actions(of: response.id).count == 1, "a retried action is stored once")
            let counts = try context.store.funnelCounts(survey: context.surveyID)
            try context.expect(counts.survey[.started] == 1, "a retried funnel event counts once, got \(counts.survey)")
        },
        Check(name: "refuses a different action under a taken number") { context in
            var response = context.makeResponse()
            response.actionCount = 1
            try context.store.write(
                ResponseWrite(
                    response: response, actions: [RecordedAction(sequence: 1, action: .next, recordedAt: context.at(1))]
                ))
            try context.expectError(.conflict, "another action number 1") {
                try context.store.write(
                    ResponseWrite(
                        response: response,
                        actions: [RecordedAction(sequence: 1, action: .back, recordedAt: context.at(2))],
                        funnelEvents: [FunnelEvent(kind: .completed, recordedAt: context.at(2))]))
            }
            try context.expect(
                try context.store.actions(of: response.id).map(\.action) == [.next], "the first action stays")
            let counts = try context.store.funnelCounts(survey: context.surveyID)
            try context.expect(counts.survey[.completed] == nil, "a refused write leaves no funnel event behind")
        },
        Check(name: "refuses gaps in action numbers") { context in
            var response = context.makeResponse()
            response.actionCount = 3
            try context.expectError(.invalidRequest, "action 3 before 1") {
                try context.store.write(
                    ResponseWrite(
                        response: response,
                        actions: [RecordedAction(sequence: 3, action: .next, recordedAt: context.at(1))]
                    ))
            }
            try context.expect(
                try context.store.response(response.id) == nil, "a refused write leaves no response behind")
        },
        Check(name: "an older header never replaces a newer one") { context in
            var response = context.makeResponse()
            response.actionCount = 2
            response.currentUnitID = "later"
            try context.store.write(ResponseWrite(response: response))
            var stale = response
            stale.actionCount = 1
            stale.currentUnitID = "earlier"
            try context.store.write(ResponseWrite(response: stale))
            try context.expect(
                try context.store.response(response.id)?.currentUnitID == "later",
                "a stale header overwrote a newer one")
        },
        Check(name: "refuses a response id of another respondent") { context in
            let response = context.makeResponse()
            try context.store.write(ResponseWrite(response: response))
            var other = response
            other.respondentID = "someone-else"
            try context.expectError(.conflict, "the same id for another respondent") {
                try context.store.write(ResponseWrite(response: other))
            }
        },
        Check(name: "refuses an empty respondent id") { context in
            var response = context.makeResponse()
            response.respondentID = ""
            try context.expectError(.invalidRequest, "an empty respondent id") {
                try context.store.write(ResponseWrite(response: response))
            }
            try context.expectError(.invalidRequest, "deleting an empty respondent id") {
                _ = try context.store.deleteResponses(respondent: "")
            }
        },
        Check(name: "counts funnel events once per response") { context in
            for index in 0..<3 {
                let response = context.makeResponse(minutes: Double(index))
                var events = [
                    FunnelEvent(kind: .invitationShown, recordedAt: context.at(0)),
                    FunnelEvent(kind: .stepSeen, stepID: "q1", recordedAt: context.at(1)),
                    FunnelEvent(kind: .stepSeen, stepID: "q1", recordedAt: context.at(2)),
                ]
                if index < 2 { events.append(FunnelEvent(kind: .answered, stepID: "q1", recordedAt: context.at(3))) }
                try context.store.write(ResponseWrite(response: response, funnelEvents: events))
                try context.store.write(
                    ResponseWrite(
                        response: response,
                        funnelEvents: [FunnelEvent(kind: .stepSeen, stepID: "q1", recordedAt: context.at(4))]
                    ))
            }
            let counts = try context.store.funnelCounts(survey: context.surveyID)
            try context.expect(counts.survey == [.invitationShown: 3], "survey-level counts \(counts.survey)")
            try context.expect(
                counts.steps == ["q1": [.stepSeen: 3, .answered: 2]], "step counts \(counts.steps)")
            let first = try context.store.responses(matching: ResponseQuery(surveyID: context.surveyID)).first
            let events = try first.map { try context.store.funnelEvents(of: $0.id) } ?? []
            try context.expect(events.count == 3, "one response keeps 3 distinct events, got \(events.count)")
            try context.expect(
                events.first { $0.kind == .stepSeen }?.recordedAt == context.at(1), "the first sighting's time is kept")
        },
        Check(name: "counts where unfinished responses stopped") { context in
            for (status, unit) in [
                (ResponseStatus.inProgress, "q2"), (.inProgress, "q2"), (.dismissed, "q1"), (.abandoned, "q3"),
                (.completed, "q3"),
            ] {
                var response = context.makeResponse(status: status)
                response.currentUnitID = unit
                try context.store.write(ResponseWrite(response: response))
            }
            let counts = try context.store.funnelCounts(survey: context.surveyID)
            try context.expect(
                counts.stoppedAt == ["q2": 2, "q1": 1, "q3": 1], "stopped-at counts \(counts.stoppedAt)")
        },
        Check(name: "selects responses by survey, respondent, status, time, version and locale") { context in
            let respondent = "filter-\(context.namespace)"
            var written: [Response] = []
            for (minutes, status, locale) in [
                (30.0, ResponseStatus.completed, "en"), (10, .inProgress, "fr"), (20, .dismissed, "en"),
                (40, .completed, "fr"),
            ] {
                var response = context.makeResponse(respondent: respondent, minutes: minutes, status: status)
                response.locale = locale
                if minutes == 40 { response.surveyVersion = "2" }
                try context.store.write(ResponseWrite(response: response))
                written.append(response)
            }
            let other = context.makeResponse(survey: context.surveyID + "-other")
            try context.store.write(ResponseWrite(response: other))
            func ids(_ query: ResponseQuery) throws -> [Double] {
                try context.store.responses(matching: query).map { $0.createdAt.timeIntervalSince(context.base) / 60 }
            }
            let survey = context.surveyID
            try context.expect(try ids(ResponseQuery(surveyID: survey)) == [10, 20, 30, 40], "oldest first")
            try context.expect(
                try ids(ResponseQuery(surveyID: survey, statuses: [.completed])) == [30, 40], "by status")
            try context.expect(try ids(ResponseQuery(respondentID: respondent)) == [10, 20, 30, 40], "by respondent")
            try context.expect(
                try ids(ResponseQuery(surveyID: survey, since: context.at(20 * 60), until: context.at(40 * 60)))
                    == [20, 30], "since is inclusive, until exclusive")
            try context.expect(try ids(ResponseQuery(surveyID: survey, surveyVersion: "2")) == [40], "by version")
            try context.expect(try ids(ResponseQuery(surveyID: survey, locale: "fr")) == [10, 40], "by locale")
            try context.expect(try ids(ResponseQuery(surveyID: survey, limit: 2)) == [10, 20], "a limit")
            try context.expect(try ids(ResponseQuery(surveyID: survey, statuses: [])) == [], "no statuses, nothing")
        },
        Check(name: "splits a selection into consecutive parts that together select it") { context in
            // 12 responses at 6 times (two per minute, so ties sit on the boundaries), and one of
            // another survey.
            var written: [ResponseID] = []
            for minute in 0..<12 {
                let response = context.makeResponse(
                    minutes: Double(minute / 2), status: minute % 3 == 0 ? .completed : .inProgress)
                try context.store.write(ResponseWrite(response: response))
                written.append(response.id)
            }
            try context.store.write(ResponseWrite(response: context.makeResponse(survey: context.surveyID + "-x")))
            let whole = try context.store.responses(matching: ResponseQuery(surveyID: context.surveyID)).map(\.id)
            for (query, parts, minimum) in [
                (ResponseQuery(surveyID: context.surveyID), 3, 2), (ResponseQuery(surveyID: context.surveyID), 8, 1),
                (ResponseQuery(surveyID: context.surveyID, statuses: [.inProgress]), 2, 1),
                (ResponseQuery(surveyID: context.surveyID, since: context.at(60), until: context.at(240)), 4, 1),
            ] {
                let expected = try context.store.responses(matching: query).map(\.id)
                let split = try context.store.split(query, into: parts, minimumPartSize: minimum)
                try context.expect(split.count <= parts, "at most \(parts) parts, got \(split.count)")
                let joined = try split.flatMap { try context.store.responses(matching: $0).map(\.id) }
                try context.expect(joined == expected, "the parts, one after another, select \(query): \(joined)")
            }
            try context.expect(
                try context.store.split(ResponseQuery(surveyID: context.surveyID), into: 4, minimumPartSize: 100)
                    .count == 1, "parts smaller than the minimum are not made")
            try context.expect(
                try context.store.split(
                    ResponseQuery(surveyID: context.surveyID, limit: 5), into: 4, minimumPartSize: 1)
                    == [ResponseQuery(surveyID: context.surveyID, limit: 5)], "a query with a limit is not split")
            try context.expect(Set(whole) == Set(written), "the survey's 12 responses, no other")
        },
        Check(name: "finds a respondent's latest and last finished response") { context in
            let respondent = "latest-\(context.namespace)"
            var first = context.makeResponse(respondent: respondent, minutes: 1, status: .completed)
            first.completedAt = context.at(100)
            var second = context.makeResponse(respondent: respondent, minutes: 5, status: .dismissed)
            second.completedAt = context.at(400)
            let third = context.makeResponse(respondent: respondent, minutes: 9)
            for response in [first, second, third] { try context.store.write(ResponseWrite(response: response)) }
            let latest = try context.store.latestResponse(respondent: respondent, survey: context.surveyID)
            try context.expect(latest?.id == third.id, "the latest is the in-progress one")
            let finished = try context.store.lastFinished(respondent: respondent, survey: context.surveyID)
            try context.expect(
                finished?.status == .dismissed && finished?.at == context.at(400),
                "last finished is the dismissal at +400 s, got \(String(describing: finished))")
            let none = try context.store.lastFinished(
                respondent: "nobody-\(context.namespace)", survey: context.surveyID)
            try context.expect(none == nil, "a new respondent has nothing finished")
        },
        Check(name: "erases a respondent") { context in
            let erased = "erase-\(context.namespace)"
            let kept = "keep-\(context.namespace)"
            for respondent in [erased, erased, kept] {
                var response = context.makeResponse(respondent: respondent)
                response.actionCount = 1
                try context.store.write(
                    ResponseWrite(
                        response: response,
                        actions: [RecordedAction(sequence: 1, action: .next, recordedAt: context.at(1))],
                        funnelEvents: [
                            FunnelEvent(kind: .started, recordedAt: context.at(1)),
                            FunnelEvent(kind: .stepSeen, stepID: "q1", recordedAt: context.at(1)),
                        ]))
            }
            let doomed = try context.store.responses(matching: ResponseQuery(respondentID: erased))
            let deleted = try context.store.deleteResponses(respondent: erased)
            try context.expect(deleted == 2, "deleted \(deleted) responses, expected 2")
            try context.expect(
                try context.store.responses(matching: ResponseQuery(respondentID: erased)).isEmpty, "responses remain")
            for response in doomed {
                try context.expect(try context.store.actions(of: response.id).isEmpty, "actions remain")
                try context.expect(try context.store.funnelEvents(of: response.id).isEmpty, "funnel events remain")
            }
            let counts = try context.store.funnelCounts(survey: context.surveyID)
            try context.expect(
                counts.survey[.started] == 1 && counts.steps["q1"]?[.stepSeen] == 1,
                "counts after erasure: \(counts.survey), \(counts.steps)")
            try context.expect(
                try context.store.responses(matching: ResponseQuery(respondentID: kept)).count == 1, "others stay")
        },
        Check(name: "keeps a delivery outbox") { context in
            var response = context.makeResponse(status: .completed)
            response.updatedAt = context.at(10)
            let write = ResponseWrite(response: response, deliveries: ["hook", "base"])
            for _ in 0..<2 { try context.store.write(write) }
            let mine = { (jobs: [DeliveryJob]) in jobs.filter { $0.responseID == response.id } }
            let stored = mine(try context.store.deliveries(status: nil))
            try context.expect(
                stored.map(\.target).sorted() == ["base", "hook"] && stored.allSatisfy { $0.status == .pending },
                "a write with two targets keeps two pending jobs, once each; got \(stored)")
            try context.expect(
                stored.allSatisfy { $0.attempts == 0 && $0.nextAttemptAt == context.at(10) },
                "new jobs are due when the response was written: \(stored)")
            try context.expect(
                mine(try context.store.dueDeliveries(at: context.at(9), limit: 100_000)).isEmpty,
                "jobs are not due before their time")
            guard var hook = stored.first(where: { $0.target == "hook" }),
                var base = stored.first(where: { $0.target == "base" })
            else { return }
            hook.attempts = 1
            hook.nextAttemptAt = context.at(70)
            hook.lastError = "the server answered 503"
            hook.updatedAt = context.at(11)
            try context.store.updateDelivery(hook)
            let due = mine(try context.store.dueDeliveries(at: context.at(30), limit: 100_000))
            try context.expect(due.map(\.target) == ["base"], "at 30 s only base is due, got \(due.map(\.target))")
            try context.expect(
                mine(try context.store.dueDeliveries(at: context.at(70), limit: 100_000)).map(\.target) == [
                    "base", "hook",
                ],
                "at 70 s both are due, the most overdue first")
            base.status = .delivered
            base.attempts = 1
            base.updatedAt = context.at(12)
            try context.store.updateDelivery(base)
            try context.expect(
                mine(try context.store.deliveries(status: .delivered)).map(\.target) == ["base"],
                "base is delivered")
            // A later write of the same response with the same target keeps the job's state.
            try context.store.write(write)
            let kept = mine(try context.store.deliveries(status: .pending))
            try context.expect(
                kept.count == 1 && kept.first?.attempts == 1 && kept.first?.lastError == "the server answered 503",
                "a written-again target keeps its job as it was: \(kept)")
            hook.status = .failed
            hook.attempts = 8
            try context.store.updateDelivery(hook)
            try context.expect(
                try context.store.retryFailedDeliveries(at: context.at(100)) >= 1, "a failed job can be retried")
            let retried = mine(try context.store.deliveries(status: .pending))
            try context.expect(
                retried.count == 1 && retried.first?.attempts == 0 && retried.first?.nextAttemptAt == context.at(100),
                "a retried job is pending again from its first attempt: \(retried)")
            _ = try context.store.deleteResponses(respondent: response.respondentID)
            try context.expect(
                mine(try context.store.deliveries(status: nil)).isEmpty, "erasing the respondent erases the jobs")
        },
        Check(name: "queues a delivery again for a new version") { context in
            var response = context.makeResponse()
            response.actionCount = 1
            response.updatedAt = context.at(10)
            try context.store.write(ResponseWrite(response: response, requeuedDeliveries: ["hook"]))
            let mine = { (jobs: [DeliveryJob]) in jobs.filter { $0.responseID == response.id } }
            let added = mine(try context.store.deliveries(status: .pending))
            try context.expect(added.count == 1, "a requeued delivery with no job adds a pending one: \(added)")
            guard let first = added.first else { return }
            try context.expect(first.attempts == 0 && first.nextAttemptAt == context.at(10), "due now: \(first)")
            // Delivered, then a new version: pending again from its first attempt.
            var delivered = first
            delivered.status = .delivered
            delivered.attempts = 1
            delivered.updatedAt = context.at(11)
            try context.expect(
                try context.store.updateDelivery(delivered, replacing: first), "an unchanged job is updated")
            response.actionCount = 2
            response.updatedAt = context.at(20)
            try context.store.write(ResponseWrite(response: response, requeuedDeliveries: ["hook"]))
            let again = mine(try context.store.deliveries(status: .pending))
            try context.expect(
                again.count == 1 && again.first?.attempts == 0 && again.first?.nextAttemptAt == context.at(20),
                "a delivered job is pending again for the new version: \(again)")
            guard let read = again.first else { return }
            // A version queued while a deliverer was sending the one it read: its result is not kept.
            response.actionCount = 3
            response.updatedAt = context.at(20)  // the same millisecond: the job still changes
            try context.store.write(ResponseWrite(response: response, requeuedDeliveries: ["hook"]))
            var stale = read
            stale.status = .delivered
            stale.attempts = 1
            stale.updatedAt = context.at(21)
            try context.expect(
                !(try context.store.updateDelivery(stale, replacing: read)),
                "a job queued again since it was read is not replaced")
            let kept = mine(try context.store.deliveries(status: nil))
            try context.expect(
                kept.count == 1 && kept.first?.status == .pending, "it stays pending for the newer version: \(kept)")
            _ = try context.store.deleteResponses(respondent: response.respondentID)
        },
        Check(name: "a batch is applied whole or not at all") { context in
            var first = context.makeResponse()
            first.actionCount = 1
            var second = context.makeResponse()
            second.actionCount = 1
            let good = [
                ResponseWrite(
                    response: first, actions: [RecordedAction(sequence: 1, action: .next, recordedAt: context.at(1))],
                    funnelEvents: [FunnelEvent(kind: .started, recordedAt: context.at(1))]),
                ResponseWrite(
                    response: second, actions: [RecordedAction(sequence: 1, action: .back, recordedAt: context.at(1))],
                    funnelEvents: [FunnelEvent(kind: .started, recordedAt: context.at(1))]),
            ]
            try context.store.write(batch: good)
            try context.expect(
                try context.store.actions(of: second.id).map(\.action) == [.back], "the batch's second write is stored")
            var third = context.makeResponse()
            third.actionCount = 1
            let bad = [
                ResponseWrite(
                    response: third, actions: [RecordedAction(sequence: 1, action: .next, recordedAt: context.at(2))],
                    funnelEvents: [FunnelEvent(kind: .started, recordedAt: context.at(2))]),
                ResponseWrite(
                    response: first, actions: [RecordedAction(sequence: 1, action: .dismiss, recordedAt: context.at(2))]
                ),
            ]
            try context.expectError(.conflict, "a batch with a conflicting write") {
                try context.store.write(batch: bad)
            }
            try context.expect(
                try context.store.response(third.id) == nil, "a failed batch left its first write behind")
            let counts = try context.store.funnelCounts(survey: context.surveyID)
            try context.expect(counts.survey[.started] == 2, "a failed batch changed the counts: \(counts.survey)")
        },
        Check(name: "threads writing through one store at once each get their own write's result") { context in
            // Writes from many threads through one store object (a server's sessions) may be committed
            // together; a refused write must fail alone, and every acknowledged write must be stored.
            let threads = 16
            let writesEach = 8
            let surveyID = context.surveyID
            let base = context.base
            let store = context.store
            let taken = context.makeResponse()
            try store.write(ResponseWrite(response: taken))
            let errors = ErrorBox()
            let written = ErrorBox()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<writesEach {
                    // Every third thread's fourth write reuses a response id of another respondent.
                    let refused = thread % 3 == 0 && index == 3
                    let id = refused ? taken.id : ResponseID.make(at: base)
                    let response = Response(
                        id: id, respondentID: "thread-\(thread)", surveyID: surveyID, surveyVersion: "1",
                        locale: "en", seed: 1, today: "2026-06-01", createdAt: base, updatedAt: base, actionCount: 1)
                    let write = ResponseWrite(
                        response: response,
                        actions: [
                            RecordedAction(
                                sequence: 1, action: .answer(stepID: "q", value: .number(Double(index))),
                                recordedAt: base)
                        ],
                        funnelEvents: [FunnelEvent(kind: .answered, stepID: "q", recordedAt: base)])
                    do {
                        try store.write(write)
                        if refused { errors.append("thread \(thread): a response of another respondent was taken") }
                        written.append(id.rawValue)
                    } catch let error as StoreError where refused && error.kind == .conflict {
                        continue
                    } catch {
                        errors.append("thread \(thread), write \(index): \(error)")
                    }
                }
            }
            try context.expect(errors.values.isEmpty, errors.values.joined(separator: "; "))
            let accepted = threads * writesEach - (0..<threads).filter { $0 % 3 == 0 }.count
            try context.expect(written.values.count == accepted, "\(written.values.count) writes acknowledged")
            for text in written.values {
                guard let id = ResponseID(text) else { continue }
                let actions = try store.actions(of: id)
                try context.expect(actions.count == 1, "an acknowledged write of \(text) has \(actions.count) actions")
            }
            let counts = try store.funnelCounts(survey: surveyID)
            try context.expect(
                counts.steps["q"]?[.answered] == accepted, "answered counted \(String(describing: counts.steps["q"]))")
        },
        Check(name: "several writers lose and duplicate nothing") { context in
            let writers = 8
            let actionsEach = 25
            let surveyID = context.surveyID
            let base = context.base
            let open = context.open
            let errors = ErrorBox()
            let ids = (0..<writers).map { _ in ResponseID.make(at: base) }
            DispatchQueue.concurrentPerform(iterations: writers) { writer in
                do {
                    let store = try open()
                    var response = Response(
                        id: ids[writer], respondentID: "writer-\(writer)", surveyID: surveyID, surveyVersion: "1",
                        locale: "en", seed: 1, today: "2026-06-01", createdAt: base)
                    for sequence in 1...actionsEach {
                        response.actionCount = sequence
                        response.updatedAt = base.addingTimeInterval(Double(sequence))
                        let write = ResponseWrite(
                            response: response,
                            actions: [
                                RecordedAction(
                                    sequence: sequence, action: .answer(stepID: "q", value: .number(Double(sequence))),
                                    recordedAt: response.updatedAt)
                            ],
                            funnelEvents: [
                                FunnelEvent(kind: .stepSeen, stepID: "q\(sequence % 5)", recordedAt: response.updatedAt)
                            ])
                        try store.write(write)
                        if sequence % 5 == 0 { try store.write(write) }  // a retry
                    }
                } catch {
                    errors.append("writer \(writer): \(error)")
                }
            }
            try context.expect(errors.values.isEmpty, errors.values.joined(separator: "; "))
            for (writer, id) in ids.enumerated() {
                let actions = try context.store.actions(of: id)
                try context.expect(
                    actions.map(\.sequence) == Array(1...actionsEach),
                    "writer \(writer) has actions \(actions.map(\.sequence))")
            }
            let counts = try context.store.funnelCounts(survey: surveyID)
            for step in 0..<5 {
                try context.expect(
                    counts.steps["q\(step)"]?[.stepSeen] == writers,
                    "q\(step) seen by \(String(describing: counts.steps["q\(step)"]))")
            }
        },
    ]
}

/// A check of ``ResponseStoreConformance`` that failed.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    public var check: String
    public var message: String

    public var description: String { "\(check): \(message)" }
}

final class ErrorBox: @unchecked Sendable {
    let lock = NSLock()
    var stored: [String] = []

    func append(_ message: String) { lock.withLock { stored.append(message) } }
    var values: [String] { lock.withLock { stored } }
}
