import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyReports
import SurveyResponses
import Testing

/// Reports from a store: each question summarised by its own type, the funnel and paths, as JSON
/// and as one HTML page that no respondent or survey text can inject markup into.
@Suite struct ReportTests {
    static func survey(title: String = "Feedback", choiceLabel: String = "Great") throws -> Survey {
        let escapedTitle = JSONWriter.string(from: .string(title)).dropFirst().dropLast()
        let escapedLabel = JSONWriter.string(from: .string(choiceLabel)).dropFirst().dropLast()
        return try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "fb", "title": "\(escapedTitle)", "steps": [
                  {"id": "mood", "type": "single-choice", "title": "\(escapedTitle)",
                   "options": {"choices": [{"value": "great", "label": "\(escapedLabel)"}, {"value": "meh", "label": "Meh"}]}},
                  {"id": "score", "type": "nps", "title": "Recommend?"},
                  {"id": "note", "type": "text", "title": "Anything else?"}]}
                """)
    }

    /// A store with `answers` as completed responses (and funnel events for them).
    static func store(_ answers: [[String: JSONValue]]) throws -> InMemoryResponseStore {
        let store = InMemoryResponseStore()
        let at = Date(timeIntervalSince1970: 1_790_000_000)
        for (index, given) in answers.enumerated() {
            let response = Response(
                id: .make(at: at), respondentID: "r\(index)", surveyID: "fb", surveyVersion: nil, locale: "en",
                seed: 0, today: "2026-12-02", status: .completed, createdAt: at, updatedAt: at, completedAt: at,
                path: ["mood", "score", "note"], answers: given, actionCount: 1)
            var events = [
                FunnelEvent(kind: .invitationShown, recordedAt: at), FunnelEvent(kind: .completed, recordedAt: at),
            ]
            for step in ["mood", "score", "note"] {
                events.append(FunnelEvent(kind: .stepSeen, stepID: step, recordedAt: at))
                if given[step] != nil { events.append(FunnelEvent(kind: .answered, stepID: step, recordedAt: at)) }
            }
            try store.write(ResponseWrite(response: response, funnelEvents: events))
        }
        return store
    }

    @Test func eachQuestionIsSummarisedByItsTypeAndTheFunnelAndPathsAreThere() throws {
        let store = try Self.store([
            ["mood": "great", "score": 10, "note": "Lovely"], ["mood": "great", "score": 9],
            ["mood": "meh", "score": 3, "note": "Slow"],
        ])
        let report = try SurveyReport(survey: try Self.survey(), store: store)
        #expect(report.responses == 3 && report.completed == 3 && report.completionRate == 1)
        let mood = try #require(report.questions.first { $0.stepID == "mood" })
        #expect(mood.summary.buckets.map(\.count) == [2, 1] && mood.summary.buckets.map(\.label) == ["Great", "Meh"])
        #expect(mood.seen == 3 && mood.answered == 3)
        let note = try #require(report.questions.first { $0.stepID == "note" })
        #expect(Set(note.texts) == ["Lovely", "Slow"] && note.answered == 2, "\(note.texts)")
        #expect(report.paths.first?.count == 3)
        let json = report.json
        #expect(json["questions"]?.arrayValue?.count == 3)
        #expect(json["questions"]?.arrayValue?.first?["buckets"]?.arrayValue?.first?["count"] == 2)
        let html = HTMLReport.page(report)
        // A chart per question with answers, each with a text alternative and a data table.
        #expect(html.components(separatedBy: "<svg ").count - 1 >= 3)
        #expect(html.contains("<desc id=\"chart-0-desc\">Great: 2 (66.7 %); Meh: 1 (33.3 %)</desc>"))
        #expect(html.contains("<table>"))
        // Self-contained: no address but the SVG namespace, nothing loaded.
        #expect(
            html.components(separatedBy: "://").count
                == html.components(separatedBy: "http://www.w3.org/2000/svg").count)
        #expect(!html.contains("<link") && !html.contains("src="))
    }

    @Test func theMedianTimePerPageComesFromTheRecordedActions() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        // Two respondents, one taking 10 s per action and one 30 s.
        for (index, pace) in [10.0, 30.0].enumerated() {
            final class Clock: @unchecked Sendable {
                var time: Double = 0
                let pace: Double
                init(pace: Double) { self.pace = pace }
                func next() -> Date {
                    defer { time += pace }
                    return Date(timeIntervalSince1970: 1_790_000_000 + time)
                }
            }
            let clock = Clock(pace: pace)
            var session = SurveySession(survey: survey)
            var recorder = try ResponseRecorder(
                store: store, respondentID: "timed-\(index)", session: session, clock: { clock.next() })
            for (step, value) in [("mood", JSONValue.string("great")), ("score", 9), ("note", "ok")] {
                try session.answer(value, for: step)
                try recorder.record(session)
                session.next()
                try recorder.record(session)
            }
        }
        let report = try SurveyReport(survey: survey, store: store)
        // Each page: an answer and a Next, two actions: 20 s and 60 s, median 40 s.
        #expect(report.units.map(\.medianSeconds) == [40, 40, 40], "\(report.units)")
        #expect(report.json["units"]?.arrayValue?.first?["medianSeconds"] == 40)
        #expect(HTMLReport.page(report).contains("<desc id=\"time-desc\">mood: 40 s; score: 40 s; note: 40 s</desc>"))
    }

    /// An unfinished response counts with its answers so far (replayed from its actions), counted apart
    /// per question; selecting completed responses only leaves it out.
    @Test func partialResponsesCountWithTheirAnswersSoFar() throws {
        let survey = try Self.survey()
        let store = try Self.store([["mood": "great", "score": 10], ["mood": "meh", "score": 3]])
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "stopped", session: session)
        try session.answer("meh", for: "mood")
        try recorder.record(session)
        session.next()
        try recorder.record(session)
        let report = try SurveyReport(survey: survey, store: store)
        #expect(report.responses == 3 && report.partialResponses == 1)
        let mood = try #require(report.questions.first { $0.stepID == "mood" })
        #expect(mood.summary.answered == 3 && mood.answeredPartially == 1)
        #expect(mood.summary.buckets.map(\.count) == [1, 2])
        let score = try #require(report.questions.first { $0.stepID == "score" })
        #expect(score.summary.answered == 2 && score.answeredPartially == 0)
        #expect(report.json["partialResponses"] == 1)
        #expect(report.json["questions"]?.arrayValue?.first?["answeredPartially"] == 1)
        let html = HTMLReport.page(report)
        #expect(html.contains("Partial (unfinished): <b>1</b>"))
        #expect(html.contains("Answered: 3 (Partial (unfinished): 1)"))
        // Only completed responses, or partial ones left out: the two completed answers.
        let completed = try SurveyReport(survey: survey, store: store, query: ResponseQuery(statuses: [.completed]))
        #expect(completed.partialResponses == 0 && completed.questions.first?.summary.answered == 2)
        let without = try SurveyReport(survey: survey, store: store, includesPartial: false)
        #expect(without.responses == 3 && without.partialResponses == 0)
        #expect(without.questions.first?.summary.answered == 2)
    }

    @Test func headingsAreInTheReportsLanguage() throws {
        let report = try SurveyReport(survey: try Self.survey(), store: try Self.store([["mood": "meh"]]), locale: "fr")
        let html = HTMLReport.page(report)
        #expect(html.contains("<html lang=\"fr\">") && html.contains("Taux d’achèvement"))
        let japanese = HTMLReport.page(
            try SurveyReport(survey: try Self.survey(), store: try Self.store([["mood": "meh"]]), locale: "ja"))
        #expect(japanese.contains("完了率"))
    }

    /// Script tags, attribute breakouts, javascript: URLs, SVG payloads, entity and Unicode tricks,
    /// through answers and through the survey's own texts.
    static let attacks = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "' onmouseover='alert(1)",
        "javascript:alert(1)", "<svg onload=alert(1)>", "</title><script>alert(1)</script>",
        "<a href=\"javascript:alert(1)\">x</a>", "&lt;script&gt;", "\u{202E}gpj.exe", "<!--", "]]><script>",
        "`${alert(1)}`", "<style>body{display:none}</style>", "\u{0}<script>", "<iframe srcdoc=\"<script>\">",
        "<math><mi xlink:href=\"javascript:alert(1)\">", "＜script＞",
    ]

    /// Every tag of `html`: its name and its attributes (name, value).
    static func tags(_ html: String) -> [(name: String, attributes: [(String, String)])] {
        var result: [(String, [(String, String)])] = []
        // The page's own style sheet and script hold no markup: skip their contents.
        var text = html
        for (open, close) in [("<style>", "</style>"), ("<script>", "</script>")] {
            while let start = text.range(of: open),
                let end = text.range(of: close, range: start.upperBound..<text.endIndex)
            {
                result.append((String(open.dropFirst().dropLast()), []))
                text.replaceSubrange(start.lowerBound..<end.upperBound, with: "")
            }
        }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let inside = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            let closing = inside.first == "/"
            let name =
                (closing ? "/" : "")
                + inside.dropFirst(closing ? 1 : 0).prefix { !$0.isWhitespace && $0 != "/" }
                .lowercased()
            var attributes: [(String, String)] = []
            var scanner = inside.dropFirst(name.count)
            while let start = scanner.firstIndex(where: { !$0.isWhitespace && $0 != "/" }) {
                scanner = scanner[start...]
                let key = scanner.prefix { $0 != "=" && !$0.isWhitespace }
                scanner = scanner.dropFirst(key.count)
                var value = ""
                if scanner.first == "=" {
                    scanner = scanner.dropFirst()
                    if let quote = scanner.first, quote == "\"" || quote == "'" {
                        scanner = scanner.dropFirst()
                        value = String(scanner.prefix { $0 != quote })
                        scanner = scanner.dropFirst(value.count + 1)
                    } else {
                        value = String(scanner.prefix { !$0.isWhitespace })
                        scanner = scanner.dropFirst(value.count)
                    }
                }
                attributes.append((key.lowercased(), value))
            }
            result.append((name, attributes))
        }
        return result
    }

    /// The elements the page is made of (anything else came from a text).
    static let ownElements: Set<String> = [
        "!doctype", "html", "/html", "head", "/head", "meta", "title", "/title", "style", "/style", "body", "/body",
        "header", "/header", "h1", "/h1", "h2", "/h2", "p", "/p", "span", "/span", "b", "/b", "main", "/main",
        "section", "/section", "code", "/code", "bdi", "/bdi", "figure", "/figure", "svg", "/svg", "desc", "/desc",
        "text", "/text", "rect", "details", "/details", "summary", "/summary", "table", "/table", "thead", "/thead",
        "tbody", "/tbody", "tr", "/tr", "th", "/th", "td", "/td", "div", "/div", "label", "/label", "input", "ul",
        "/ul", "li", "/li", "script", "/script", "h3", "/h3", "/rect",
    ]

    @Test(arguments: attacks)
    func noRespondentOrSurveyTextSurvivesAsMarkup(attack: String) throws {
        let store = try Self.store([["mood": "great", "note": .string(attack)], ["mood": "meh", "note": "fine"]])
        // Through the survey's texts too (braces would be piping there, which the loader checks).
        let surveyText = attack.replacingOccurrences(of: "{", with: "(").replacingOccurrences(of: "}", with: ")")
        let report = try SurveyReport(survey: try Self.survey(title: surveyText, choiceLabel: surveyText), store: store)
        let html = HTMLReport.page(report)
        let tags = Self.tags(html)
        #expect(tags.filter { $0.name == "script" }.count == 1, "only the page's own search script")
        for tag in tags {
            #expect(Self.ownElements.contains(tag.name), "<\(tag.name)> from \(attack)")
            for (name, value) in tag.attributes {
                #expect(!name.hasPrefix("on"), "\(name)= on <\(tag.name)> from \(attack)")
                #expect(!value.lowercased().contains("javascript:"), "\(name)=\(value) from \(attack)")
                #expect(
                    !["href", "src", "srcdoc", "xlink:href", "action", "formaction"].contains(name),
                    "\(name) from \(attack)")
            }
        }
        // The text is still there, escaped, and isolated from the page's direction.
        #expect(html.contains("<bdi>\(HTMLReport.escape(attack))</bdi>"))
        #expect(html.contains("<bdi>\(HTMLReport.escape(surveyText))</bdi>"))
    }

    /// A survey of the kinds whose summaries are more than one distribution.
    static let kindsSurvey = """
        {"formatVersion": 1, "id": "kinds", "title": "Kinds", "steps": [
          {"id": "pet", "type": "single-choice", "title": "Pet",
           "options": {"choices": ["cat", "dog"], "other": true}},
          {"id": "nps", "type": "nps", "title": "Recommend?"},
          {"id": "grid", "type": "matrix", "title": "Rate us",
           "options": {"rows": [{"value": "price", "label": "Price"}, {"value": "speed", "label": "Speed"}],
                       "columns": ["low", "high"]}},
          {"id": "rank", "type": "ranking", "title": "Rank", "options": {"items": ["a", "b", "c"]}}]}
        """

    static func kindsStore(_ answers: [[String: JSONValue]]) throws -> InMemoryResponseStore {
        let store = InMemoryResponseStore()
        let at = Date(timeIntervalSince1970: 1_790_000_000)
        for (index, given) in answers.enumerated() {
            try store.write(
                ResponseWrite(
                    response: Response(
                        id: .make(at: at.addingTimeInterval(Double(index))), respondentID: "r\(index)",
                        surveyID: "kinds", surveyVersion: nil, locale: "en", seed: 0, today: "2026-12-02",
                        status: .completed, createdAt: at.addingTimeInterval(Double(index)), updatedAt: at,
                        completedAt: at, path: ["pet", "nps", "grid", "rank"], answers: given, actionCount: 1)))
        }
        return store
    }

    @Test func npsMatrixRankingAndOtherTextsHaveTheirOwnCharts() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.kindsSurvey)
        let attack = "<script>alert(1)</script>"
        let store = try Self.kindsStore([
            ["pet": "Hamster", "nps": 10, "grid": ["price": "low", "speed": "high"], "rank": ["b", "a", "c"]],
            ["pet": " hamster ", "nps": 9, "grid": ["price": "low"], "rank": ["b", "c", "a"]],
            ["pet": .string(attack), "nps": 0, "grid": ["price": "high"], "rank": ["a", "b", "c"]],
            ["pet": "cat", "nps": 7],
        ])
        let report = try SurveyReport(survey: survey, store: store)
        let pet = try #require(report.questions.first { $0.stepID == "pet" })
        // "Other" texts grouped ignoring case and surrounding space, most frequent first.
        #expect(pet.otherTexts.map(\.text) == ["Hamster", attack] && pet.otherTexts.map(\.count) == [2, 1])
        let rank = try #require(report.questions.first { $0.stepID == "rank" })
        #expect(rank.summary.buckets.map(\.mean) == [2, 4.0 / 3.0, 8.0 / 3.0])
        let html = HTMLReport.page(report)
        // NPS: the score (2 promoters, 1 passive, 1 detractor of 4: +25.0) and one stacked bar.
        #expect(html.contains("Net Promoter Score: <b>+25.0</b>"))
        #expect(html.contains("id=\"chart-1-nps\"") && html.contains("Detractors (0–6): 1 (25.0 %)"))
        // The matrix: rows × columns, as a table and a stacked bar per row.
        #expect(html.contains("id=\"chart-2-matrix\""))
        #expect(html.contains("<tr><th scope=\"row\"><bdi>Price</bdi></th><td>2 (66.7 %)</td><td>1 (33.3 %)</td></tr>"))
        // The ranking: first places and the average position of each item.
        #expect(
            html.contains("id=\"chart-3-positions\"")
                && html.contains("<desc id=\"chart-3-positions-desc\">a: 2; b: 1.33; c: 2.67</desc>"))
        #expect(!html.contains(attack) && html.contains(HTMLReport.escape(attack)))
        for tag in Self.tags(html) { #expect(Self.ownElements.contains(tag.name), "<\(tag.name)>") }
        // JSON carries the same: the groups, the means and the other texts.
        let questions = try #require(report.json["questions"]?.arrayValue)
        #expect(questions[0]["otherTexts"]?.arrayValue?.first?["count"] == 2)
        #expect(questions[1]["buckets"]?.arrayValue?.last?["group"] == "score")
        #expect(questions[3]["buckets"]?.arrayValue?[1]["averagePosition"] == .number(1.333))
    }

    /// The report streams: its counts are exact over many responses (a tally per question, not a list).
    @Test func countsStayExactOverManyResponses() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.kindsSurvey)
        let answers: [[String: JSONValue]] = (0..<3_000).map { index in
            ["pet": index % 3 == 0 ? "cat" : "dog", "nps": .number(Double(index % 11))]
        }
        let report = try SurveyReport(survey: survey, store: try Self.kindsStore(answers))
        let pet = try #require(report.questions.first { $0.stepID == "pet" })
        #expect(pet.summary.buckets.map(\.count) == [1_000, 2_000, 0])
        let nps = try #require(report.questions.first { $0.stepID == "nps" })
        #expect(nps.summary.answered == 3_000 && nps.summary.median == 5)
        #expect(nps.summary.buckets.prefix(11).allSatisfy { $0.count == 273 || $0.count == 272 })
    }

    /// Read in parts on several threads, the report is the one read in one go.
    @Test func aReportReadInPartsIsTheSameAsInOneGo() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.kindsSurvey)
        let answers: [[String: JSONValue]] = (0..<1_500).map { index in
            let pet: JSONValue =
                index % 7 == 0 ? .string("other \(index % 13)") : .string(index % 2 == 0 ? "cat" : "dog")
            let rank: JSONValue = index % 2 == 0 ? ["a", "b", "c"] : ["c", "a", "b"]
            return ["pet": pet, "nps": .number(Double(index * 7 % 11)), "rank": rank]
        }
        let store = try Self.kindsStore(answers)
        let whole = try SurveyReport(survey: survey, store: store, parallelism: 1)
        let parts = try store.split(ResponseQuery(surveyID: "kinds"), into: 3, minimumPartSize: 100)
        #expect(parts.count == 3)
        let split = try SurveyReport(survey: survey, store: store, parallelism: 3, minimumPartSize: 100)
        #expect(split.json == whole.json)
        #expect(split.responses == 1_500)
    }
}
