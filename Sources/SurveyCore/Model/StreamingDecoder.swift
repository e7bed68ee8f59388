import Foundation

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
    /// - Parameters:
    ///   - parallelism: the threads a large top-level `steps` array is parsed on.
    ///   - stepChunks: how many pieces such an array is cut into (see
    ///     ``parseTopLevelSteps(parallelism:chunks:)``).
    mutating func parseSurvey(parallelism: Parallelism = .serial, stepChunks: Int? = nil) throws(RawSyntaxError)
        -> StreamedSurvey?
    {
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
                let (run, count) = try parser.parseTopLevelSteps(parallelism: parallelism, chunks: stepChunks)
                result.errors += run.errors
                result.steps = (run.steps, count)
                if run.dropped { result.sourceMap = run.map }
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
        // The members met so far: a bit for each member a step may have, names for the others.
        var seen: UInt32 = 0
        var seenOthers: [String] = []
        try parseMembers(key: { (parser) throws(RawSyntaxError) in try parser.parseStepKey() }, named: \.name) {
            (parser, key, keyOffset) throws(RawSyntaxError) in
            let member: StepMember
            switch key {
            case .member(let known):
                if seen & known.bit != 0 {
                    throw RawSyntaxError(message: "duplicate member name \"\(known.name)\"", offset: keyOffset)
                }
                seen |= known.bit
                member = known
            case .other(let name):
                if seenOthers.contains(name) {
                    throw RawSyntaxError(message: "duplicate member name \"\(name)\"", offset: keyOffset)
                }
                seenOthers.append(name)
                _ = try parser.parseValue()
                return builder.applyUnknown(name)
            }
            if member == .steps, allowsPages, parser.peek() == UInt8(ascii: "[") {
                var children: [(child: DecodedStep, index: Int)] = []
                // Room for a page of usual size at once: growing by doubling moved its children four times.
                children.reserveCapacity(16)
                var childErrors: [SurveyError] = []
                let count = try parser.parseArrayElements { (parser, index) throws(RawSyntaxError) in
                    // Appended as it is made: a named copy would be copied into the array, then destroyed.
                    children.append(
                        (
                            try parser.parseStep(at: location.child(index), allowsPages: false, errors: &childErrors),
                            index
                        ))
                }
                builder.setChildren(&children, count: count, errors: childErrors)
            } else if member == .options {
                builder.apply(member, try parser.parseSharedValue())
            } else if member == .type {
                builder.apply(member, try parser.parseRepeatedString())
            } else {
                builder.apply(member, try parser.parseValue())
            }
        }
        return builder.finishDecoded(into: &errors)
    }
}

extension Parser {
    /// Reads a step member's name (at its opening quote): the member, matched straight from the
    /// bytes when the name has no escapes.
    mutating func parseStepKey() throws(RawSyntaxError) -> StepKey {
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                guard let member = StepMember(utf8: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])) else {
                    break
                }
                index = end + 1
                return .member(member)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        // Another name, or one with escapes (which may still spell a member's name).
        let name = try parseString()
        return StepMember(name: name).map { .member($0) } ?? .other(name)
    }
}

/// Small objects and arrays a parser has read, by their exact text, so that a survey repeating the
/// same `options` (a 1–5 scale, the same four choices) on thousands of steps holds one copy of them:
/// at 100,000 steps that is some 180 bytes a step and two allocations fewer.
///
/// The keys point into the parser's own bytes, which outlive it.
struct ValuePool {
    /// The text of a value, compared byte for byte.
    struct Text: Hashable {
        let bytes: UnsafeRawBufferPointer

        static func == (lhs: Text, rhs: Text) -> Bool {
            lhs.bytes.count == rhs.bytes.count
                && (lhs.bytes.count == 0
                    || memcmp(lhs.bytes.baseAddress!, rhs.bytes.baseAddress!, lhs.bytes.count) == 0)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
    }

    /// Values longer than this, or nested deeper than ``maximumNesting``, are not pooled: the pool is
    /// for the small, repeated option sets, and a shallow value parses alike at any depth.
    static let maximumLength = 4096
    static let maximumNesting = 8
    static let maximumEntries = 1024

    var values: [Text: JSONValue] = [:]
    /// The last few values found or added, compared byte for byte before the dictionary is asked:
    /// a survey repeats a handful of option sets, and hashing the text (SipHash over each byte) cost
    /// more than parsing the rest of the step's members.
    private var recent: [Entry] = []
    private var nextRecent = 0
    static let recentCount = 4

    private struct Entry {
        let text: Text
        let value: JSONValue
    }

