import SurveyCore

extension SurveyJSConversion {
    /// Adds a ``ImportNote/Kind/repeatedKey`` note for each key `repeated` in an object of the
    /// SurveyJS text (its last value was used, as survey-core's `JSON.parse` uses it), keeping the
    /// notes in the order of the file.
    mutating func noteRepeatedKeys(_ repeated: [JSONParser.RepeatedKey], file: String?) {
        guard !repeated.isEmpty else { return }
        for key in repeated {
            notes.append(
                ImportNote(
                    .repeatedKey, path: .root, what: "'\(key.key)' given twice in one object",
                    why: "the last value is used, as survey-core (JavaScript's JSON.parse) uses it",
                    position: key.position, file: file))
        }
        notes = notes.enumerated().sorted { a, b in
            let left = a.element.position.map { ($0.line, $0.column) } ?? (Int.max, a.offset)
            let right = b.element.position.map { ($0.line, $0.column) } ?? (Int.max, b.offset)
            return left != right ? left < right : a.offset < b.offset
        }.map(\.element)
    }
}
