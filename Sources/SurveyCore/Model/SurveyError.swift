/// A problem with a survey definition, found while loading or compiling it.
///
/// Every error says what is wrong and where: the JSON path, the step id when there is one, and
/// (when the loader had the source text) the line and column. ``description`` is the one-line
/// message the CLI prints, as `FILE:LINE:COL: message`.
public struct SurveyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for programs that react to it.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The text is not valid JSON.
        case syntax
        /// The `formatVersion` is missing or not one this engine reads.
        case unsupportedFormatVersion
        /// A required member is missing.
        case missingField
        /// A member has the wrong type or an invalid value.
        case invalidValue
        /// A member is not part of the format (often a typo).
        case unknownField
        /// A step uses a question type id that is not registered.
        case unknownType
        /// Two steps, pages or calculated values share an id.
        case duplicateID
        /// An expression does not parse.
        case expressionSyntax
        /// An expression or jump names a step or value that does not exist.
        case unknownReference
        /// An expression calls a function that is not registered, or with the wrong arguments.
        case unknownFunction
        /// Expressions depend on each other in a cycle.
        case dependencyCycle
        /// A question type rejected its options.
        case invalidOptions
    }

    /// The kind of problem.
    public var kind: Kind
    /// A one-line message a person can act on (without the location prefix).
    public var message: String
    /// Where in the JSON document the problem is.
    public var path: JSONPath?
    /// The id of the step the problem belongs to, when there is one.
    public var stepID: String?
    /// The line and column in the source text, when known.
    public var position: SourcePosition?
    /// The file (or other source name) the survey came from, when known.
    public var file: String?

    public init(
        _ kind: Kind, _ message: String, path: JSONPath? = nil, stepID: String? = nil,
        position: SourcePosition? = nil, file: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.path = path
        self.stepID = stepID
        self.position = position
        self.file = file
    }

    /// `FILE:LINE:COL: message (at $.path, step 'id')`, leaving out what is unknown.
    public var description: String {
        var text = SourcePosition.messagePrefix(file: file, position: position) + message
        var context: [String] = []
        if let stepID, !message.contains("'\(stepID)'") { context.append("step '\(stepID)'") }
        if let path, !path.components.isEmpty { context.append("at \(path)") }
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        return text
    }
}

/// All the problems found in one survey definition.
public struct SurveyLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in document order where possible.
    public var errors: [SurveyError]

    public init(errors: [SurveyError]) {
        self.errors = errors
    }

    /// One problem per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// The longest word (in Unicode scalars) "did you mean" hints consider: the edit distance takes
/// time proportional to the product of the lengths, and real ids and names are far shorter.
package let maximumSuggestionLength = 64

/// Suggests the closest of `candidates` to a misspelt `word`, for "did you mean" hints.
///
/// Words and candidates longer than ``maximumSuggestionLength`` get no suggestion, and
/// candidates whose length alone puts them too far away are skipped without comparing.
package func closestMatch(to word: String, in candidates: some Sequence<String>) -> String? {
    guard word.unicodeScalars.count <= maximumSuggestionLength else { return nil }
    let lowered = word.lowercased()
    let length = lowered.unicodeScalars.count
    var best: (String, Int)?
    for candidate in candidates {
        guard candidate.utf8.count <= 4 * maximumSuggestionLength else { continue }
        let loweredCandidate = candidate.lowercased()
        let candidateLength = loweredCandidate.unicodeScalars.count
        let limit = max(2, candidate.count / 3)
        guard candidateLength <= maximumSuggestionLength, abs(candidateLength - length) <= limit else { continue }
        let distance = editDistance(lowered, loweredCandidate)
        if distance <= limit, best == nil || distance < best!.1 {
            best = (candidate, distance)
        }
    }
    return best?.0
}

package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
