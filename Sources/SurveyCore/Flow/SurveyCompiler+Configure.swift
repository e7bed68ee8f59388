import Foundation

// Stage 3 of the compiler: each step's question type configured with its options. Surveys repeat
// the same options many times, so each distinct (type, options) is configured once and shared.

extension SurveyCompiler {
    struct ConfigurationKey: Hashable, Sendable {
        let typeID: String
        let options: JSONValue
    }

    /// A configured question, and whether its options give choices `visibleIf` conditions (so that
    /// its steps compile them).
    struct Configuration: Sendable {
        let question: ConfiguredQuestion
        let hasChoiceConditions: Bool
    }

    /// The pieces a survey's steps are configured and compiled in: one for a small survey, else
    /// ``Parallelism/pieceCount`` pieces of about equal size, in document order.
    struct StepPieces: Sendable {
        let count: Int
        let size: Int
        let stepCount: Int

        init(stepCount: Int, parallelism: Parallelism) {
            count = stepCount >= 4_096 ? parallelism.pieceCount : 1
            size = (stepCount + count - 1) / max(count, 1)
            self.stepCount = stepCount
        }

        /// The steps of piece `piece`.
        func range(_ piece: Int) -> Range<Int> { (piece * size)..<min(stepCount, (piece + 1) * size) }
    }

    /// Every step's configured question.
    struct ConfiguredSteps: Sendable {
        /// Each step's configured question (`nil` when its type or options are wrong).
        var questions: [ConfiguredQuestion?]
        /// Whether each step's options give choices `visibleIf` conditions.
        var choiceConditions: [Bool]
        /// The errors configuring a step's question gave, by step index (reported with the step's own).
        var errors: [Int: [SurveyError]] = [:]
    }

    /// What configuring one piece of the steps gives besides the questions written in place.
    private struct ConfiguredPiece: Sendable {
        var errors: [Int: [SurveyError]] = [:]
        var otherChoices: [Int: OtherChoices] = [:]
        /// The result of the task run alongside, in the piece that ran it.
        var stepIDs: StepIDs?
    }

    /// Configures the question of every step in `flatSteps`, in `pieces` on the compiler's threads,
    /// and notes the steps whose question has an Other choice (``otherChoices``) (stage 3).
    /// `alongside`, when given, runs as one more task beside the pieces, and its result is returned.
    mutating func configureQuestions(
        _ flatSteps: [FlatStep], pieces: StepPieces, alongside extra: (@Sendable () -> StepIDs)? = nil
    ) -> (configured: ConfiguredSteps, extra: StepIDs?) {
        let configuring = self
        var configured = ConfiguredSteps(
            questions: Array(repeating: nil, count: flatSteps.count),
            choiceConditions: Array(repeating: false, count: flatSteps.count))
        // Each step's question and flag are written where they go, by the piece that has the step: no
        // per-piece lists to merge (a million appends, each retaining a question the others share).
        // A survey in one piece is configured on this thread, the extra task too: handing two small
        // tasks to other threads costs more than they do (a small survey's load, many times a second
        // in a server or a fuzzer).
        let threads = pieces.count > 1 ? parallelism : .serial
        let results = configured.questions.withSharedSlots { questions in
            configured.choiceConditions.withSharedSlots { choiceConditions in
                threads.map(pieces.count + (extra == nil ? 0 : 1)) { task -> ConfiguredPiece in
                    // The extra task is handed out first: it is the longest.
                    var piece = task
                    if let extra {
                        if task == 0 { return ConfiguredPiece(stepIDs: extra()) }
                        piece -= 1
                    }
                    var compiler = configuring
                    var result = ConfiguredPiece()
                    let range = pieces.range(piece)
                    for index in range {
                        compiler.errors = []
                        let configuration = compiler.configure(flatSteps, at: index)
                        questions[index] = configuration?.question
                        choiceConditions[index] = configuration?.hasChoiceConditions ?? false
                        if !compiler.errors.isEmpty { result.errors[index] = compiler.errors }
                    }
                    result.otherChoices = Self.otherChoices(in: range) { questions[$0] }
                    return result
                }
            }
        }
        var stepIDs: StepIDs?
        for result in results {
            configured.errors.merge(result.errors) { first, _ in first }
            otherChoices.merge(result.otherChoices) { first, _ in first }
            if let ids = result.stepIDs { stepIDs = ids }
        }
        return (configured, stepIDs)
    }