    /// The value of one of the last few pooled texts that the bytes at `start` begin with, and where
    /// it ends. A pooled text is a whole object or array, so bytes that begin with it hold that very
    /// value: no scan for the value's end is needed (the common case, a survey repeating its options).
    func recentValue(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (value: JSONValue, end: Int)? {
        guard let base = bytes.baseAddress else { return nil }
        // By position: iterating the entries would copy (retain) each value.
        for position in recent.indices {
            let text = recent[position].text.bytes
            guard text.count > 0, text.count <= bytes.count - start, let other = text.baseAddress,
                memcmp(base + start, other, text.count) == 0
            else { continue }
            return (recent[position].value, start + text.count)
        }
        return nil
    }

    /// The value pooled for `text`, if any, from the dictionary: the recent values are looked
    /// through first, by ``recentValue(in:at:)``.
    mutating func value(for text: Text) -> JSONValue? {
        guard let value = values[text] else { return nil }
        remember(text, value)
        return value
    }

    /// Pools `value` (the parse of `text`) while there is room.
    mutating func add(_ text: Text, _ value: JSONValue) {
        guard values.count < Self.maximumEntries else { return }
        values[text] = value
        remember(text, value)
    }

    /// Strings met again and again (see ``Parser/parseRepeatedString()``): their text in the parser's
    /// bytes (between the quotes) and the value.
    private(set) var recentStrings: [(text: UnsafeRawBufferPointer, value: JSONValue)] = []
    static let recentStringCount = 8

    /// Keeps `value`, a string written as `text`, among ``recentStrings`` while there is room.
    mutating func rememberString(_ text: UnsafeRawBufferPointer, _ value: JSONValue) {
        guard recentStrings.count < Self.recentStringCount, !text.isEmpty else { return }
        recentStrings.append((text, value))
    }

    private mutating func remember(_ text: Text, _ value: JSONValue) {
        if recent.count < Self.recentCount {
            recent.append(Entry(text: text, value: value))
        } else {
            recent[nextRecent] = Entry(text: text, value: value)
            nextRecent = (nextRecent + 1) % Self.recentCount
        }
    }

    /// Where the object or array starting at `start` ends (one past its closing bracket), by
    /// counting brackets outside strings; `nil` when it is not a short, shallow, closed value.
    /// Only a candidate: the text is pooled only after the parser has read exactly this far.
    static func end(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let limit = min(bytes.count, start + maximumLength)
        var depth = 0
        var position = start
        while position < limit {
            switch bytes[position] {
            case UInt8(ascii: "\""): position = StepChunks.closingQuote(in: bytes, after: position, limit: limit)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maximumNesting { return nil }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return position + 1 }
            default: break
            }
            position += 1
        }
        return nil
    }
}

extension Parser {
    /// Parses a value that is usually one of a few strings met again and again (a step's `type`): the
    /// last few such strings written without escapes are compared byte for byte first, and one that
    /// matches is given again without making a string.
    mutating func parseRepeatedString() throws(RawSyntaxError) -> JSONValue {
        skipWhitespace()
        guard targets == nil, index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress
        else { return try parseValue() }
        let contentStart = index + 1
        for position in pool.recentStrings.indices {
            let text = pool.recentStrings[position].text
            guard let other = text.baseAddress, contentStart + text.count < bytes.count,
                bytes[contentStart + text.count] == UInt8(ascii: "\""),
                memcmp(base + contentStart, other, text.count) == 0
            else { continue }
            index = contentStart + text.count + 1
            return pool.recentStrings[position].value
        }
        let value = try parseValue()
        // Kept only when written without escapes: the text between the quotes is then the string.
        if case .string(let string) = value, index - contentStart - 1 == string.utf8.count {
            pool.rememberString(
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[contentStart..<(index - 1)])), value)
        }
        return value
    }

    /// Parses a value, sharing it with earlier values of the same text (see ``ValuePool``).
    mutating func parseSharedValue() throws(RawSyntaxError) -> JSONValue {
        skipWhitespace()
        guard targets == nil, index < bytes.count,
            bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")
        else { return try parseValue() }
        if let (shared, end) = pool.recentValue(in: bytes, at: index) {
            index = end
            return shared
        }
        guard let end = ValuePool.end(of: bytes, from: index) else { return try parseValue() }
        let text = ValuePool.Text(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[index..<end])))
        if let shared = pool.value(for: text) {
            index = end
            return shared
        }
        let value = try parseValue()
        // Pooled only when the parser read exactly the candidate text: the key is then a whole,
        // valid value, and equal bytes later are that same value.
        if index == end { pool.add(text, value) }
        return value
    }
}

