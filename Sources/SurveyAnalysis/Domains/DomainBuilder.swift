import Foundation
import SurveyCore

/// Builds an ``AnswerDomain`` from a question's input primitive and the literals expressions compare
/// it with; every candidate goes through the question type's `normalize` and only what it accepts
/// (in its normal form) is kept.
struct DomainBuilder {
    let normalize: (JSONValue) -> JSONValue?
    let isEmpty: (JSONValue) -> Bool

    /// Whether to add samples across the whole range (for values used in arithmetic or functions).
    var spreads = false
    /// Values to treat as compared with, besides the literals of `usages` (a `numeric` validator's bounds).
    var extraLiterals: [JSONValue] = []

    /// The most representatives one question gets.
    static let limit = RepresentativeSet.capacity

    mutating func domain(for input: InputPrimitive, usages: [ValueUsage]) -> AnswerDomain {
        var literals = Self.literals(in: usages)
        for literal in extraLiterals where !literals.contains(literal) { literals.append(literal) }
        // Used in arithmetic or functions: representatives are only samples there, so spread them.
        spreads = usages.contains { usage in
            switch usage {
            case .opaque, .length: return true
            default: return false
            }
        }
        switch input {
        case .none:
            return AnswerDomain(kind: .none, values: [.null], isEnumerated: true)
        case .boolean(let input):
            return finish(
                AnswerDomain(kind: .boolean, values: [.null], isEnumerated: true),
                [input.storedValue(true), input.storedValue(false)])
        case .number(let number):
            return numberDomain(number, literals: literals)
        case .freeText(let text):
            return textDomain(text, literals: literals, usages: usages)
        case .date(let date):
            return dateDomain(date, usages: usages, literals: literals)
        case .singleChoice(let choices):
            return singleChoiceDomain(choices, literals: literals)
        case .multipleChoice(let choices):
            return choices.isOrdered
                ? rankingDomain(choices) : multipleChoiceDomain(choices, usages: usages, literals: literals)
        case .composite(let composite):
            return compositeDomain(composite, usages: usages)
        case .fileReference(let file):
            return finish(
                AnswerDomain(kind: .file, values: [.null], isEnumerated: false), [file.sampleAnswer(name: "recording")])
        case .repeating:
            // What its instances hold is not analysed: one empty and one filled answer stand for it.
            return finish(
                AnswerDomain(kind: .composite, values: [.null], isEnumerated: false),
                Self.sampleValue(for: input).map { [$0] } ?? [])
        }
    }

    /// Normalises `candidates` and appends the distinct accepted answers (non-empty ones) to `domain`.
    func finish(_ domain: AnswerDomain, _ candidates: [JSONValue]) -> AnswerDomain {
        var result = domain
        var seen = Set(result.values)
        for candidate in candidates {
            guard let value = normalize(candidate), !value.isNull, !isEmpty(value), !seen.contains(value) else {
                continue
            }
            guard result.values.count < Self.limit else {
                result.isTruncated = true
                result.isEnumerated = false
                break
            }
            seen.insert(value)
            result.values.append(value)
        }
        return result
    }

    /// Every literal element compared with the whole value (array literals contribute their elements).
    static func literals(in usages: [ValueUsage]) -> [JSONValue] {
        var result: [JSONValue] = []
        var seen = Set<JSONValue>()
        for usage in usages {
            guard case .comparison(_, let literal) = usage else { continue }
            for element in literal.arrayValue ?? [literal] where seen.insert(element).inserted {
                result.append(element)
            }
        }
        return result
    }

    // MARK: Numbers

