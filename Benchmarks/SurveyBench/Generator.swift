import Foundation
import SurveyCore

/// The question kinds the generator uses, with their SurveyJS counterparts.
enum Kind: String, CaseIterable {
    case singleChoice = "single-choice"
    case multipleChoice = "multiple-choice"
    case text
    case rating

    var surveyJSType: String {
        switch self {
        case .singleChoice: return "radiogroup"
        case .multipleChoice: return "checkbox"
        case .text: return "text"
        case .rating: return "rating"
        }
    }
}

/// The LCG of `bench.js` (Numerical Recipes constants, high 16 bits), so that the default survey
/// is the one SurveyJS's published figures were measured on.
struct LCG {
    var state: UInt32

    init(seed: UInt32) { state = seed }

    mutating func callAsFunction(_ bound: Int) -> Int {
        state = state &* 1_664_525 &+ 1_013_904_223
        return Int(state >> 16) % bound
    }

    /// A draw for bounds above 2^16 (two draws; bench.js's own draws never use this).
    mutating func wide(_ bound: Int) -> Int {
        (self(65536) << 16 | self(65536)) % bound
    }
}

/// Generator settings.
struct GeneratorOptions {
    var questions = 1000
    var perPage = 10
    var seed: UInt32 = 20_240_601
    var kinds: [Kind] = [.singleChoice, .multipleChoice, .text, .rating]
    /// Fraction of questions (after the first) that get a `visibleIf`.
    var visibleDensity = 1.0
    /// 0: each condition points at a random earlier question (70 % among the previous 20), as in
    /// bench.js. D > 1: chains of D questions, each pointing at the one before it.
    var chainDepth = 0
    /// Forward branching jumps (`branches: [{if, goto}]`), our engine only.
    var jumps = 0
    /// Calculated values, each used by one later `visibleIf`; our engine only.
    var calculated = 0
    var writeSurveyJS = true
}

/// A generated survey: kinds, conditions, branches, calculated values and the answer script.
struct GeneratedSurvey {
    let options: GeneratorOptions
    var kinds: [Kind] = []
    var visibleIf: [String?] = []
    /// Per question: (condition, target page index, or nil = complete).
    var branches: [[(String, Int?)]] = []
    var calculatedValues: [(name: String, expression: String)] = []
    var answers: [String] = []  // JSON text of each answer

    var pageCount: Int { (options.questions + options.perPage - 1) / options.perPage }

    /// Whether the SurveyJS file has the same semantics (no branches, no calculated values).
    var surveyJSEquivalent: Bool { options.jumps == 0 && options.calculated == 0 }

    init(_ options: GeneratorOptions) {
        self.options = options
        let n = options.questions
        var main = LCG(seed: options.seed)
        var extra = LCG(seed: options.seed ^ 0x5BD1_E995)
        kinds.reserveCapacity(n)
        visibleIf.reserveCapacity(n)
        for i in 0..<n {
            let kind = options.kinds[main(options.kinds.count)]
            kinds.append(kind)
            guard i > 0 else {
                visibleIf.append(nil)
                continue
            }
            var j = main(10) < 7 ? i - 1 - main(min(i, 20)) : main(i)
            let pick = main(3)
            if options.chainDepth > 1, i % options.chainDepth != 0 { j = i - 1 }
            if options.visibleDensity < 1, Double(extra(10000)) >= options.visibleDensity * 10000 {
                visibleIf.append(nil)
                continue
            }
            visibleIf.append(Self.condition(on: j, kind: kinds[j], pick: pick))
        }
        branches = Array(repeating: [], count: n)
        if options.jumps > 0, pageCount >= 2 {
            for _ in 0..<options.jumps {
                let page = extra.wide(pageCount - 1)
                let first = page * options.perPage
                let question = first + extra(min(options.perPage, n - first))
                let target = page + 2 + extra(5)
                let condition = Self.condition(on: question, kind: kinds[question], pick: extra(3))
                branches[question].append((condition, target < pageCount ? target : nil))
            }
        }
        if options.calculated > 0, n >= 3 {
            for c in 0..<options.calculated {
                let a = extra.wide(n - 2)
                let b = extra.wide(n - 2)
                let name = "c\(c)"
                calculatedValues.append(
                    (name, "iif({q\(a)} notempty, 1, 0) + iif({q\(b)} notempty, 1, 0)"))
                let user = max(a, b) + 1 + extra.wide(n - 1 - max(a, b))
                visibleIf[user] = "{\(name)} >= 1"
            }
        }
        // Answers: a pure function of i, drawn from a second stream exactly as bench.js does.
        var answerStream = LCG(seed: options.seed ^ 0x9E37_79B9)
        let choices = ["a", "b", "c", "d"]
        answers.reserveCapacity(n)
        for kind in kinds {
            switch kind {
            case .singleChoice: answers.append("\"\(choices[answerStream(4)])\"")
            case .multipleChoice:
                let mask = 1 + answerStream(15)
                let picked = choices.indices.filter { mask & (1 << $0) != 0 }.map { "\"\(choices[$0])\"" }
                answers.append("[" + picked.joined(separator: ",") + "]")
            case .rating: answers.append(String(1 + answerStream(5)))
            case .text: answers.append("\"t\(answerStream(10))\"")
            }
        }
    }