/// What parsing a run of a survey's top-level steps gives: the steps that decoded, in order, with
/// the problems met and where each step came from.
struct StepRun {
    var steps: [StepDefinition] = []
    var map = SourceMap()
    var errors: [SurveyError] = []
    /// Whether a step (or a page's child) with problems was left out.
    var dropped = false

    mutating func add(_ decoded: DecodedStep, unit: Int) {
        guard let step = decoded.step else {
            dropped = true
            return
        }
        if decoded.droppedChildren { dropped = true }
        map.add(decoded, unit: unit)
        steps.append(step)
    }

    /// The run that follows this one in the document.
    mutating func append(_ next: StepRun) {
        if steps.isEmpty { steps = next.steps } else { steps += next.steps }
        map.append(next.map)
        errors += next.errors
        dropped = dropped || next.dropped
    }
}

/// A top-level `steps` array cut at element boundaries into chunks of about equal size, each parsed
/// by its own parser on its own thread (see ``Parser/parseTopLevelSteps()``).
struct StepChunks {
    struct Chunk {
        /// The offset of the chunk's first element (or the whitespace before it).
        var start: Int
        /// The offset of the `,` or `]` after its last element.
        var end: Int
        /// The index in `steps` of its first element.
        var firstUnit: Int
        var count: Int
    }

    var chunks: [Chunk]
    /// The offset of the array's `]`.
    var end: Int

    /// Arrays smaller than this are parsed in one piece: cutting costs a pass over the bytes.
    static let minimumBytes = 1 << 20

    /// Finds the array's elements by its structure alone (brackets and braces outside strings):
    /// `nil` when the array at `start` (its `[`) is empty, smaller than ``minimumBytes``, or ends
    /// early or unbalanced. The parsers check everything else.
    init?(bytes: UnsafeBufferPointer<UInt8>, arrayAt start: Int, chunkCount: Int) {
        guard chunkCount > 1, bytes.count - start >= Self.minimumBytes else { return nil }
        var separators: [Int] = []
        var depth = 0
        var position = start + 1
        var end: Int?
        scan: while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""): position = Self.closingQuote(in: bytes, after: position, limit: bytes.count)
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {
                    guard byte == UInt8(ascii: "]") else { return nil }
                    end = position
                    break scan
                }
                depth -= 1
            case UInt8(ascii: ","): if depth == 0 { separators.append(position) }
            default: break
            }
            position += 1
        }
        guard let end, end - start >= Self.minimumBytes, !separators.isEmpty else { return nil }
        self.end = end
        // Cut after the separator that passes each multiple of the chunk size.
        let size = (end - start) / chunkCount + 1
        var chunks: [Chunk] = []
        var chunkStart = start + 1
        var firstUnit = 0
        for (index, separator) in separators.enumerated() where separator - chunkStart >= size {
            chunks.append(Chunk(start: chunkStart, end: separator, firstUnit: firstUnit, count: index + 1 - firstUnit))
            chunkStart = separator + 1
            firstUnit = index + 1
        }
        chunks.append(Chunk(start: chunkStart, end: end, firstUnit: firstUnit, count: separators.count + 1 - firstUnit))
        guard chunks.count > 1 else { return nil }
        self.chunks = chunks
    }

    /// The offset of the quote that closes the string whose opening quote is at `start`, stepping over
    /// escapes; `limit` when it does not close before that. Shared by the structural scans here and
    /// in ``ValuePool/end(of:from:)``.
    ///
    /// Eight bytes at a time where it can: a word's quotes and backslashes are found with a few
    /// arithmetic instructions (the lowest byte a zero-byte test flags is always a true match). On
    /// the 100k benchmark survey this took the whole structural scan from 136 M to 94 M instructions.
    static func closingQuote(in bytes: UnsafeBufferPointer<UInt8>, after start: Int, limit: Int) -> Int {
        var position = start + 1
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return limit }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position < limit {
            if position + 8 <= limit {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let quotes = word ^ 0x2222_2222_2222_2222
                let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let found = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & highs
                if found == 0 {
                    position += 8
                    continue
                }
                position += found.trailingZeroBitCount >> 3
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { return position }
            position += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        return limit
    }

    /// Where to cut the array at `start` (its `[`) into about `chunkCount` pieces, read from its
    /// layout instead of its whole structure: the offsets of separators (`,`) that end a line when
    /// the next line starts, after the indentation of the array's second element, with `{`. A raw
    /// line break is never inside a JSON string, so such a place is outside every string; whether
    /// it is between two elements of this array, and not of an array inside one, is for the parse
    /// to check (``Parser/parseSteps(cutAt:parallelism:)``). `nil` for an array whose elements do not start on
    /// lines of their own (no cut is guessed there), or when no cut is found.
    static func speculativeCuts(bytes: UnsafeBufferPointer<UInt8>, arrayAt start: Int, chunkCount: Int) -> [Int]? {
        guard chunkCount > 1, start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return nil }
        // The first separator of the array itself, by its structure (one element's worth of bytes).
        var depth = 0
        var position = start + 1
        let firstLimit = min(bytes.count, start + 1 + minimumBytes)
        var separator: Int?
        scan: while position < firstLimit {
            switch bytes[position] {
            case UInt8(ascii: "\""): position = closingQuote(in: bytes, after: position, limit: firstLimit)
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return nil }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 {
                    separator = position
                    break scan
                }
            default: break
            }
            position += 1
        }
        guard let separator else { return nil }
        // The second element's indentation: what follows the last line break before it.
        position = separator + 1
        var lineStart: Int?
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A {
                lineStart = position + 1
            } else if byte != 0x20, byte != 0x09, byte != 0x0D {
                break
            }
            position += 1
        }
        guard let lineStart, position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
        let indent = UnsafeBufferPointer(rebasing: bytes[lineStart..<position])
        guard !indent.contains(0x0D) else { return nil }
        // For each cut, the first such line at or after its share of the bytes.
        let span = bytes.count - start
        var cuts: [Int] = []
        for piece in 1..<chunkCount {
            var line = max(start + span / chunkCount * piece, (cuts.last ?? separator) + 1)
            let limit = min(bytes.count, line + span / chunkCount)
            var found: Int?
            while line < limit, found == nil {
                guard bytes[line] == 0x0A else {
                    line += 1
                    continue
                }
                let next = line + 1
                if next + indent.count < bytes.count,
                    bytes[next + indent.count] == UInt8(ascii: "{"),
                    indent.indices.allSatisfy({ bytes[next + $0] == indent[$0] })
                {
                    var before = line - 1
                    while before > start, bytes[before] == 0x20 || bytes[before] == 0x09 || bytes[before] == 0x0D {
                        before -= 1
                    }
                    if before > start, bytes[before] == UInt8(ascii: ",") { found = before }
                }
                line += 1
            }
            guard let found else { break }
            cuts.append(found)
        }
        return cuts.isEmpty ? nil : cuts
    }
}