    mutating func numberDomain(_ input: NumberInput, literals: [JSONValue]) -> AnswerDomain {
        var step = input.step
        var origin = input.minimum ?? 0
        if input.isInteger, step == nil {
            step = 1
            origin = (input.minimum ?? 0).rounded(.up)
        }
        let decimals = max(Self.decimals(of: step ?? 1), Self.decimals(of: origin))
        func round(_ value: Double) -> Double {
            guard decimals < 12 else { return value }
            let scale = pow(10, Double(decimals))
            return (value * scale).rounded() / scale
        }
        var domain = AnswerDomain(kind: .number, values: [.null], isEnumerated: false)
        if let minimum = input.minimum, let maximum = input.maximum, let step, step > 0 {
            let count = Int(((maximum - origin) / step + 1e-9).rounded(.down)) + 1
            if count >= 0, count < Self.limit {
                let candidates = (0..<count).map { JSONValue.number(round(origin + Double($0) * step)) }
                domain = finish(domain, candidates)
                domain.isEnumerated = domain.values.count == count + 1
                if domain.isEnumerated || minimum > maximum { return domain }
                domain = AnswerDomain(kind: .number, values: [.null], isEnumerated: false)
            }
        }
        // Critical points: the literals compared with, and the bounds; one value at each and one in each gap.
        var critical = Set<Double>()
        for literal in literals {
            if let number = ExpressionValue.number(literal), number.isFinite { critical.insert(number) }
        }
        if let minimum = input.minimum { critical.insert(minimum) }
        if let maximum = input.maximum { critical.insert(maximum) }
        let points = critical.filter { point in
            (input.minimum.map { point >= $0 } ?? true) && (input.maximum.map { point <= $0 } ?? true)
        }.sorted()
        func gridPoint(above value: Double) -> Double {
            guard let step else { return value + 0.5 }
            let k = ((value - origin) / step + 1e-9).rounded(.down) + 1
            return round(origin + k * step)
        }
        func gridPoint(below value: Double) -> Double {
            guard let step else { return value - 0.5 }
            let k = ((value - origin) / step - 1e-9).rounded(.up) - 1
            return round(origin + k * step)
        }
        var candidates: [JSONValue] = []
        var gaps: [(Double?, Double?)] = []
        if points.isEmpty {
            candidates.append(.number(round(origin)))
        } else {
            for point in points { candidates.append(.number(point)) }
            if input.minimum == nil { gaps.append((nil, points[0])) }
            for (a, b) in zip(points, points.dropFirst()) { gaps.append((a, b)) }
            if input.maximum == nil { gaps.append((points[points.count - 1], nil)) }
        }
        var covered = true
        for (low, high) in gaps {
            let candidate: Double
            switch (low, high) {
            case (let a?, let b?):
                candidate = step == nil ? (a + b) / 2 : gridPoint(above: a)
                if candidate >= b { continue }  // no answer in the gap
            case (let a?, nil): candidate = gridPoint(above: a)
            case (nil, let b?): candidate = gridPoint(below: b)
            case (nil, nil): continue
            }
            guard normalize(.number(candidate)) == .number(candidate) else {
                // A point in the gap that the type refuses: the gap may hold answers we did not find.
                covered = false
                continue
            }
            candidates.append(.number(candidate))
        }
        if spreads {
            let low = input.minimum ?? -10
            let high = input.maximum ?? 1000
            for value in [low, high, (low + high) / 2, 1, 2, 3, 5, 10, 18, 50, 100, 1000, -1]
            where value >= low && value <= high {
                let point = step == nil ? value : gridPoint(above: value - (step ?? 1))
                if point >= low && point <= high { candidates.append(.number(point)) }
            }
        }
        domain = finish(domain, candidates)
        if !covered { domain.isTruncated = true }
        return domain
    }

    static func decimals(of value: Double) -> Int {
        let text = JSONValue.format(number: value)
        guard let dot = text.firstIndex(of: "."), !text.contains("e") else { return 0 }
        return text.distance(from: dot, to: text.endIndex) - 1
    }

    // MARK: Text