    /// The operator mix of bench.js for a condition on question `j`.
    static func condition(on j: Int, kind: Kind, pick: Int) -> String {
        let v = "{q\(j)}"
        switch kind {
        case .singleChoice: return ["\(v) = 'a'", "\(v) <> 'b'", "\(v) anyof ['a', 'c']"][pick]
        case .multipleChoice: return ["\(v) contains 'b'", "\(v) notcontains 'a'", "\(v) contains 'b'"][pick]
        case .rating: return ["\(v) >= 3", "\(v) < 4", "\(v) >= 3"][pick]
        case .text: return ["\(v) notempty", "\(v) = 't3'", "\(v) notempty"][pick]
        }
    }

    var title: String { "generated branching survey N=\(options.questions) seed=\(options.seed)" }

    /// Our format: one page per `perPage` questions, one step per line.
    func ourJSON() -> String {
        var out = "{\"formatVersion\": 1, \"id\": \"bench-\(options.questions)-\(options.seed)\",\n"
        out += " \"title\": \"\(title)\",\n"
        if !calculatedValues.isEmpty {
            out += " \"calculatedValues\": ["
            out += calculatedValues.map { "{\"name\": \"\($0.name)\", \"expression\": \"\($0.expression)\"}" }
                .joined(separator: ", ")
            out += "],\n"
        }
        out += " \"steps\": [\n"
        out.reserveCapacity(options.questions * 110)
        for page in 0..<pageCount {
            out += "  {\"id\": \"p\(page)\", \"type\": \"page\", \"steps\": [\n"
            let range = (page * options.perPage)..<min(options.questions, (page + 1) * options.perPage)
            for i in range {
                out += "   {\"id\": \"q\(i)\", \"type\": \"\(kinds[i].rawValue)\""
                switch kinds[i] {
                case .singleChoice, .multipleChoice: out += ", \"options\": {\"choices\": [\"a\", \"b\", \"c\", \"d\"]}"
                case .rating: out += ", \"options\": {\"stars\": 5}"
                case .text: break
                }
                if let condition = visibleIf[i] { out += ", \"visibleIf\": \"\(condition)\"" }
                if !branches[i].isEmpty {
                    out += ", \"branches\": ["
                    out += branches[i].map { rule in
                        "{\"if\": \"\(rule.0)\", "
                            + (rule.1.map { "\"goto\": \"p\($0)\"}" } ?? "\"complete\": true}")
                    }.joined(separator: ", ")
                    out += "]"
                }
                out += i == range.upperBound - 1 ? "}\n" : "},\n"
            }
            out += page == pageCount - 1 ? "  ]}\n" : "  ]},\n"
        }
        out += " ]\n}\n"
        return out
    }

