extension JSONParser {
    /// A key given twice in one object of a document parsed with
    /// ``parseKeepingLastKey(_:)``: its name and where the later occurrence is.
    public struct RepeatedKey: Sendable, Hashable {
        /// The member name.
        public var key: String
        /// Where the occurrence whose value was kept (the last) starts.
        public var position: SourcePosition
    }

    /// Parses a complete JSON document as ``parse(_:)`` does, except that a key repeated in an object
    /// is no error: the last value is kept, as JavaScript's `JSON.parse` keeps it (for SurveyJS
    /// files, which survey-core reads so). This engine's own format stays strict (``parse(_:)``).
    ///
    /// ```swift
    /// let (value, repeated) = try JSONParser.parseKeepingLastKey(#"{"a": 1, "a": 2}"#)
    /// // value["a"] is 2; repeated[0].key is "a", at 1:10
    /// ```
    /// - Returns: the value and each repeated key, in the order the parser closed their objects.
    /// - Throws: ``JSONSyntaxError`` with the line and column of any other problem.
    public static func parseKeepingLastKey(_ text: String) throws(JSONSyntaxError) -> (
        value: JSONValue, repeated: [RepeatedKey]
    ) {
        var copy = text
        let result: Result<(JSONValue, [RepeatedKey]), JSONSyntaxError> = copy.withUTF8 { bytes in
            var parser = Parser(bytes: bytes)
            parser.keepsLastKey = true
            do throws(RawSyntaxError) {
                let value = try parser.parseDocument()
                let offsets = parser.repeatedKeys.map(\.offset)
                let positions = SourcePosition.of(offsets: offsets, in: bytes)
                let repeated = zip(parser.repeatedKeys, positions).map { RepeatedKey(key: $0.key, position: $1) }
                return .success((value, repeated))
            } catch {
                return .failure(JSONSyntaxError(message: error.message, position: .of(offset: error.offset, in: bytes)))
            }
        }
        return try result.get()
    }
}