    mutating func textDomain(_ input: TextInput, literals: [JSONValue], usages: [ValueUsage] = []) -> AnswerDomain {
        var candidates: [JSONValue] = []
        for literal in literals {
            switch literal {
            case .string: candidates.append(literal)
            case .number(let number): candidates.append(.string(JSONValue.format(number: number)))
            case .bool(let flag): candidates.append(.string(flag ? "true" : "false"))
            default: break
            }
        }
        // `{age} > 15` on a text answer compares a number written as text: try one on each side.
        for usage in usages {
            guard case .comparison(let op, let literal) = usage, op.isOrdering else { continue }
            candidates += Self.numbersEitherSide(of: literal).map { .string(JSONValue.format(number: $0)) }
        }
        var domain = finish(AnswerDomain(kind: .text, values: [.null], isEnumerated: false), candidates)
        domain = addFresh(to: domain, candidates: Self.freshTexts(for: input), literals: literals)
        if spreads {
            domain = finish(
                domain, ["a", "hello world", "12345", "true", .string(String(repeating: "long text ", count: 20))])
        }
        return domain
    }

    /// The numbers just below and above `literal` (a number, or a text that reads as one), for an
    /// ordering comparison with it; none when it is no finite number.
    static func numbersEitherSide(of literal: JSONValue) -> [Double] {
        let bound: Double? =
            switch literal {
            case .number(let number): number
            case .string(let text): Double(text)
            default: nil
            }
        guard let bound, bound.isFinite else { return [] }
        return [bound - 1, bound + 1]
    }

    static func freshTexts(for input: TextInput) -> [JSONValue] {
        let length = max(input.minimumLength ?? 1, 1)
        var texts: [String] = []
        // A text the field's pattern matches first (a multiple text's item `regex`).
        if let pattern = input.pattern,
            let text = RegexSample.text(matching: pattern, caseInsensitive: input.patternIgnoresCase)
        {
            texts.append(text)
        }
        switch input.presentation {
        case "email": texts.append("someone@example.com")
        case "phone": texts.append("+1 202 555 0143")
        case "url": texts.append("https://example.com")
        default: break
        }
        texts += [
            String(repeating: "x", count: length), "Alex", "someone@example.com", "12345", "https://example.com",
            "+1 202 555 0143", "2000-01-01", "Example answer",
            // The formats of the text input types (time, month, week, datetime-local, color).
            "09:30", "2026-01", "2026-W01", "2026-01-01T09:30", "#336699",
        ]
        // A pattern mask's placeholder is its pattern: 9 a digit, a a letter, # either.
        if let placeholder = input.placeholder, placeholder.contains(where: { $0 == "9" || $0 == "#" }) {
            texts.append(
                String(placeholder.map { $0 == "9" || $0 == "#" ? "1" : $0 }))
        }
        if let maximum = input.maximumLength { texts = texts.filter { $0.count <= maximum } + ["x"] }
        return texts.map { .string($0) }
    }

    /// Adds the first candidate that the type accepts and that equals none of `literals`.
    func addFresh(to domain: AnswerDomain, candidates: [JSONValue], literals: [JSONValue]) -> AnswerDomain {
        var result = domain
        for candidate in candidates {
            guard let value = normalize(candidate), !value.isNull, !isEmpty(value) else { continue }
            if literals.contains(where: { ExpressionValue.equals(value, $0) }) { continue }
            result = finish(result, [value])
            result.hasFreshValue = true
            return result
        }
        result.hasFreshValue = false
        return result
    }

    // MARK: Dates