    /// The steps in `indices` whose question (`question` gives it) offers an Other choice, with the
    /// values of its other choices. Questions configured once and shared (the same options) are looked
    /// at once. Each chunk of a large survey finds its own, on its own thread.
    static func otherChoices(in indices: Range<Int>, question: (Int) -> ConfiguredQuestion?) -> [Int: OtherChoices] {
        var result: [Int: OtherChoices] = [:]
        var seen: [ObjectIdentifier: OtherChoices?] = [:]
        // A survey has few configurations: the last few are looked for in a list before hashing.
        var recent: [(key: ObjectIdentifier, found: OtherChoices?)] = []
        for index in indices {
            guard let question = question(index) else { continue }
            let key = ObjectIdentifier(question.box)
            if let hit = recent.firstIndex(where: { $0.key == key }) {
                if let found = recent[hit].found { result[index] = found }
                continue
            }
            let found: OtherChoices?
            if let known = seen[key] {
                found = known
            } else {
                if let input = question.input(in: .english).choiceInput, input.choices.contains(where: \.isOther) {
                    found = OtherChoices(regular: Set(input.choices.filter { !$0.isOther }.map(\.value)))
                } else {
                    found = nil
                }
                seen[key] = found
            }
            if recent.count < 8 { recent.append((key, found)) }
            if let found { result[index] = found }
        }
        return result
    }

    mutating func configure(_ flatSteps: [FlatStep], at index: Int) -> Configuration? {
        // Read through the array: a copy of the step would retain each of its members.
        let typeID = flatSteps[index].definition.type
        let options = flatSteps[index].definition.options
        // Compared in place: iterating the entries copied each (three retains and releases).
        for position in recentConfigurations.indices
        where Self.identical(recentConfigurations[position].typeID, typeID)
            && Self.identical(recentConfigurations[position].options, options)
        {
            return recentConfigurations[position].configuration
        }
        guard let type = registry.type(withID: typeID) else {
            var message = "unknown question type '\(typeID)'"
            if typeID == StepDefinition.pageTypeID {
                message = "pages cannot be nested inside pages"
            } else {
                if let suggestion = closestMatch(
                    to: typeID, in: registry.typeIDs + [StepDefinition.pageTypeID])
                {
                    message += " (did you mean '\(suggestion)'?)"
                }
                message += "; registered types: \(registry.typeIDs.joined(separator: ", "))"
            }
            errors.append(
                SurveyError(
                    .unknownType, message, path: flatSteps[index].path.appending("type"),
                    stepID: flatSteps[index].definition.id))
            return nil
        }
        // Surveys repeat the same options (a 1–5 scale, a yes/no list) many times: configure each
        // distinct (type, options) once and share the immutable result.
        let key = ConfigurationKey(typeID: typeID, options: options)
        if let cached = configured[key] {
            remember(cached, typeID: typeID, options: options)
            return cached
        }
        do {
            let question = try type.configure(
                options: key.options, path: flatSteps[index].optionsPath, stepID: flatSteps[index].definition.id,
                registry: registry, functions: functions)
            let configuration = Configuration(
                question: question, hasChoiceConditions: options.containsMember(named: "visibleIf"))
            if configured.count < 4096 { configured[key] = configuration }
            remember(configuration, typeID: typeID, options: options)
            return configuration
        } catch {
            var located = error
            located.stepID = flatSteps[index].definition.id
            if located.kind == .invalidValue || located.kind == .missingField {
                located.kind = .invalidOptions
            }
            errors.append(located)
            return nil
        }
    }

    /// Keeps `configuration` among ``recentConfigurations``, in place of the oldest when they are full.
    mutating func remember(_ configuration: Configuration, typeID: String, options: JSONValue) {
        let entry = (typeID: typeID, options: options, configuration: configuration)
        if recentConfigurations.count < Self.recentConfigurationCount {
            recentConfigurations.append(entry)
        } else {
            recentConfigurations.removeFirst()
            recentConfigurations.append(entry)
        }
    }

    /// Whether two values have the same bit pattern, so certainly are equal (the same small string,
    /// or the same storage). Unequal bits say nothing: equal values may be stored apart.
    @inline(__always)
    static func identical<T>(_ a: T, _ b: T) -> Bool {
        // A word at a time (a byte-by-byte `elementsEqual` was about 300 instructions a step).
        withUnsafeBytes(of: a) { x in
            withUnsafeBytes(of: b) { y in
                let count = MemoryLayout<T>.size
                var offset = 0
                while offset + 8 <= count {
                    guard
                        x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            == y.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    else { return false }
                    offset += 8
                }
                while offset < count {
                    guard x[offset] == y[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }
}

extension JSONValue {
    /// Whether this value or any nested object has a member named `name`.
    func containsMember(named name: String) -> Bool {
        switch self {
        case .object(let members):
            return members[name] != nil || members.values.contains { $0.containsMember(named: name) }
        case .array(let elements):
            return elements.contains { $0.containsMember(named: name) }
        default:
            return false
        }
    }
}
