import Foundation
import SurveyCore

/// Writes responses as JSON Lines or CSV, keyed by the survey author's stable step ids.
///
/// Both formats stream: each response is written as it is read, so exporting a million responses
/// needs the memory of one.
public enum ResponseExport {
    /// The export formats.
    public enum Format: String, Sendable, CaseIterable {
        case jsonl
        case csv
    }

    /// The fixed columns before the answers.
    public static let headerColumns = [
        "response_id", "respondent_id", "survey_id", "survey_version", "locale", "status", "created_at", "updated_at",
        "completed_at",
    ]

    /// One response as a JSON object: the header fields, `path` and `answers` (by step id),
    /// `"partial": true` when `isPartial` (the path and answers so far of an unfinished response:
    /// ``PartialResponses``), and when there are any, `orphaned` (the answers an earlier version of
    /// the survey took and the current one does not, each ``OrphanedAnswer/jsonValue``),
    /// `abandonedReason` and `quotasReached` (the full quotas whose action the respondent got, each
    /// its `quotaId`, `action`, `message` and, for a skip, `skipTo`).
    public static func jsonValue(of response: Response, isPartial: Bool = false) -> JSONValue {
        var members: [String: JSONValue] = [
            "responseId": .string(response.id.rawValue),
            "respondentId": .string(response.respondentID),
            "surveyId": .string(response.surveyID),
            "locale": .string(response.locale),
            "seed": .string(String(response.seed)),
            "status": .string(response.status.rawValue),
            "createdAt": .string(timestamp(response.createdAt)),
            "updatedAt": .string(timestamp(response.updatedAt)),
            "path": .array(response.path.map { .string($0) }),
            "answers": .object(response.answers),
            "actionCount": .number(Double(response.actionCount)),
        ]
        if let version = response.surveyVersion { members["surveyVersion"] = .string(version) }
        if let completed = response.completedAt { members["completedAt"] = .string(timestamp(completed)) }
        if let unit = response.currentUnitID { members["currentUnitId"] = .string(unit) }
        if isPartial { members["partial"] = .bool(true) }
        if !response.orphaned.isEmpty { members["orphaned"] = .array(response.orphaned.map(\.jsonValue)) }
        if let reason = response.abandonedReason { members["abandonedReason"] = .string(reason) }
        if !response.quotasReached.isEmpty {
            members["quotasReached"] = .array(response.quotasReached.map(\.storedJSON))
        }
        return .object(members)
    }