    mutating func dateDomain(_ input: DateInput, usages: [ValueUsage], literals: [JSONValue]) -> AnswerDomain {
        var domain = AnswerDomain(kind: .date, values: [.null], isEnumerated: false)
        var critical = Set<Int>()
        for usage in usages {
            guard case .comparison(let op, let literal) = usage, op.isOrdering else { continue }
            if let text = literal.stringValue, let day = Self.day(text) {
                critical.insert(day)
            } else {
                domain.coversOrdering = false
            }
        }
        for literal in literals { if let text = literal.stringValue, let day = Self.day(text) { critical.insert(day) } }
        if let earliest = input.earliest.flatMap(Self.day) { critical.insert(earliest) }
        if let latest = input.latest.flatMap(Self.day) { critical.insert(latest) }
        if critical.isEmpty { critical.insert(Self.day("2000-01-01") ?? 10957) }
        var days = Set<Int>()
        for day in critical { days.formUnion([day - 1, day, day + 1]) }
        let candidates = days.sorted().map { JSONValue.string(CivilDate(daysSinceEpoch: $0).description) }
        domain = finish(domain, candidates)
        domain.hasFreshValue = domain.values.dropFirst().contains { value in
            !literals.contains { ExpressionValue.equals(value, $0) }
        }
        return domain
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date.
    static func day(_ text: String) -> Int? {
        guard text.utf8.count == 10, let date = CivilDate(text) else { return nil }
        // Howard Hinnant's days_from_civil.
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let monthIndex = date.month > 2 ? date.month - 3 : date.month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + date.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: Choices

    /// Choice values that some literal equals (loosely, as expressions compare).
    static func mentioned(_ values: [String], literals: [JSONValue]) -> Set<String> {
        Set(values.filter { value in literals.contains { ExpressionValue.equals(.string(value), $0) } })
    }

    /// Other texts: literals the type stores as an Other answer, and one fresh text.
    /// Other texts to try: the literals conditions mention that are no choice, and one fresh text.
    /// `inList`: the question takes a list of choices (the text is tried as a one-element list).
    func otherTexts(literals: [JSONValue], choices: [String], inList: Bool = false) -> (texts: [String], hasFresh: Bool)
    {
        func accepted(_ text: String) -> String? {
            inList
                ? normalize(.array([.string(text)]))?.arrayValue?.first?.stringValue
                : normalize(.string(text))?.stringValue
        }
        var texts: [String] = []
        for literal in literals {
            guard let text = literal.stringValue, !choices.contains(text) else { continue }
            if let value = accepted(text), !choices.contains(value), !texts.contains(value) {
                texts.append(value)
            }
        }
        for candidate in ["Something else", "Another answer", "Not listed here"] {
            guard let value = accepted(candidate), !choices.contains(value) else { continue }
            if literals.contains(where: { ExpressionValue.equals(.string(value), $0) }) { continue }
            return (texts + [value], true)
        }
        return (texts, false)
    }

    mutating func singleChoiceDomain(_ input: ChoiceInput, literals: [JSONValue]) -> AnswerDomain {
        let values = input.choices.filter { !$0.isOther }.map(\.value)
        let hasOther = input.choices.contains { $0.isOther }
        var domain = AnswerDomain(kind: .singleChoice, values: [.null], isEnumerated: false)
        domain.choiceValues = values
        domain.hasOther = hasOther
        var candidates: [String]
        if values.count < Self.limit - 8 {
            candidates = values
        } else {
            let mentioned = Self.mentioned(values, literals: literals)
            candidates = values.filter { mentioned.contains($0) }
            if let unmentioned = values.first(where: { !mentioned.contains($0) }) { candidates.append(unmentioned) }
        }
        var hasFresh = true
        if hasOther {
            let other = otherTexts(literals: literals, choices: values)
            candidates += other.texts
            hasFresh = other.hasFresh
        }
        domain = finish(domain, candidates.map { .string($0) })
        domain.hasFreshValue = hasFresh
        domain.isEnumerated = !hasOther && values.count < Self.limit - 8 && domain.values.count == values.count + 1
        if hasOther && !hasFresh { domain.isTruncated = true }
        return domain
    }

    mutating func multipleChoiceDomain(
        _ input: ChoiceInput, usages: [ValueUsage], literals: [JSONValue]
    ) -> AnswerDomain {
        let values = input.choices.filter { !$0.isOther }.map(\.value)
        let hasOther = input.choices.contains { $0.isOther }
        var domain = AnswerDomain(kind: .multipleChoice, values: [.null], isEnumerated: false)
        domain.choiceValues = values
        domain.hasOther = hasOther
        var otherVariants: [String?] = [nil]
        if hasOther {
            let other = otherTexts(literals: literals, choices: values, inList: true)
            otherVariants += other.texts.map { Optional($0) }
            if !other.hasFresh { domain.isTruncated = true }
        }
        var subsets: [[String]] = []
        if values.count <= 12, (1 << values.count) * otherVariants.count <= Self.limit {
            for mask in 0..<(1 << values.count) {
                subsets.append(values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] })
            }
            domain.coversCounts = true
        } else {
            let mentionedSet = Self.mentioned(values, literals: literals)
            let mentioned = values.filter { mentionedSet.contains($0) }
            let unmentioned = values.filter { !mentioned.contains($0) }
            guard mentioned.count <= 6 else {
                // Too many to combine: samples with each choice alone, every number of choices and
                // each choice left out stand for it (conditions reading each choice or a count).
                domain.isTruncated = true
                domain.coversCounts = false
                var samples = values.map { [$0] }
                samples += (2..<max(values.count, 2)).map { Array(values.prefix($0)) }
                samples += values.indices.map { left in values.indices.filter { $0 != left }.map { values[$0] } }
                samples.append(values)
                return finish(domain, samples.map { .array($0.map { .string($0) }) })
            }
            var counts = Array(0...unmentioned.count)
            if (1 << mentioned.count) * counts.count * otherVariants.count >= Self.limit {
                counts = Array(counts.prefix(2))
                domain.coversCounts = false
            }
            for mask in 0..<(1 << mentioned.count) {
                let picked = mentioned.indices.filter { mask & (1 << $0) != 0 }.map { mentioned[$0] }
                for count in counts { subsets.append(picked + unmentioned.prefix(count)) }
            }
        }
        var candidates: [JSONValue] = []
        for subset in subsets {
            for other in otherVariants {
                let elements = subset + (other.map { [$0] } ?? [])
                if !elements.isEmpty { candidates.append(.array(elements.map { .string($0) })) }
            }
        }
        let expected = candidates.count
        domain = finish(domain, candidates)
        // Every subset the type accepts is there (minimum and maximum selections filter some out).
        domain.isEnumerated =
            !hasOther && domain.coversCounts && subsets.count == 1 << values.count
            && !domain.isTruncated && expected <= Self.limit
        return domain
    }

