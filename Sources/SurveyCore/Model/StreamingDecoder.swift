/// Decodes a survey file without building a JSON object for every step: the top-level object is
/// read member by member, and each step's members go straight into a ``StepBuilder`` (the same
/// rules the tree-based decoder uses). On surveys with a million steps this avoids creating and
/// then freeing a million dictionaries.
struct StreamedSurvey {
    /// The top-level members other than `steps`.
    var root: JSONValue
    /// The decoded steps, or `nil` when `steps` was absent or not an array (left in ``root``).
    var steps: (steps: [StepDefinition], count: Int)?
    var sourceMap: SourceMap?
    var errors: [SurveyError] = []
}

extension Parser {
    /// Streams a survey document; `nil` when the document is not an object (the caller then uses
    /// the general decoder, which reports it).
    mutating func parseSurvey() throws(RawSyntaxError) -> StreamedSurvey? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        var root: [String: JSONValue] = [:]
        var result = StreamedSurvey(root: .null)
        try parseMembers { (parser, key, keyOffset) throws(RawSyntaxError) in
            if key == "steps", parser.peek() == UInt8(ascii: "[") {
                guard result.steps == nil, root["steps"] == nil else {
                    throw RawSyntaxError(message: "duplicate member name \"steps\"", offset: keyOffset)
                }
                var map = SourceMap()
                var dropped = false
                var steps: [StepDefinition] = []
                let count = try parser.parseArrayElements { (parser, index) throws(RawSyntaxError) in
                    let location = StepLocation(unit: index, child: -1)
                    let decoded = try parser.parseStep(at: location, allowsPages: true, errors: &result.errors)
                    guard let step = decoded.step else {
                        dropped = true
                        return
                    }
                    if decoded.droppedChildren { dropped = true }
                    map.add(decoded, unit: index)
                    steps.append(step)
                }
                result.steps = (steps, count)
                if dropped { result.sourceMap = map }
            } else {
                let value = try parser.parseValue()
                if root.updateValue(value, forKey: key) != nil || (key == "steps" && result.steps != nil) {
                    throw RawSyntaxError(message: "duplicate member name \"\(key)\"", offset: keyOffset)
                }
            }
        }
        skipWhitespace()
        if index < bytes.count {
            throw RawSyntaxError(
                message: "unexpected \(describe(bytes[index])) after the end of the document", offset: index)
        }
        result.root = .object(root)
        return result
    }

    func peek() -> UInt8? {
        var position = index
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return bytes[position]
            }
        }
        return nil
    }

    /// Reads one step object (or reports a non-object) into a builder.
    mutating func parseStep(at location: StepLocation, allowsPages: Bool, errors: inout [SurveyError])
        throws(RawSyntaxError) -> DecodedStep
    {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            let value = try parseValue()
            errors.append(
                SurveyError(
                    .invalidValue, "a step must be a JSON object, got \(value.kindDescription)", path: location.path))
            return DecodedStep()
        }
        var builder = StepBuilder(location: location, allowsPages: allowsPages)
        var seen: [String] = []
        try parseMembers { (parser, key, keyOffset) throws(RawSyntaxError) in
            if seen.contains(key) {
                throw RawSyntaxError(message: "duplicate member name \"\(key)\"", offset: keyOffset)
            }
            seen.append(key)
            if key == "steps", allowsPages, parser.peek() == UInt8(ascii: "[") {
                var children: [(child: DecodedStep, index: Int)] = []
                var childErrors: [SurveyError] = []
                let count = try parser.parseArrayElements { (parser, index) throws(RawSyntaxError) in
                    let decoded = try parser.parseStep(
                        at: location.child(index), allowsPages: false, errors: &childErrors)
                    children.append((decoded, index))
                }
                builder.setChildren(children, count: count, errors: childErrors)
            } else {
                builder.apply(key, try parser.parseValue())
            }
        }
        let step = builder.finish(into: &errors)
        var decoded = builder.decoded
        decoded.step = step
        return decoded
    }
}

extension JSONParser {
    /// Streams a survey document (see ``StreamedSurvey``); `nil` when it is not a JSON object.
    static func parseSurvey(bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> StreamedSurvey? {
        var parser = Parser(bytes: bytes)
        do {
            return try parser.parseSurvey()
        } catch {
            throw JSONSyntaxError(message: error.message, position: .of(offset: error.offset, in: bytes))
        }
    }
}