    /// One JSON Lines line (without the newline): ``jsonValue(of:isPartial:)`` as compact JSON with
    /// sorted keys.
    public static func jsonLine(of response: Response, isPartial: Bool = false) -> String {
        var bytes: [UInt8] = []
        appendJSONLine(of: response, isPartial: isPartial, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``jsonLine(of:isPartial:)`` to `output` as UTF-8: the members written in sorted
    /// order as they are, without building the object and sorting its keys for each response.
    static func appendJSONLine(of response: Response, isPartial: Bool, to output: inout [UInt8]) {
        var first = true
        func key(_ name: StaticString) {
            output.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            output.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { output.append(contentsOf: $0) }
            output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func string(_ name: StaticString, _ text: String) {
            key(name)
            JSONWriter.writeString(text, into: &output)
        }
        func timestamp(_ name: StaticString, _ date: Date) {
            key(name)
            output.append(UInt8(ascii: "\""))
            appendTimestamp(date, to: &output)
            output.append(UInt8(ascii: "\""))
        }
        // In the byte order of the keys, as JSONWriter sorts them.
        if let reason = response.abandonedReason { string("abandonedReason", reason) }
        key("actionCount")
        JSONWriter.write(.number(Double(response.actionCount)), into: &output)
        key("answers")
        JSONWriter.write(.object(response.answers), into: &output)
        if let completed = response.completedAt { timestamp("completedAt", completed) }
        timestamp("createdAt", response.createdAt)
        if let unit = response.currentUnitID { string("currentUnitId", unit) }
        string("locale", response.locale)
        if !response.orphaned.isEmpty {
            key("orphaned")
            JSONWriter.write(.array(response.orphaned.map(\.jsonValue)), into: &output)
        }
        if isPartial {
            key("partial")
            output.append(contentsOf: "true".utf8)
        }
        key("path")
        output.append(UInt8(ascii: "["))
        for (index, unit) in response.path.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(unit, into: &output)
        }
        output.append(UInt8(ascii: "]"))
        if !response.quotasReached.isEmpty {
            key("quotasReached")
            JSONWriter.write(.array(response.quotasReached.map(\.storedJSON)), into: &output)
        }
        string("respondentId", response.respondentID)
        string("responseId", response.id.rawValue)
        string("seed", String(response.seed))
        string("status", response.status.rawValue)
        string("surveyId", response.surveyID)
        if let version = response.surveyVersion { string("surveyVersion", version) }
        timestamp("updatedAt", response.updatedAt)
        output.append(UInt8(ascii: "}"))
    }

    /// The CSV header line for these answer columns.
    public static func csvHeader(stepIDs: [String]) -> String {
        var bytes: [UInt8] = []
        for (index, column) in (headerColumns + stepIDs).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendCSVField(column, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One CSV line: the header fields, then each step's answer (text as is, numbers and Booleans
    /// in JSON form, a list of texts joined by `;`, anything else as compact JSON; empty when unanswered).
    public static func csvLine(of response: Response, stepIDs: [String]) -> String {
        var bytes: [UInt8] = []
        appendCSVLine(of: response, stepIDs: stepIDs, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``csvLine(of:stepIDs:)`` (without a line end) to `output` as UTF-8: what an export
    /// of many responses calls, with no string built per field. Returns how many of the response's
    /// answers it wrote (fewer than `response.answers.count` when some step is not in `stepIDs`).
    @discardableResult
    public static func appendCSVLine(of response: Response, stepIDs: [String], to output: inout [UInt8]) -> Int {
        appendCSVHeaderFields(of: response, to: &output)
        var written = 0
        var joined: [UInt8] = []
        for step in stepIDs {
            output.append(UInt8(ascii: ","))
            guard let value = response.answers[step] else { continue }
            written += 1
            appendCSVAnswer(value, joined: &joined, to: &output)
        }
        return written
    }

    /// ``appendCSVLine(of:stepIDs:to:)`` with the columns of `index`: the response's answers are
    /// walked once and each finds its column in `index` (no lookup by step id per column). Answers
    /// whose step is not a column go to `extra`. `slots` is scratch space, as long as the columns.
    static func appendCSVLine(
        of response: Response, columns index: CSVColumnIndex, slots: inout [JSONValue?], extra: inout Set<String>,
        to output: inout [UInt8]
    ) {
        appendCSVHeaderFields(of: response, to: &output)
        var filled = 0
        for (key, value) in response.answers {
            if let column = index.column(of: key) {
                slots[column] = value
                filled += 1
            } else {
                extra.insert(key)
            }
        }
        var joined: [UInt8] = []
        for column in slots.indices {
            output.append(UInt8(ascii: ","))
            guard filled > 0, let value = slots[column] else { continue }
            slots[column] = nil
            filled -= 1
            appendCSVAnswer(value, joined: &joined, to: &output)
        }
    }

    /// One answer as a CSV field (see ``csvLine(of:stepIDs:)``); `joined` is scratch space.
    @inline(__always)
    static func appendCSVAnswer(_ value: JSONValue, joined: inout [UInt8], to output: inout [UInt8]) {
        switch value {
        case .null: break
        case .string(let text): appendCSVField(text, to: &output)
        case .array(let elements) where elements.allSatisfy({ $0.choiceKey != nil }):
            // The texts joined by `;`, then written as one field.
            joined.removeAll(keepingCapacity: true)
            for (index, element) in elements.enumerated() {
                if index > 0 { joined.append(UInt8(ascii: ";")) }
                if case .string(var text) = element {
                    text.withUTF8 { joined.append(contentsOf: $0) }
                } else if let key = element.choiceKey {
                    joined.append(contentsOf: key.utf8)
                }
            }
            joined.withUnsafeBufferPointer { appendCSVField(bytes: $0, to: &output) }
        default: appendCSVField(JSONWriter.string(from: value), to: &output)
        }
    }

    /// The fields of a CSV line before the answers (id to completion time), without a trailing comma.
    static func appendCSVHeaderFields(of response: Response, to output: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        appendCSVField(response.id.rawValue, to: &output)
        output.append(comma)
        appendCSVField(response.respondentID, to: &output)
        output.append(comma)
        appendCSVField(response.surveyID, to: &output)
        output.append(comma)
        appendCSVField(response.surveyVersion ?? "", to: &output)
        output.append(comma)
        appendCSVField(response.locale, to: &output)
        output.append(comma)
        appendCSVField(response.status.rawValue, to: &output)
        output.append(comma)
        // Timestamps are digits and punctuation only: never quoted.
        appendTimestamp(response.createdAt, to: &output)
        output.append(comma)
        appendTimestamp(response.updatedAt, to: &output)
        output.append(comma)
        if let completed = response.completedAt { appendTimestamp(completed, to: &output) }
    }

    /// Appends `text` as one RFC 4180 field. A field that a spreadsheet would run as a formula
    /// (`=`, `+`, `-`, `@`, tab or CR first, and not a number) gets a leading `'` so that opening the
    /// file never executes respondent input; a field holding a comma, quote, CR or LF is quoted, its
    /// quotes doubled.
    static func appendCSVField(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendCSVField(bytes: $0, to: &output) }
    }

    /// ``appendCSVField(_:to:)`` of the UTF-8 `bytes`.
    static func appendCSVField(bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard let first = bytes.first else { return }
        var formula = false
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13:
            formula = Double(String(decoding: bytes, as: UTF8.self)) == nil
        default: break
        }
        // A plain loop: `contains(where:)` on the buffer is not specialised here and costs a metadata
        // lookup per field.
        var quoted = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 10 || byte == 13 {
                quoted = true
                break
            }
            index += 1
        }
        if quoted { output.append(UInt8(ascii: "\"")) }
        if formula { output.append(UInt8(ascii: "'")) }
        if quoted {
            for byte in bytes {
                output.append(byte)
                if byte == UInt8(ascii: "\"") { output.append(byte) }
            }
            output.append(UInt8(ascii: "\""))
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-12-01T14:02:37.123Z`.
    public static func timestamp(_ date: Date) -> String {
        var bytes: [UInt8] = []
        appendTimestamp(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``timestamp(_:)`` to `output` as UTF-8.
    static func appendTimestamp(_ date: Date, to output: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = Int(milliseconds - seconds * 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let year = Int(parts.tm_year) + 1900
        if (1000...9999).contains(year) {
            // Every field at its width (the usual case): digits written straight, 24 bytes in one append.
            @inline(__always) func digit(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: 48 + value) }
            let month = Int(parts.tm_mon) + 1
            let day = Int(parts.tm_mday)
            let hour = Int(parts.tm_hour)
            let minute = Int(parts.tm_min)
            let second = Int(parts.tm_sec)
            let bytes:
                (
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
                ) = (
                    digit(year / 1000), digit(year / 100 % 10), digit(year / 10 % 10), digit(year % 10), 45,
                    digit(month / 10), digit(month % 10), 45, digit(day / 10), digit(day % 10), 84,
                    digit(hour / 10), digit(hour % 10), 58, digit(minute / 10), digit(minute % 10), 58,
                    digit(second / 10), digit(second % 10), 46, digit(fraction / 100), digit(fraction / 10 % 10),
                    digit(fraction % 10), 90
                )
            withUnsafeBytes(of: bytes) { output.append(contentsOf: $0) }
            return
        }
        func pad(_ value: Int, _ width: Int, then separator: UInt8?) {
            var divisor = 1
            for _ in 1..<max(1, width) { divisor *= 10 }
            var value = value
            if value < 0 {
                output.append(UInt8(ascii: "-"))
                value = -value
            }
            // Wider values than `width` keep all their digits.
            while divisor * 10 <= value { divisor *= 10 }
            while divisor > 0 {
                output.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            if let separator { output.append(separator) }
        }
        pad(year, 4, then: UInt8(ascii: "-"))
        pad(Int(parts.tm_mon) + 1, 2, then: UInt8(ascii: "-"))
        pad(Int(parts.tm_mday), 2, then: UInt8(ascii: "T"))
        pad(Int(parts.tm_hour), 2, then: UInt8(ascii: ":"))
        pad(Int(parts.tm_min), 2, then: UInt8(ascii: ":"))
        pad(Int(parts.tm_sec), 2, then: UInt8(ascii: "."))
        pad(fraction, 3, then: UInt8(ascii: "Z"))
    }

    /// The answer columns for `survey`: its switched-on question steps in document order (content
    /// steps and questions with `enabled: false` left out), each question with a comment box followed by
    /// `<id>-Comment`.
    public static func stepColumns(of survey: Survey) -> [String] {
        var columns: [String] = []
        for id in survey.stepIDs
        where survey.isSwitchedOn(id) && (survey.question(forStep: id)?.collectsAnswer ?? false) {
            columns.append(id)
            // A comment box's text (`showCommentArea`) follows its question.
            if survey.isComment(id + "-Comment") { columns.append(id + "-Comment") }
        }
        return columns
    }
}

extension ResponseExport {
    /// Writes the responses `query` selects from `store` to `output` in `format`, oldest first:
    /// JSON Lines (one ``jsonLine(of:isPartial:)`` per line, LF) or CSV rows (``appendCSVLine(of:stepIDs:to:)``
    /// with `columns`, CRLF; the header is the caller's, from ``csvHeader(stepIDs:)``).
    ///
    /// When the store splits the selection (``ResponseStore/split(_:into:minimumPartSize:)``), up to
    /// `parallelism` parts are read and formatted at once: the first streams to `output`, each later
    /// one to a temporary file in `scratchDirectory` that is copied to `output` in order once the
    /// parts are done and then removed. The bytes are the same as reading in one go, and memory
    /// stays that of a few responses and 1 MB of output per part.
    ///
    /// A response that `partial` replayed is written with its path and answers so far (and, in JSON
    /// Lines, `"partial": true`).
    /// - Returns: the answered step ids that are not in `columns` (CSV only: those answers are left out)
    ///   and how many unfinished responses were written as stored, without their answers so far.
    /// - Throws: the store's error, ``StoreError`` `.failed` when a temporary file cannot be
    ///   written or read (naming it), or what `output` throws.
    public static func write(
        _ format: Format, from store: any ResponseStore, matching query: ResponseQuery, columns: [String] = [],
        partial: PartialResponses = PartialResponses(),
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, minimumPartSize: Int = 50_000,
        scratchDirectory: String = NSTemporaryDirectory(), to output: ([UInt8]) throws -> Void
    ) throws -> Summary {
        let known = Set(columns)
        // Distinct columns (always, from a survey) are found by each answer's step id at once.
        let columnIndex = known.count == columns.count ? CSVColumnIndex(columns) : nil
        let base =
            scratchDirectory + (scratchDirectory.hasSuffix("/") ? "" : "/")
            + "survey-export-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        func scratch(_ index: Int) -> String { base + "-\(index).part" }
        defer {
            // A part that failed may have left its file; none is kept.
            for index in 1..<max(2, parallelism + 1) { try? FileManager.default.removeItem(atPath: scratch(index)) }
        }
        let extras = try store.forEachPart(
            of: query, parallelism: parallelism, minimumPartSize: minimumPartSize
        ) { index, part -> Summary in
            var chunk = ScratchWriter(path: index == 0 ? nil : scratch(index), store: store.name)
            var extra = Set<String>()
            var asStored = 0
            var slots = [JSONValue?](repeating: nil, count: columns.count)
            try store.forEachResponse(matching: part) { stored in
                let (response, isPartial) = try partial.completing(stored)
                if !isPartial, partial.isShownAsStored(stored) { asStored += 1 }
                switch format {
                case .jsonl:
                    appendJSONLine(of: response, isPartial: isPartial, to: &chunk.bytes)
                    chunk.bytes.append(UInt8(ascii: "\n"))
                case .csv:
                    if let columnIndex {
                        appendCSVLine(
                            of: response, columns: columnIndex, slots: &slots, extra: &extra, to: &chunk.bytes)
                    } else {
                        let written = appendCSVLine(of: response, stepIDs: columns, to: &chunk.bytes)
                        if written < response.answers.count {
                            for key in response.answers.keys where !known.contains(key) { extra.insert(key) }
                        }
                    }
                    chunk.bytes.append(contentsOf: [13, 10])
                }
                if chunk.bytes.count >= ScratchWriter.chunkSize { try chunk.flush(to: output) }
            }
            try chunk.flush(to: output)
            chunk.close()
            return Summary(extraSteps: extra, unfinishedShownAsStored: asStored)
        }
        for index in 1..<extras.count { try ScratchWriter.copy(scratch(index), store: store.name, to: output) }
        return extras.reduce(into: Summary()) {
            $0.extraSteps.formUnion($1.extraSteps)
            $0.unfinishedShownAsStored += $1.unfinishedShownAsStored
        }
    }

    /// What an export left out.
    public struct Summary: Sendable, Hashable {
        /// The answered step ids not among the CSV columns (their answers are not in the CSV).
        public var extraSteps: Set<String> = []
        /// The unfinished responses written as stored, without their answers so far
        /// (``PartialResponses/isShownAsStored(_:)``).
        public var unfinishedShownAsStored = 0
    }
}

/// Where one part of ``ResponseExport/write(_:from:matching:columns:partial:parallelism:minimumPartSize:scratchDirectory:to:)``
/// goes: straight to the output (the first part) or to its temporary file.
private struct ScratchWriter {
    static let chunkSize = 1 << 20
    let path: String?
    let store: String
    var handle: FileHandle?
    var bytes: [UInt8] = []

    init(path: String?, store: String) {
        self.path = path
        self.store = store
        bytes.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Writes what `bytes` holds to the file, or to `direct` for the first part.
    mutating func flush(to direct: ([UInt8]) throws -> Void) throws {
        guard !bytes.isEmpty else { return }
        defer { bytes.removeAll(keepingCapacity: true) }
        guard let path else { return try direct(bytes) }
        do {
            if handle == nil {
                guard FileManager.default.createFile(atPath: path, contents: nil),
                    let opened = FileHandle(forWritingAtPath: path)
                else { throw StoreError(.failed, "cannot create the temporary file \(path)", store: store) }
                handle = opened
            }
            try handle?.write(contentsOf: bytes)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.failed, "cannot write the temporary file \(path): \(error)", store: store)
        }
    }

    /// Closes the temporary file (its bytes were written by ``flush(to:)``, which reports errors).
    mutating func close() {
        try? handle?.close()
        handle = nil
    }

    /// Passes the file at `path` (absent when its part selected nothing) to `output` in chunks.
    static func copy(_ path: String, store: String, to output: ([UInt8]) throws -> Void) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError(.failed, "cannot read the temporary file \(path)", store: store)
        }
        defer { try? handle.close() }
        while true {
            let data: Data?
            do {
                data = try handle.read(upToCount: chunkSize)
            } catch {
                throw StoreError(.failed, "cannot read the temporary file \(path): \(error)", store: store)
            }
            guard let data, !data.isEmpty else { return }
            try output([UInt8](data))
        }
    }
}

/// The CSV answer columns by step id, for finding each answer's column as the answers are walked:
/// an open-addressing table over the ids' UTF-8 bytes with FNV-1a, cheaper per lookup than a
/// `Dictionary` keyed by `String` (a seeded SipHash per id), which an export of a million
/// responses of 20 answers does 20 million times.
struct CSVColumnIndex: Sendable {
    /// Each column's id as UTF-8.
    let keys: [[UInt8]]
    /// The table: a column number, or -1 for an empty slot; its size a power of two, at most half full.
    let table: [Int32]
    let mask: Int

    /// - Precondition: `columns` are distinct.
    init(_ columns: [String]) {
        keys = columns.map { Array($0.utf8) }
        var size = 8
        while size < columns.count * 2 { size *= 2 }
        var table = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (column, key) in keys.enumerated() {
            var slot = key.withUnsafeBufferPointer { Self.hash($0) } & (size - 1)
            while table[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            table[slot] = Int32(column)
        }
        self.table = table
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The column of step id `key`, or `nil` when it is not a column.
    func column(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { bytes -> Int? in
            var slot = Self.hash(bytes) & mask
            while true {
                let column = Int(table[slot])
                if column < 0 { return nil }
                let stored = keys[column]
                if stored.count == bytes.count, stored.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
                    return column
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
