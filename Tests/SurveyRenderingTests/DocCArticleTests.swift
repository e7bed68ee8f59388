import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering
import SurveyTestKit
import Testing
import XCTest

/// The code of the DocC articles (Sources/*/*.docc), compiled and run here: each ```swift and ```c
/// block of an article must appear, line for line, in one of ``DocCArticleTests/snippetFiles`` (this
/// file, the other test files that hold article code, and the example plugins CI builds and loads).
@Suite struct DocCArticleTests {
    static let root = ReadmeExamplesTests.repositoryRoot

    /// Where an article's code may come from.
    static let snippetFiles = [
        "Tests/SurveyRenderingTests/DocCArticleTests.swift",
        "Tests/SurveyRenderingTests/ReadmeExamplesTests.swift",
        "Tests/SurveyResponsesTests/DocCStoreExampleTests.swift",
        "Plugins/ColorPicker/ColorPickerPlugin.swift",
        "Plugins/CStarPlugin/emoji_rating.c",
        "Plugins/SwiftPluginPackage/Package.swift",
    ]

    /// The articles and landing pages of every catalog.
    static func articles() throws -> [String] {
        let sources = root + "/Sources"
        var found: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            let catalog = "\(sources)/\(target)/\(target).docc"
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: catalog) else { continue }
            found += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return found
    }

    /// The fenced code blocks of `text` in `languages`, each as its lines.
    static func codeBlocks(in text: String, languages: Set<String>) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let block = current {
                if trimmed == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    current = block + [line]
                }
            } else if trimmed.hasPrefix("```"), languages.contains(String(trimmed.dropFirst(3))) {
                current = []
            }
        }
        return blocks
    }

    /// Lines without their indentation and without empty lines: an article's block is the code of a
    /// test (indented in its function), compared line for line.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func everyArticleBlockIsCompiledCode() throws {
        let sources = try Self.snippetFiles.map {
            Self.normalized(
                try String(contentsOfFile: Self.root + "/" + $0, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false
                ).map(String.init))
        }
        let articles = try Self.articles()
        #expect(articles.count >= 11, "5 landing pages and 6 articles")
        var checked = 0
        for article in articles {
            let text = try String(contentsOfFile: article, encoding: .utf8)
            for block in Self.codeBlocks(in: text, languages: ["swift", "c"]) {
                let lines = Self.normalized(block)
                let found = sources.contains { source in
                    source.count >= lines.count
                        && (0...(source.count - lines.count)).contains {
                            Array(source[$0..<($0 + lines.count)]) == lines
                        }
                }
                #expect(
                    found, "\(article): this block is in none of the snippet files:\n\(block.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked >= 8)
    }

    @Test func theCheckFindsABlockThatIsNotCode() {
        let text = "Intro\n\n```swift\nlet x = 1\nprint(x)\n```\n\n```sh\nswift build\n```\n"
        let blocks = Self.codeBlocks(in: text, languages: ["swift", "c"])
        #expect(blocks == [["let x = 1", "print(x)"]])
    }

    // Getting started (SurveyCore.docc/GettingStarted.md).
    @Test func gettingStarted() throws {
        let json = """
            {"formatVersion": 1, "id": "coffee", "title": "Coffee", "steps": [
              {"id": "cups", "type": "number", "title": "How many cups a day?", "required": true},
              {"id": "decaf", "type": "boolean", "title": "Decaf?", "visibleIf": "{cups} > 3"}]}
            """
        let survey = try SurveyLoader(registry: .builtins()).load(text: json, source: "coffee.json")
        var session = SurveySession(survey: survey)
        try session.answer(2, for: "cups")
        guard case .completed(let result) = session.next() else { return }
        // 2 cups: the decaf question was never shown.
        print(result.answers)  // ["cups": 2]
        #expect(result.answers == ["cups": 2])
    }

    // Writing a renderer (SurveyRendering.docc/WritingARenderer.md).
    struct FirstChoiceRenderer: SurveyRenderer {
        var seen: [String] = []

        mutating func action(for request: StepRequest) -> RendererAction {
            for question in request.presentation.questions where question.answer == nil {
                if let first = question.input.choiceInput?.choices.first {
                    return .answer(stepID: question.id, value: .string(first.value))
                }
            }
            return .next
        }

        mutating func receive(_ event: RendererEvent) {
            seen.append("\(event)")
        }
    }

    @Test func aRendererOfItsOwn() throws {
        let json = """
            {"formatVersion": 1, "id": "fruit", "title": "Fruit", "steps": [
              {"id": "fruit", "type": "single-choice", "title": "Pick one",
               "options": {"choices": ["apple", "banana"]}, "required": true}]}
            """
        let survey = try SurveyLoader(registry: .builtins()).load(text: json, source: "fruit.json")
        var driver = SurveyDriver(session: SurveySession(survey: survey))
        var renderer = FirstChoiceRenderer()
        let outcome = driver.run(with: &renderer)
        #expect(outcome.result?.answers == ["fruit": "apple"])
        #expect(!renderer.seen.isEmpty)
    }

    // Testing a survey (SurveyTestKit.docc/TestingASurvey.md), with Swift Testing.
    static let coffeeSurvey = """
        {"formatVersion": 1, "id": "coffee", "title": "Coffee", "steps": [
          {"id": "cups", "type": "number", "title": "How many cups a day?", "required": true},
          {"id": "decaf", "type": "boolean", "title": "Decaf?", "visibleIf": "{cups} > 3"}]}
        """

    @Test func heavyDrinkersAreAskedAboutDecaf() throws {
        let run = try SurveyRun(text: Self.coffeeSurvey, answers: ["cups": 5, "decaf": true])
        try run.expectPath(["cups", "decaf"])
        try run.expectAnswers(["cups": 5, "decaf": true])
    }
}

// Testing a survey (SurveyTestKit.docc/TestingASurvey.md), with XCTest.
final class CoffeeSurveyTests: XCTestCase {
    func testLightDrinkersSkipDecaf() throws {
        let run = try SurveyRun(text: DocCArticleTests.coffeeSurvey, answers: ["cups": 1])
        try run.expectPath(["cups"])
        XCTAssertEqual(run.answers, ["cups": 1])
    }
}