extension Parser {
    /// Parses the survey's top-level `steps` array (at the current index). A large array on a
    /// machine with several cores is cut into chunks parsed in parallel; when a chunk meets anything
    /// its structure did not promise (a syntax error), the array is parsed again in one piece, so that
    /// errors are the ones, and in the order, that one parser meets.
    /// - Parameters:
    ///   - parallelism: the threads the pieces are parsed on.
    ///   - chunks: how many pieces to cut a large array into; by default ``Parallelism/pieceCount``
    ///     (1, no cutting, on one thread).
    mutating func parseTopLevelSteps(parallelism: Parallelism, chunks chunkCount: Int? = nil) throws(RawSyntaxError)
        -> (run: StepRun, count: Int)
    {
        skipWhitespace()
        // Small arrays are not cut (and do not ask how many cores there are). A pretty-printed array
        // is first cut where its layout says elements start, without reading it all (the cuts are
        // checked by the parse); then, or when that fails, where a scan of its structure says.
        if bytes.count - index >= StepChunks.minimumBytes,
            let cuts = StepChunks.speculativeCuts(
                bytes: bytes, arrayAt: index, chunkCount: chunkCount ?? parallelism.pieceCount),
            let parsed = parseSteps(cutAt: cuts, parallelism: parallelism)
        {
            return parsed
        }
        if bytes.count - index >= StepChunks.minimumBytes,
            let plan = StepChunks(bytes: bytes, arrayAt: index, chunkCount: chunkCount ?? parallelism.pieceCount)
        {
            // The bytes outlive the parse (the caller's buffer); each thread reads them through its own
            // parser, with its own stacks.
            let shared = SharedBytes(bytes: bytes)
            let arrayDepth = depth + 1
            let chunks = plan.chunks
            // `nil` for a chunk that did not parse as its structure said.
            let runs = parallelism.map(chunks.count) { index in
                var parser = Parser(bytes: shared.bytes)
                parser.depth = arrayDepth
                return parser.parseStepChunk(chunks[index])
            }
            if runs.allSatisfy({ $0 != nil }) {
                var run = StepRun()
                for next in runs { if let next { run.append(next) } }
                index = plan.end + 1
                return (run, plan.chunks.reduce(0) { $0 + $1.count })
            }
        }
        var run = StepRun()
        let count = try parseArrayElements { (parser, index) throws(RawSyntaxError) in
            let location = StepLocation(unit: index, child: -1)
            run.add(try parser.parseStep(at: location, allowsPages: true, errors: &run.errors), unit: index)
        }
        return (run, count)
    }

