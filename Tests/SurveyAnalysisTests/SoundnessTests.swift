import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

/// The linter's errors are proofs: on randomly generated surveys, no `unreachable-step` error names a
/// step that an exhaustive run of the engine (every combination of a few answers per question) shows,
/// and no run completes a survey the linter says cannot be completed from the start.
@Suite("Soundness against the engine")
struct SoundnessTests {
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
    }

    static let kinds = ["single-choice", "single-other", "multiple-choice", "boolean", "rating", "number", "text"]

    /// A random survey of `count` questions, some on pages, with conditions, requirements and branches.
    static func randomSurvey(seed: UInt64, count: Int = 7) -> String {
        var random = Generator(state: seed)
        var kinds: [String] = []
        for _ in 0..<count { kinds.append(Self.kinds[random.next(Self.kinds.count)]) }
        func condition(on index: Int) -> String {
            let name = "{q\(index)}"
            switch kinds[index] {
            case "single-choice", "single-other":
                return [
                    "\(name) = 'a'", "\(name) <> 'b'", "\(name) anyof ['a', 'c']", "\(name) empty", "\(name) = 'd'",
                ][
                    random.next(5)]
            case "multiple-choice":
                return ["\(name) contains 'b'", "\(name) notcontains 'a'", "count(\(name)) > 1", "\(name) empty"][
                    random.next(4)]
            case "boolean": return ["\(name) = true", "\(name) = false", "\(name) notempty"][random.next(3)]
            case "rating": return ["\(name) >= 2", "\(name) < 3", "\(name) = 1", "\(name) > 3"][random.next(4)]
            case "number": return ["\(name) > 2", "\(name) <= 0", "\(name) = 5", "\(name) + 1 > 3"][random.next(4)]
            default: return ["\(name) notempty", "\(name) = 'x'", "\(name) <> 'y'"][random.next(3)]
            }
        }
        func compound(before index: Int) -> String? {
            guard index > 0 else { return nil }
            let first = condition(on: random.next(index))
            guard random.chance(35) else { return first }
            let second = condition(on: random.next(random.chance(80) ? index : count))
            return "\(first) \(random.chance(50) ? "and" : "or") \(random.chance(20) ? "not (\(second))" : second)"
        }
        func question(_ index: Int) -> String {
            var members = ["\"id\": \"q\(index)\""]
            let choices = (0..<3).map { value -> String in
                let letter = ["a", "b", "c"][value]
                guard random.chance(10), index > 0 else { return "\"\(letter)\"" }
                return "{\"value\": \"\(letter)\", \"visibleIf\": \"\(condition(on: random.next(index)))\"}"
            }.joined(separator: ", ")
            switch kinds[index] {
            case "single-choice":
                members += ["\"type\": \"single-choice\"", "\"options\": {\"choices\": [\(choices)]}"]
            case "single-other":
                members += ["\"type\": \"single-choice\"", "\"options\": {\"choices\": [\(choices)], \"other\": true}"]
            case "multiple-choice":
                members += ["\"type\": \"multiple-choice\"", "\"options\": {\"choices\": [\(choices)]}"]
            case "boolean": members.append("\"type\": \"boolean\"")
            case "rating": members += ["\"type\": \"rating\"", "\"options\": {\"stars\": 4}"]
            case "number":
                members += ["\"type\": \"number\"", "\"options\": {\"min\": 0, \"max\": 5, \"integer\": true}"]
            default: members.append("\"type\": \"text\"")
            }
            if random.chance(45) { members.append("\"required\": true") }
            if random.chance(40), let visibleIf = compound(before: index) {
                members.append("\"visibleIf\": \"\(visibleIf)\"")
            }
            if random.chance(10), let requiredIf = compound(before: index + 1) {
                members.append("\"requiredIf\": \"\(requiredIf)\"")
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
        // Units: pages of 1–3 questions or single questions.
        var units: [(id: String, questions: [Int])] = []
        var index = 0
        while index < count {
            let size = random.chance(35) ? min(1 + random.next(3), count - index) : 1
            units.append((size > 1 ? "p\(units.count)" : "q\(index)", Array(index..<(index + size))))
            index += size
        }
        var steps: [String] = []
        for (position, unit) in units.enumerated() {
            var branches: [String] = []
            if random.chance(30), let last = unit.questions.last {
                let target: String
                if random.chance(15) {
                    target = "\"goto\": \"\(units[random.next(position + 1)].id)\""
                } else if position + 2 < units.count, random.chance(80) {
                    target = "\"goto\": \"\(units[position + 2 + random.next(units.count - position - 2)].id)\""
                } else {
                    target = "\"complete\": true"
                }
                let condition =
                    random.chance(15) ? "" : "\"if\": \"\(compound(before: last + 1) ?? condition(on: last))\", "
                branches.append("{" + condition + target + "}")
            }
            let branchMember = branches.isEmpty ? "" : ", \"branches\": [" + branches.joined(separator: ", ") + "]"
            if unit.questions.count == 1 {
                var text = question(unit.questions[0])
                text.removeLast()
                steps.append(text + branchMember + "}")
            } else {
                let visibleIf =
                    random.chance(25)
                    ? compound(before: unit.questions[0]).map { ", \"visibleIf\": \"\($0)\"" } ?? "" : ""
                steps.append(
                    "{\"id\": \"\(unit.id)\", \"type\": \"page\"\(visibleIf), \"steps\": ["
                        + unit.questions.map(question).joined(separator: ", ") + "]\(branchMember)}")
            }
        }
        return "{\"formatVersion\": 1, \"id\": \"random\", \"title\": \"Random\", \"steps\": [\n"
            + steps.joined(separator: ",\n") + "\n]}"
    }

    /// A few answers per question, for the exhaustive run.
    static func candidates(for question: ConfiguredQuestion) -> [JSONValue] {
        switch question.input(in: .english) {
        case .singleChoice(let input):
            return input.choices.filter { !$0.isOther }.map { .string($0.value) }
                + (input.choices.contains(where: \.isOther) ? ["d", "something"] : []) + [.null]
        case .multipleChoice(let input):
            let values = input.choices.map(\.value)
            return (0..<(1 << values.count)).map { mask in
                .array(values.indices.filter { mask & (1 << $0) != 0 }.map { .string(values[$0]) })
            } + [.null]
        case .boolean: return [true, false, .null]
        case .number(let input):
            return stride(from: input.minimum ?? 0, through: input.maximum ?? 5, by: 1).map { .number($0) } + [.null]
        default: return ["x", "y", "z", .null]
        }
    }

    /// Every step some run shows, and whether some run completes.
    static func explore(_ survey: Survey, limit: Int = 1500) -> (seen: Set<String>, completes: Bool) {
        var seen = Set<String>()
        var completes = false
        var queue = [SurveySession(survey: survey, today: "2025-01-01")]
        var visited = Set<String>()
        var head = 0
        while head < queue.count, head < limit {
            let session = queue[head]
            head += 1
            guard let unit = session.currentUnitID else { continue }
            let steps = survey.stepIDs(inUnit: unit)
            var combinations: [[String: JSONValue]] = [[:]]
            for step in steps {
                guard let question = survey.question(forStep: step), question.collectsAnswer else { continue }
                combinations = combinations.flatMap { partial in
                    candidates(for: question).map { value in partial.merging([step: value]) { $1 } }
                }
                if combinations.count > 150 { combinations = Array(combinations.prefix(150)) }
            }
            for combination in combinations {
                var copy = session
                for _ in 0..<2 {
                    for step in steps where copy.isVisible(step) {
                        if let value = combination[step], !value.isNull { _ = try? copy.answer(value, for: step) }
                    }
                }
                seen.formUnion(copy.currentStepIDs)
                let key =
                    copy.pathIDs.joined(separator: ",") + "|"
                    + survey.stepIDs.map { copy.answer(for: $0)?.description ?? "-" }.joined(separator: ",")
                guard visited.insert(key).inserted else { continue }
                switch copy.next() {
                case .moved: queue.append(copy)
                case .completed: completes = true
                case .blocked: break
                }
            }
        }
        return (seen, completes)
    }

    @Test func errorsAreNeverContradictedByTheEngine() throws {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["SOUNDNESS_SEED"].flatMap(Int.init) {
            print(Self.randomSurvey(seed: UInt64(seed) &* 7919 &+ 17))
            return try check(seed: seed)
        }
        let count = Int(environment["SOUNDNESS_SURVEYS"] ?? "") ?? 20
        for seed in 0..<count { try check(seed: seed) }
    }

    func check(seed: Int) throws {
        let text = Self.randomSurvey(seed: UInt64(seed) &* 7919 &+ 17)
        let survey: Survey
        do {
            survey = try SurveyLoader(registry: .builtins()).load(text: text, source: "random.json")
        } catch {
            return  // a generated survey that does not load is not interesting
        }
        let found = SurveyLinter().lint(survey, source: text, file: "random.json")
        let (seen, completes) = Self.explore(survey)
        if ProcessInfo.processInfo.environment["SOUNDNESS_VERBOSE"] != nil {
            let errors = found.filter { $0.severity == .error }.map(\.rule.id)
            var reported = Set<String>()
            for finding in found where finding.rule == .unreachableStep {
                guard let id = finding.stepID else { continue }
                reported.formUnion(survey.isUnit(id) ? survey.stepIDs(inUnit: id) : [id])
            }
            let missed = survey.stepIDs.filter { !seen.contains($0) && !reported.contains($0) }
            print("seed \(seed): \(seen.count) of \(survey.stepCount) steps seen; errors: \(errors); missed: \(missed)")
        }
        for finding in found where finding.severity == .error {
            guard let stepID = finding.stepID else { continue }
            switch finding.rule {
            case .unreachableStep:
                let steps = survey.isUnit(stepID) ? survey.stepIDs(inUnit: stepID) : [stepID]
                #expect(
                    steps.allSatisfy { !seen.contains($0) },
                    "seed \(seed): the engine shows '\(stepID)', the linter says: \(finding)\n\(text)")
            case .deadEnd:
                if finding.message.contains("loop") && survey.unitIDs.first == stepID {
                    #expect(!completes, "seed \(seed): \(finding)\n\(text)")
                }
            default:
                break
            }
        }
    }
}
