import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyDelivery
import SurveyTestFixtures
import Testing

/// `choicesByUrl`: choice lists fetched from a service when the survey loads, cached for offline use.
@Suite struct ChoicesByURLTests {
    static let countries =
        #"{"data": {"items": [{"code": "fr", "name": "France"}, {"code": "de", "name": "Germany"}]}}"#

    static func survey(_ choicesByUrl: String, extra: String = "") -> JSONValue {
        (try? JSONParser.parse(
            """
            {"formatVersion": 1, "id": "where", "title": "Where", "steps": [
              {"id": "intro", "type": "content", "options": {"body": "Hi"}},
              {"id": "page", "type": "page", "title": "Page", "steps": [
                {"id": "country", "type": "dropdown", "options": {"choicesByUrl": \(choicesByUrl)\(extra)}}]}]}
            """)) ?? .null
    }

    /// The `choices` of the `country` question in a resolved survey.
    static func choices(_ survey: JSONValue) -> JSONValue? {
        survey["steps"]?.arrayValue?[1]["steps"]?.arrayValue?[0]["options"]?["choices"]
    }

    @Test func theChoicesComeFromTheServiceAndTheSurveyRuns() throws {
        let server = try TestServer(files: ["countries.json": Self.countries, "plain.json": #"["red", "green", 3]"#])
        let fetcher = RemoteFetcher(cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory()))
        let resolution = try ChoicesByURL.resolve(
            Self.survey(
                #"{"url": "\#(server.url("countries.json"))", "path": "data;items", "valueName": "code", "titleName": "name"}"#
            ),
            with: fetcher)
        #expect(resolution.resolved == 1 && resolution.warnings.isEmpty)
        let survey = try SurveyLoader(registry: .builtins()).load(text: JSONWriter.string(from: resolution.survey))
        var session = SurveySession(survey: survey)
        session.next()
        try session.answer("de", for: "country")
        #expect(throws: SessionError.self) { try session.answer("es", for: "country") }
        guard case .singleChoice(let input) = session.currentStep?.questions.first?.input else {
            Issue.record("not a choice")
            return
        }
        #expect(input.choices.map(\.label) == ["France", "Germany"])
        // Plain values are their own labels.
        let plain = try ChoicesByURL.resolve(Self.survey(#"{"url": "\#(server.url("plain.json"))"}"#), with: fetcher)
        #expect(
            Self.choices(plain.survey)
                == [["value": "red"], ["value": "green"], ["value": 3]])
    }

    @Test func offlineTheCachedListIsUsedAndWithoutOneTheListedChoices() throws {
        let server = try TestServer(files: ["countries.json": Self.countries])
        let directory = RemoteFetcherTests.cacheDirectory()
        let source = #"{"url": "\#(server.url("countries.json"))", "path": "data,items", "valueName": "code"}"#
        _ = try ChoicesByURL.resolve(Self.survey(source), with: RemoteFetcher(cache: FetchCache(directory: directory)))
        try server.control(["down": true])
        let offline = try ChoicesByURL.resolve(
            Self.survey(source), with: RemoteFetcher(cache: FetchCache(directory: directory)))
        #expect(offline.warnings.count == 1 && offline.warnings[0].contains("using the copy cached"))
        #expect(Self.choices(offline.survey)?.arrayValue?.count == 2)
        // Nothing cached: the listed choices, with a warning; no listed choices: an error at the url.
        let fresh = RemoteFetcher(cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory()))
        let fallback = try ChoicesByURL.resolve(Self.survey(source, extra: #", "choices": ["Other"]"#), with: fresh)
        #expect(Self.choices(fallback.survey) == ["Other"])
        #expect(fallback.warnings.first?.contains("offers its listed 'choices' instead") == true)
        do {
            _ = try ChoicesByURL.resolve(Self.survey(source), with: fresh)
            Issue.record("an unfetchable list without fallback resolved")
        } catch {
            #expect(error.errors.first?.path?.description == "$.steps[1].steps[0].options.choicesByUrl.url")
            #expect(error.errors.first?.stepID == "country")
        }
        // A SurveyJS survey (survey-core shows the question with no choices): the question is off, with a warning.
        let off = try ChoicesByURL.resolve(Self.survey(source), with: fresh, offUnreachable: true)
        #expect(off.warnings.count == 1 && off.warnings[0].contains("step 'country' is not asked"))
        let survey = try SurveyLoader(registry: .builtins()).load(text: JSONWriter.string(from: off.survey))
        var session = SurveySession(survey: survey)
        session.next()
        #expect(session.status == .completed)
        #expect(!session.currentStepIDs.contains("country"))
    }

    @Test func aSurveyJSRelativeAddressOrARequiredUnreachableListIsAsInSurveyCore() throws {
        let fresh = RemoteFetcher(cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory()))
        // This engine's format: a relative address is refused.
        #expect(throws: SurveyLoadError.self) {
            try ChoicesByURL.resolve(Self.survey(#"{"url": "lists/countries.json"}"#), with: fresh)
        }
        // SurveyJS (a browser fetches it from the page's address): a list that cannot be had.
        let off = try ChoicesByURL.resolve(
            Self.survey(#"{"url": "lists/countries.json"}"#), with: fresh, offUnreachable: true)
        #expect(off.warnings.count == 1 && off.warnings[0].contains("a relative address"))
        #expect(off.warnings[0].contains("step 'country' is not asked"))
        // Required: survey-core shows it with nothing to pick and stops there; so does this engine.
        var required = Self.survey(#"{"url": "lists/countries.json"}"#)
        if case .object(var root) = required, case .array(var steps) = root["steps"],
            case .object(var page) = steps[1], case .array(var inner) = page["steps"],
            case .object(var country) = inner[0]
        {
            country["required"] = true
            inner[0] = .object(country)
            page["steps"] = .array(inner)
            steps[1] = .object(page)
            root["steps"] = .array(steps)
            required = .object(root)
        }
        let stops = try ChoicesByURL.resolve(required, with: fresh, offUnreachable: true)
        #expect(stops.warnings.first?.contains("as it is required no answer passes it") == true)
        let survey = try SurveyLoader(registry: .builtins()).load(text: JSONWriter.string(from: stops.survey))
        var session = SurveySession(survey: survey)
        session.next()
        #expect(session.currentStepIDs.contains("country"))
        session.next()
        #expect(session.status != .completed)
        #expect(session.currentStepIDs.contains("country"))
    }

    @Test func aListInsideARepeatIsFetchedAndAnUnreachableOneLeavesItsItemOut() throws {
        let server = try TestServer(files: ["plain.json": #"["red", "green"]"#])
        let text = """
            {"formatVersion": 1, "id": "r", "title": "R", "steps": [{"id": "cars", "type": "repeat", "options": {"items": [
              {"name": "colour", "type": "dropdown", "options": {"choicesByUrl": {"url": "\(server.url("plain.json"))"}}},
              {"name": "make", "type": "dropdown", "options": {"choicesByUrl": {"url": "\(server.url("gone.json"))"}}},
              {"name": "note"}]}}]}
            """
        let survey = try JSONParser.parse(text)
        let fetcher = RemoteFetcher(cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory()))
        // This engine's format: a list that cannot be had is an error at its place.
        #expect(throws: SurveyLoadError.self) { try ChoicesByURL.resolve(survey, with: fetcher) }
        // A SurveyJS survey: survey-core offers nothing to pick there; the item is left out, with a warning.
        let resolved = try ChoicesByURL.resolve(survey, with: fetcher, offUnreachable: true)
        let items = resolved.survey["steps"]?.arrayValue?.first?["options"]?["items"]?.arrayValue ?? []
        #expect(items.compactMap { $0["name"]?.stringValue } == ["colour", "note"])
        #expect(items.first?["options"]?["choices"] == [["value": "red"], ["value": "green"]])
        #expect(resolved.warnings.contains { $0.contains("the item 'make' of step 'cars' is left out") })
        _ = try SurveyLoader(registry: .builtins()).load(text: JSONWriter.string(from: resolved.survey))
    }

    @Test(arguments: [
        (#""https://x""#, "must be an object"),
        (#"{"href": "https://x"}"#, "unknown member 'href'"),
        (#"{"url": "ftp://x/y"}"#, "must start with http:// or https://"),
        (#"{"url": "https://x/{country}"}"#, "choices that depend on answers are not supported"),
        (#"{"url": "https://x", "path": 3}"#, "'path' must be a text"),
    ])
    func aMalformedChoicesByUrlIsAnErrorAtItsPath(source: String, message: String) throws {
        do {
            _ = try ChoicesByURL.resolve(
                Self.survey(source),
                with: RemoteFetcher(cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory())))
            Issue.record("\(source) was accepted")
        } catch {
            #expect(error.errors.first?.message.contains(message) == true, "\(error)")
            #expect(error.errors.first?.path?.description.hasPrefix("$.steps[1].steps[0].options.choicesByUrl") == true)
        }
    }

    @Test func aResponseWithoutAListSaysWhatIsWrong() throws {
        let server = try TestServer(files: [
            "object.json": #"{"items": {"a": 1}}"#, "empty.json": "[]", "dup.json": #"["a", "a"]"#,
            "novalue.json": #"[{"name": "x"}]"#,
        ])
        let fetcher = RemoteFetcher(cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory()))
        for (file, path, message) in [
            ("object.json", "items", "not a list"), ("object.json", "data", "has no 'data'"),
            ("empty.json", "", "the list is empty"), ("dup.json", "", "repeats the value 'a'"),
            ("novalue.json", "", "set 'valueName'"),
        ] {
            do {
                _ = try ChoicesByURL.resolve(
                    Self.survey(#"{"url": "\#(server.url(file))", "path": "\#(path)"}"#), with: fetcher)
                Issue.record("\(file) was accepted")
            } catch {
                #expect(error.errors.first?.message.contains(message) == true, "\(error)")
            }
        }
        let empty = try ChoicesByURL.resolve(
            Self.survey(#"{"url": "\#(server.url("empty.json"))", "allowEmptyResponse": true}"#), with: fetcher)
        #expect(empty.resolved == 1)
    }

    @Test func loadingWithoutResolvingSaysHow() {
        do {
            _ = try SurveyLoader(registry: .builtins()).load(
                text: JSONWriter.string(from: Self.survey(#"{"url": "https://example.com/c.json"}"#)))
            Issue.record("an unresolved choicesByUrl loaded")
        } catch {
            #expect(error.errors.first?.message.contains("fetched before the survey loads") == true)
        }
    }
}