    mutating func rankingDomain(_ input: ChoiceInput) -> AnswerDomain {
        let values = input.choices.map(\.value)
        var domain = AnswerDomain(kind: .ranking, values: [.null], isEnumerated: false)
        domain.choiceValues = values
        var permutations: [[String]] = []
        if values.count <= 5 {
            func permute(_ prefix: [String], _ rest: [String]) {
                if rest.isEmpty { return permutations.append(prefix) }
                for (index, value) in rest.enumerated() {
                    var remaining = rest
                    remaining.remove(at: index)
                    permute(prefix + [value], remaining)
                }
            }
            permute([], values)
        } else {
            permutations = [values, values.reversed()]
        }
        domain = finish(domain, permutations.map { .array($0.map { .string($0) }) })
        domain.isEnumerated = values.count <= 5 && domain.values.count == permutations.count + 1
        return domain
    }

    // MARK: Forms and matrices

    mutating func compositeDomain(_ input: CompositeInput, usages: [ValueUsage]) -> AnswerDomain {
        var domain = AnswerDomain(kind: .composite, values: [.null], isEnumerated: false)
        domain.fieldNames = input.fields.map(\.name)
        var fieldUsages: [String: [ValueUsage]] = [:]
        for usage in usages {
            if case .member(let field, let inner) = usage { fieldUsages[field, default: []].append(inner) }
        }
        // Each field read by an expression gets its own representatives (without normalisation: only the
        // whole answer can be normalised); other fields are either all absent or one of them filled.
        var fieldCandidates: [(name: String, values: [JSONValue?])] = []
        for field in input.fields where fieldUsages[field.name] != nil {
            var fieldBuilder = DomainBuilder(normalize: { $0 }, isEmpty: { $0.isEmptyAnswer })
            let fieldDomain = fieldBuilder.domain(for: field.input, usages: fieldUsages[field.name] ?? [])
            domain.fieldDomains[field.name] = fieldDomain
            fieldCandidates.append((field.name, [nil] + fieldDomain.values.dropFirst().map { Optional($0) }))
        }
        let others = input.fields.filter { fieldUsages[$0.name] == nil }
        var otherVariants: [[String: JSONValue]] = [[:]]
        var filled: [String: JSONValue] = [:]
        for field in others {
            if let value = Self.sampleValue(for: field.input) { filled[field.name] = value }
        }
        if !filled.isEmpty { otherVariants.append(filled) }
        // First the answers conditions over several fields need whatever their number (the product
        // below is cut short when there are many): every read field filled, with each of a field's
        // values in turn, and each field's values alone.
        var objects: [[String: JSONValue]] = []
        for other in otherVariants.reversed() {
            var full = other
            for (name, values) in fieldCandidates {
                if let first = values.compactMap({ $0 }).first { full[name] = first }
            }
            objects.append(full)
            for (name, values) in fieldCandidates {
                for value in values.compactMap({ $0 }) {
                    var varied = full
                    varied[name] = value
                    objects.append(varied)
                    var alone = other
                    alone[name] = value
                    objects.append(alone)
                }
            }
        }
        var product: [[String: JSONValue]] = otherVariants
        for (name, values) in fieldCandidates {
            var next: [[String: JSONValue]] = []
            for object in product {
                for value in values {
                    var copy = object
                    if let value { copy[name] = value }
                    next.append(copy)
                }
                if next.count > 4 * Self.limit { break }
            }
            product = next
            if product.count > 4 * Self.limit {
                domain.isTruncated = true
                break
            }
        }
        domain = finish(domain, (objects + product).map { JSONValue.object($0) })
        // A field's representatives only count if some accepted answer still has each of them.
        for (name, fieldDomain) in domain.fieldDomains {
            let kept = Set(domain.values.compactMap { $0.objectValue?[name] })
            let wanted = fieldDomain.values.dropFirst().filter { !kept.contains($0) }
            if !wanted.isEmpty { domain.fieldDomains[name]?.isTruncated = true }
        }
        return domain
    }

    /// An answer for a form field that its type accepts, for filling fields no expression reads.
    static func sampleValue(for input: InputPrimitive) -> JSONValue? {
        switch input {
        case .freeText(let text): return freshTexts(for: text).first
        case .singleChoice(let choices): return choices.choices.first(where: { !$0.isOther }).map { .string($0.value) }
        case .number(let number): return .number(number.minimum ?? 1)
        case .boolean(let input): return input.storedValue(true)
        case .date: return .string("2000-01-01")
        case .multipleChoice(let choices):
            return choices.choices.first(where: { !$0.isOther && !$0.isExclusive }).map { .array([.string($0.value)]) }
        case .composite(let composite):
            // A row of cells (a matrix of questions' row, a form): every field filled.
            var object: [String: JSONValue] = [:]
            for field in composite.fields {
                if let value = sampleValue(for: field.input) { object[field.name] = value }
            }
            return object.isEmpty ? nil : .object(object)
        case .repeating(let group):
            var instance: [String: JSONValue] = [:]
            for field in group.fields {
                if let value = sampleValue(for: field.input) { instance[field.name] = value }
            }
            return .array(Array(repeating: .object(instance), count: group.count ?? max(group.minimumCount, 1)))
        default: return nil
        }
    }
}
