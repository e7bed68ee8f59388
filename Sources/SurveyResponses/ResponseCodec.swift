import Foundation
import SurveyCore

/// How the database stores write values as columns: shared by the SQLite and PostgreSQL stores
/// so that both hold exactly the same data.
///
/// Times are whole milliseconds since 1970 (UTC); seeds are decimal text (a `UInt64` does not fit
/// a signed 64-bit column); actions, paths and answers are compact JSON with sorted keys.
package enum ResponseCodec {
    /// The columns of the `responses` table, in the order ``response(columns:store:)`` reads them.
    package static let responseColumns =
        "id, respondent_id, survey_id, survey_version, locale, seed, today, status, created_at, updated_at, "
        + "completed_at, current_unit, path, answers, action_count, orphaned, abandoned_reason, quotas"

    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    package static func json(_ value: JSONValue) -> String { JSONWriter.string(from: value) }

    package static func pathJSON(_ path: [String]) -> String { json(.array(path.map { .string($0) })) }

    package static func answersJSON(_ answers: [String: JSONValue]) -> String { json(.object(answers)) }

    /// The orphaned answers as a JSON array (`[]` when there are none).
    package static func orphanedJSON(_ orphaned: [OrphanedAnswer]) -> String { json(.array(orphaned.map(\.jsonValue))) }

    /// The quotas reached as a JSON array (`[]` when there are none).
    package static func quotasJSON(_ quotas: [QuotaReached]) -> String { json(.array(quotas.map(\.storedJSON))) }

    package static func actionJSON(_ action: SessionAction) -> String { json(action.jsonValue) }

    package static func action(fromJSON text: String, store: String) throws(StoreError) -> SessionAction {
        // The moves, as the store writes them, need no parse.
        switch text {
        case #"{"action":"next"}"#: return .next
        case #"{"action":"back"}"#: return .back
        case #"{"action":"dismiss"}"#: return .dismiss
        default: break
        }
        if let answer = answerAction(fromJSON: text) { return answer }
        do {
            return try SessionAction(json: try JSONParser.parse(text), path: .root)
        } catch {
            throw StoreError(.corrupt, "a stored action cannot be read: \(error)", store: store)
        }
    }

    /// An answer as the store writes it, `{"action":"answer","stepId":"ID","value":VALUE}` with an id
    /// that needs no escape, read without building the object: only the value is parsed. `nil` for
    /// anything else (read the general way, which names what is wrong).
    static func answerAction(fromJSON text: String) -> SessionAction? {
        var text = text
        return text.withUTF8 { bytes -> SessionAction? in
            let prefix: StaticString = #"{"action":"answer","stepId":""#
            let middle: StaticString = #"","value":"#
            let count = bytes.count
            guard count > prefix.utf8CodeUnitCount + middle.utf8CodeUnitCount + 1,
                bytes[count - 1] == UInt8(ascii: "}"),
                memcmp(bytes.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
            else { return nil }
            var end = prefix.utf8CodeUnitCount
            while end < count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                end += 1
            }
            let valueStart = end + middle.utf8CodeUnitCount
            guard end < count, bytes[end] == UInt8(ascii: "\""), valueStart < count - 1,
                memcmp(bytes.baseAddress! + end, middle.utf8Start, middle.utf8CodeUnitCount) == 0,
                let value = try? JSONParser.parse(bytes: UnsafeBufferPointer(rebasing: bytes[valueStart..<(count - 1)]))
            else { return nil }
            let stepID = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[prefix.utf8CodeUnitCount..<end]), as: UTF8.self)
            return .answer(stepID: stepID, value: value)
        }
    }

    /// One row of `responses`, as text and integer columns in ``responseColumns`` order (`nil` for NULL).
    package struct ResponseColumns {
        package var id: String?
        package var respondentID: String?
        package var surveyID: String?
        package var surveyVersion: String?
        package var locale: String?
        package var seed: String?
        package var today: String?
        package var status: String?
        package var createdAt: Int64?
        package var updatedAt: Int64?
        package var completedAt: Int64?
        package var currentUnit: String?
        package var path: String?
        package var answers: String?
        package var actionCount: Int64?
        package var orphaned: String?
        package var abandonedReason: String?
        package var quotas: String?

        package init() {}
    }

    package static func response(columns row: ResponseColumns, store: String) throws(StoreError) -> Response {
        func corrupt(_ what: String) -> StoreError {
            StoreError(.corrupt, "response \(row.id ?? "?") has an unreadable \(what)", store: store)
        }
        guard let idText = row.id, let id = ResponseID(idText) else { throw corrupt("id") }
        guard let respondentID = row.respondentID, let surveyID = row.surveyID, let locale = row.locale,
            let today = row.today
        else { throw corrupt("header") }
        guard let seedText = row.seed, let seed = UInt64(seedText) else { throw corrupt("seed") }
        guard let statusText = row.status, let status = ResponseStatus(rawValue: statusText) else {
            throw corrupt("status")
        }
        guard let created = row.createdAt, let updated = row.updatedAt else { throw corrupt("time") }
        var path: [String] = []
        if let text = row.path, !text.isEmpty, text != "[]" {
            guard let array = try? JSONParser.parse(text).arrayValue else { throw corrupt("path") }
            path = array.compactMap(\.stringValue)
        }
        var answers: [String: JSONValue] = [:]
        if let text = row.answers, !text.isEmpty, text != "{}" {
            guard let object = try? JSONParser.parse(text).objectValue else { throw corrupt("answers") }
            answers = object
        }
        var orphaned: [OrphanedAnswer] = []
        if let text = row.orphaned, !text.isEmpty, text != "[]" {
            guard let array = try? JSONParser.parse(text).arrayValue else { throw corrupt("orphaned answers") }
            orphaned = try array.map { entry throws(StoreError) in
                guard let answer = OrphanedAnswer(json: entry) else { throw corrupt("orphaned answer") }
                return answer
            }
        }
        var quotas: [QuotaReached] = []
        if let text = row.quotas, !text.isEmpty, text != "[]" {
            guard let array = try? JSONParser.parse(text).arrayValue else { throw corrupt("quotas reached") }
            quotas = try array.map { entry throws(StoreError) in
                guard let quota = QuotaReached(storedJSON: entry) else { throw corrupt("quota reached") }
                return quota
            }
        }
        return Response(
            id: id, respondentID: respondentID, surveyID: surveyID, surveyVersion: row.surveyVersion, locale: locale,
            seed: seed, today: today, status: status, createdAt: date(milliseconds: created),
            updatedAt: date(milliseconds: updated), completedAt: row.completedAt.map { date(milliseconds: $0) },
            currentUnitID: row.currentUnit, path: path, answers: answers, actionCount: Int(row.actionCount ?? 0),
            orphaned: orphaned, abandonedReason: row.abandonedReason, quotasReached: quotas)
    }
}