    /// SurveyJS JSON, byte for byte what `bench.js --write-json` writes (JSON.stringify, indent 1).
    /// Branches and calculated values are left out (see `surveyJSEquivalent`).
    func surveyJSJSON() -> String {
        var out = "{\n \"title\": \"\(title)\",\n \"pages\": [\n"
        out.reserveCapacity(options.questions * 160)
        let choiceLines = "     \"choices\": [\n      \"a\",\n      \"b\",\n      \"c\",\n      \"d\"\n     ]"
        for page in 0..<pageCount {
            out += "  {\n   \"name\": \"p\(page)\",\n   \"elements\": [\n"
            let range = (page * options.perPage)..<min(options.questions, (page + 1) * options.perPage)
            for i in range {
                var members = ["     \"type\": \"\(kinds[i].surveyJSType)\"", "     \"name\": \"q\(i)\""]
                switch kinds[i] {
                case .singleChoice, .multipleChoice: members.append(choiceLines)
                case .rating: members += ["     \"rateMin\": 1", "     \"rateMax\": 5"]
                case .text: break
                }
                if let condition = visibleIf[i], surveyJSEquivalent || !condition.hasPrefix("{c") {
                    members.append("     \"visibleIf\": \"\(condition)\"")
                }
                out += "    {\n" + members.joined(separator: ",\n") + "\n    }"
                out += i == range.upperBound - 1 ? "\n" : ",\n"
            }
            out += page == pageCount - 1 ? "   ]\n  }\n" : "   ]\n  },\n"
        }
        out += " ]\n}\n"
        return out
    }

    /// `{"q0": answer, ...}` on one line, like `bench.js --write-answers`.
    func answersJSON() -> String {
        var out = "{"
        out.reserveCapacity(options.questions * 16)
        for (i, answer) in answers.enumerated() {
            if i > 0 { out += "," }
            out += "\"q\(i)\":" + answer
        }
        return out + "}\n"
    }
}

func runGenerate(_ arguments: Arguments) throws(BenchError) {
    var options = GeneratorOptions()
    options.questions = try arguments.int("questions", default: options.questions)
    options.perPage = try arguments.int("per-page", default: options.perPage)
    options.seed = UInt32(truncatingIfNeeded: try arguments.int("seed", default: Int(options.seed)))
    options.visibleDensity = try arguments.double("visible-density", default: 1.0)
    options.chainDepth = try arguments.int("chain-depth", default: 0)
    options.jumps = try arguments.int("jumps", default: 0)
    options.calculated = try arguments.int("calculated", default: 0)
    options.writeSurveyJS = !arguments.flags.contains("no-surveyjs")
    if let kinds = arguments.options["kinds"] {
        var parsed: [Kind] = []
        for name in kinds.split(separator: ",") {
            guard let kind = Kind(rawValue: String(name)) else {
                throw BenchError(
                    "unknown kind '\(name)'; use \(Kind.allCases.map(\.rawValue).joined(separator: ","))")
            }
            parsed.append(kind)
        }
        guard !parsed.isEmpty else { throw BenchError("--kinds needs at least one kind") }
        options.kinds = parsed
    }
    guard (1...10_000_000).contains(options.questions) else { throw BenchError("--questions must be 1…10,000,000") }
    guard options.perPage >= 1 else { throw BenchError("--per-page must be ≥ 1") }
    guard (0...1).contains(options.visibleDensity) else { throw BenchError("--visible-density must be 0…1") }
    guard let out = arguments.options["out"] else { throw BenchError("generate needs --out DIR") }

    let started = nowNs()
    let survey = GeneratedSurvey(options)
    do {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    } catch {
        throw BenchError("cannot create \(out): \(error)")
    }
    try writeText(survey.ourJSON(), to: out + "/survey.json")
    try writeText(survey.answersJSON(), to: out + "/answers.json")
    if options.writeSurveyJS {
        try writeText(survey.surveyJSJSON(), to: out + "/surveyjs.json")
        if !survey.surveyJSEquivalent {
            FileHandle.standardError.write(
                Data(
                    "note: surveyjs.json leaves out the \(options.jumps) jumps and \(options.calculated) calculated values; it is not the same survey\n"
                        .utf8))
        }
    }
    var meta = OrderedJSON()
    meta.set("questions", options.questions)
    meta.set("per_page", options.perPage)
    meta.set("pages", survey.pageCount)
    meta.set("seed", Int(options.seed))
    meta["kinds"] = .array(options.kinds.map { .string($0.rawValue) })
    meta.set("visible_density", options.visibleDensity)
    meta.set("chain_depth", options.chainDepth)
    meta.set("jumps", options.jumps)
    meta.set("calculated", options.calculated)
    meta.set("surveyjs_written", options.writeSurveyJS)
    meta.set("surveyjs_equivalent", survey.surveyJSEquivalent)
    meta.set("gen_ms", rounded(ms(nowNs() - started), 1))
    try writeText(meta.text + "\n", to: out + "/meta.json")
    print(meta.text)
}