    /// Parses the steps array (its `[` at the current index) in pieces on several threads, cut after
    /// the separators at `cuts` (``StepChunks/speculativeCuts(bytes:arrayAt:chunkCount:)``), and
    /// moves past it. `nil`, with the index unchanged, unless every piece parses from its start to
    /// the next cut exactly (the last to the array's `]`) without a problem: a cut inside an element
    /// makes the piece before it run past the cut, so every cut that passes is between two elements
    /// of the array itself. Pieces with problems are left to the exact cut, whose errors carry each
    /// step's place in the array (a piece here does not know how many elements precede it).
    mutating func parseSteps(cutAt cuts: [Int], parallelism: Parallelism) -> (run: StepRun, count: Int)? {
        let starts = [index + 1] + cuts.map { $0 + 1 }
        let ends: [Int?] = cuts.map { $0 } + [nil]
        let shared = SharedBytes(bytes: bytes)
        let arrayDepth = depth + 1
        var pieces = parallelism.map(starts.count) { piece in
            var parser = Parser(bytes: shared.bytes)
            parser.depth = arrayDepth
            return parser.parseStepPiece(from: starts[piece], to: ends[piece])
        }
        var run = StepRun()
        var count = 0
        var arrayEnd = index
        for position in pieces.indices {
            // Taken out, so that the first piece's steps become the run's without a copy.
            var taken: (run: StepRun, count: Int, end: Int)?
            swap(&taken, &pieces[position])
            guard var piece = taken, piece.run.errors.isEmpty, !piece.run.dropped else { return nil }
            piece.run.map.shiftUnits(by: count)
            run.append(piece.run)
            count += piece.count
            arrayEnd = piece.end
        }
        index = arrayEnd + 1
        return (run, count)
    }

    /// The steps from `start` to the separator at `end`, or to the array's `]` when `end` is `nil`
    /// (numbered from 0), the count, and where the piece ends; `nil` when they do not parse or do not
    /// end exactly there.
    mutating func parseStepPiece(from start: Int, to end: Int?) -> (run: StepRun, count: Int, end: Int)? {
        index = start
        var run = StepRun()
        var count = 0
        do {
            while true {
                skipWhitespace()
                if let end, index >= end { return nil }
                run.add(
                    try parseStep(at: StepLocation(unit: count, child: -1), allowsPages: true, errors: &run.errors),
                    unit: count)
                count += 1
                skipWhitespace()
                guard index < bytes.count else { return nil }
                if let end {
                    if index == end { return (run, count, end) }
                    guard index < end, bytes[index] == UInt8(ascii: ",") else { return nil }
                } else {
                    if bytes[index] == UInt8(ascii: "]") { return (run, count, index) }
                    guard bytes[index] == UInt8(ascii: ",") else { return nil }
                }
                index += 1
            }
        } catch {
            return nil
        }
    }

    /// The steps of one chunk, or `nil` when they do not parse or do not end where the chunk does.
    mutating func parseStepChunk(_ chunk: StepChunks.Chunk) -> StepRun? {
        index = chunk.start
        var run = StepRun()
        do {
            for offset in 0..<chunk.count {
                skipWhitespace()
                let unit = chunk.firstUnit + offset
                let location = StepLocation(unit: unit, child: -1)
                run.add(try parseStep(at: location, allowsPages: true, errors: &run.errors), unit: unit)
                skipWhitespace()
                if offset < chunk.count - 1 {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
            }
        } catch {
            return nil
        }
        return index == chunk.end ? run : nil
    }
}

extension JSONParser {
    /// Streams a survey document (see ``StreamedSurvey``); `nil` when it is not a JSON object.
    static func parseSurvey(bytes: UnsafeBufferPointer<UInt8>, parallelism: Parallelism) throws(JSONSyntaxError)
        -> StreamedSurvey?
    {
        var parser = Parser(bytes: bytes)
        do {
            return try parser.parseSurvey(parallelism: parallelism)
        } catch {
            throw JSONSyntaxError(message: error.message, position: .of(offset: error.offset, in: bytes))
        }
    }
}
