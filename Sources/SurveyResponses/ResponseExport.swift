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

    /// One response as a JSON object: the header fields, `path` and `answers` (by step id).
    public static func jsonValue(of response: Response) -> JSONValue {
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
        return .object(members)
    }

    /// One JSON Lines line (without the newline).
    public static func jsonLine(of response: Response) -> String {
        JSONWriter.string(from: jsonValue(of: response))
    }

    /// The CSV header line for these answer columns.
    public static func csvHeader(stepIDs: [String]) -> String {
        (headerColumns + stepIDs).map(csvField).joined(separator: ",")
    }

    /// One CSV line: the header fields, then each step's answer (text as is, numbers and Booleans
    /// in JSON form, a list of texts joined by `;`, anything else as compact JSON; empty when unanswered).
    public static func csvLine(of response: Response, stepIDs: [String]) -> String {
        var fields = [
            response.id.rawValue, response.respondentID, response.surveyID, response.surveyVersion ?? "",
            response.locale, response.status.rawValue, timestamp(response.createdAt), timestamp(response.updatedAt),
            response.completedAt.map(timestamp) ?? "",
        ]
        for step in stepIDs { fields.append(response.answers[step].map(csvText) ?? "") }
        return fields.map(csvField).joined(separator: ",")
    }

    static func csvText(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .array(let elements) where elements.allSatisfy({ $0.choiceKey != nil }):
            return elements.compactMap(\.choiceKey).joined(separator: ";")
        default: return JSONWriter.string(from: value)
        }
    }

    /// RFC 4180 quoting; a field that a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first)
    /// gets a leading `'` so that opening the file never executes respondent input.
    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first),
            Double(text) == nil
        {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-12-01T14:02:37.123Z`.
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = Int(milliseconds - seconds * 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(fraction), 3))Z"
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
