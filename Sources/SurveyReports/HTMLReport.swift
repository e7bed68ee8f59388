import Foundation
import SurveyCore
import SurveyResponses

/// The report as one self-contained HTML page: inline CSS and inline SVG charts drawn here (no
/// network, no script needed to read it), readable on a phone and printable. Each chart has a text
/// alternative and a data table. Every text that comes from a respondent or the survey is escaped,
/// and isolated (`<bdi>`) so that direction marks inside it cannot reorder the page.
public enum HTMLReport {
    /// The page.
    public static func page(_ report: SurveyReport) -> String {
        let t = { (key: String) in ReportStrings.text(key, locale: report.locale) }
        var html = """
            <!DOCTYPE html>
            <html lang="\(escape(report.locale))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>\(escape(report.title)) — \(escape(t("report")))</title>
            <style>\(css)</style>
            </head>
            <body>
            <header><h1><bdi>\(escape(report.title))</bdi></h1>
            <p class="totals"><span>\(escape(t("responses"))): <b>\(report.responses)</b></span>
            <span>\(escape(t("partial"))): <b>\(report.partialResponses)</b></span>
            <span>\(escape(t("invitations"))): <b>\(report.invitations)</b></span>
            <span>\(escape(t("completed"))): <b>\(report.completed)</b></span>
            <span>\(escape(t("completionRate"))): <b>\(report.completionRate.map(percent) ?? "—")</b></span></p>
            </header>
            <main>

            """
        for (index, question) in report.questions.enumerated() {
            html += section(question, index: index, t: t)
        }
        html += funnelSection(report, t: t)
        html += dropOffSection(report, t: t)
        html += timeSection(report, t: t)
        html += pathsSection(report, t: t)
        html += quotasSection(report, t: t)
        html += """
            </main>
            <script>\(script)</script>
            </body>
            </html>

            """
        return html
    }

    // MARK: Sections

    static func section(_ question: SurveyReport.Question, index: Int, t: (String) -> String) -> String {
        let summary = question.summary
        var html = "<section class=\"question\" id=\"q-\(index)\">\n"
        html += "<h2><bdi>\(escape(question.title))</bdi> <code>\(escape(question.stepID))</code></h2>\n"
        var facts = ["\(escape(t("answered"))): \(summary.answered)"]
        if question.answeredPartially > 0 {
            facts[0] += " (\(escape(t("partial"))): \(question.answeredPartially))"
        }
        for (key, value) in [
            ("mean", summary.mean), ("median", summary.median), ("minimum", summary.minimum),
            ("maximum", summary.maximum),
        ] {
            if let value { facts.append("\(escape(t(key))): \(format(value))") }
        }
        html += "<p class=\"facts\">\(facts.joined(separator: " · "))</p>\n"
        if summary.buckets.isEmpty, question.texts.isEmpty {
            html += "<p class=\"empty\">\(escape(t("noAnswers")))</p>\n"
        }
        let main = summary.buckets.filter { $0.group == nil }
        if !main.isEmpty {
            let ranked = main.contains { $0.mean != nil }
            let bars = main.map {
                (label: $0.label, value: Double($0.count), note: percent($0.percentage / 100))
            }
            let alternative = main.map { "\($0.label): \($0.count) (\(percent($0.percentage / 100)))" }
                .joined(separator: "; ")
            html += barChart(bars, title: question.title, alternative: alternative, id: "chart-\(index)")
            if ranked {
                // A ranking: each item's average position (1 = first), shortest bar best.
                let positions = main.filter { $0.mean != nil }
                html += "<h3>\(escape(t("averagePosition")))</h3>\n"
                html += barChart(
                    positions.map { (label: $0.label, value: $0.mean ?? 0, note: t("averagePosition")) },
                    title: "\(question.title) — \(t("averagePosition"))",
                    alternative: positions.map { "\($0.label): \(format($0.mean ?? 0))" }.joined(separator: "; "),
                    id: "chart-\(index)-positions")
            }
            html += "<details><summary>\(escape(t("value"))) / \(escape(t("count")))</summary>\n"
            html += table(
                header: [t("value"), ranked ? t("firstPlace") : t("count"), t("share")]
                    + (ranked ? [t("averagePosition")] : []),
                rows: main.map {
                    [$0.label, String($0.count), percent($0.percentage / 100)]
                        + (ranked ? [$0.mean.map(format) ?? "—"] : [])
                })
            html += "</details>\n"
        }
        html += npsSection(summary.buckets, index: index, t: t)
        html += matrixSection(summary.buckets, title: question.title, index: index, t: t)
        if !question.texts.isEmpty {
            html +=
                "<div class=\"texts\"><label>\(escape(t("search"))) <input type=\"search\" data-list=\"texts-\(index)\"></label>\n"
            html += "<ul id=\"texts-\(index)\">\n"
            for text in question.texts { html += "<li><bdi>\(escape(text))</bdi></li>\n" }
            html += "</ul></div>\n"
        }
        if !question.otherTexts.isEmpty {
            html += "<h3>\(escape(t("otherTexts")))</h3>\n"
            html += table(header: ["", t("count")], rows: question.otherTexts.map { [$0.text, String($0.count)] })
        }
        return html + "</section>\n"
    }

    /// An NPS question's headline score and its promoters / passives / detractors as one stacked bar.
    static func npsSection(_ buckets: [AnswerSummary.Bucket], index: Int, t: (String) -> String) -> String {
        let order = ["detractors", "passives", "promoters"]
        let groups = buckets.filter { $0.group == "nps" }.sorted {
            (order.firstIndex(of: $0.value) ?? order.count) < (order.firstIndex(of: $1.value) ?? order.count)
        }
        var html = ""
        if let score = buckets.first(where: { $0.group == "score" }) {
            let signed = (score.percentage > 0 ? "+" : "") + String(format: "%.1f", score.percentage)
            html += "<p class=\"score\">\(escape(t("npsScore"))): <b>\(escape(signed))</b></p>\n"
        }
        guard !groups.isEmpty else { return html }
        let segments = groups.map { (label: npsLabel($0, t: t), share: $0.percentage / 100, count: $0.count) }
        html += stackedBar(
            [("", segments)], title: t("npsScore"),
            alternative: segments.map { "\($0.label): \($0.count) (\(percent($0.share)))" }.joined(separator: "; "),
            id: "chart-\(index)-nps")
        html += table(
            header: ["", t("count"), t("share")],
            rows: segments.map { [$0.label, String($0.count), percent($0.share)] })
        return html
    }

    static func npsLabel(_ bucket: AnswerSummary.Bucket, t: (String) -> String) -> String {
        switch bucket.value {
        case "promoters": return t("promoters") + " (9–10)"
        case "passives": return t("passives") + " (7–8)"
        case "detractors": return t("detractors") + " (0–6)"
        default: return bucket.label
        }
    }

    /// Rows × columns (a matrix): a table of counts and shares per row, and a 100 % stacked bar per row.
    static func matrixSection(_ buckets: [AnswerSummary.Bucket], title: String, index: Int, t: (String) -> String)
        -> String
    {
        var rows: [(value: String, label: String, cells: [AnswerSummary.Bucket])] = []
        for bucket in buckets {
            guard let group = bucket.group, group != "nps", group != "score" else { continue }
            if let at = rows.firstIndex(where: { $0.value == group }) {
                rows[at].cells.append(bucket)
            } else {
                rows.append((group, bucket.groupLabel ?? group, [bucket]))
            }
        }
        guard let first = rows.first else { return "" }
        let columns = first.cells.map(\.label)
        var html = stackedBar(
            rows.map { row in
                (row.label, row.cells.map { (label: $0.label, share: $0.percentage / 100, count: $0.count) })
            }, title: title,
            alternative: rows.map { row in
                row.label + ": " + row.cells.map { "\($0.label) \($0.count)" }.joined(separator: ", ")
            }.joined(separator: "; "), id: "chart-\(index)-matrix")
        html += table(
            header: [""] + columns,
            rows: rows.map { row in
                [row.label] + row.cells.map { "\($0.count) (\(percent($0.percentage / 100)))" }
            })
        return html
    }

    static func funnelSection(_ report: SurveyReport, t: (String) -> String) -> String {
        guard !report.questions.isEmpty else { return "" }
        var html = "<section class=\"funnel\"><h2>\(escape(t("funnel")))</h2>\n"
        let bars = report.questions.map {
            (
                label: $0.title, value: Double($0.seen),
                note: "\(t("answered")) \($0.answered)"
            )
        }
        html += barChart(
            bars, title: t("funnel"),
            alternative: report.questions.map {
                "\($0.title): \(t("seen")) \($0.seen), \(t("answered")) \($0.answered)"
            }
            .joined(separator: "; "), id: "funnel",
            overlay: report.questions.map { Double($0.answered) })
        html += table(
            header: ["", t("seen"), t("answered"), t("dismissed")],
            rows: report.questions.map { [$0.title, String($0.seen), String($0.answered), String($0.dismissed)] })
        return html + "</section>\n"
    }

    /// The quotas' live counts: id, condition, counted, limit.
    static func quotasSection(_ report: SurveyReport, t: (String) -> String) -> String {
        guard let quotas = report.quotas, !quotas.rows.isEmpty else { return "" }
        return "<section class=\"quotas\"><h2>\(escape(t("quotas")))</h2>\n"
            + table(
                header: ["", t("count"), t("limit")],
                rows: quotas.rows.map { ["\($0.id): \($0.when)", String($0.counted), String($0.limit)] })
            + "</section>\n"
    }

    static func dropOffSection(_ report: SurveyReport, t: (String) -> String) -> String {
        guard report.units.contains(where: { $0.reached > 0 }) else { return "" }
        var html = "<section class=\"dropoff\"><h2>\(escape(t("dropOff")))</h2>\n"
        let bars = report.units.map {
            (
                label: $0.unitID, value: Double($0.stopped),
                note: $0.reached == 0 ? "—" : percent(Double($0.stopped) / Double($0.reached))
            )
        }
        html += barChart(
            bars, title: t("dropOff"),
            alternative: report.units.map { "\($0.unitID): \(t("stopped")) \($0.stopped) / \($0.reached)" }
                .joined(separator: "; "), id: "dropoff")
        html += table(
            header: ["", t("reached"), t("stopped")],
            rows: report.units.map { [$0.unitID, String($0.reached), String($0.stopped)] })
        return html + "</section>\n"
    }

    static func timeSection(_ report: SurveyReport, t: (String) -> String) -> String {
        let timed = report.units.filter { $0.medianSeconds != nil }
        guard !timed.isEmpty else { return "" }
        var html = "<section class=\"time\"><h2>\(escape(t("time")))</h2>\n"
        html += barChart(
            timed.map { (label: $0.unitID, value: $0.medianSeconds ?? 0, note: t("seconds")) }, title: t("time"),
            alternative: timed.map { "\($0.unitID): \(format($0.medianSeconds ?? 0)) \(t("seconds"))" }
                .joined(separator: "; "), id: "time")
        html += table(
            header: ["", t("time")],
            rows: timed.map { [$0.unitID, format($0.medianSeconds ?? 0) + " " + t("seconds")] })
        return html + "</section>\n"
    }

    static func pathsSection(_ report: SurveyReport, t: (String) -> String) -> String {
        guard !report.paths.isEmpty else { return "" }
        return "<section class=\"paths\"><h2>\(escape(t("paths")))</h2>\n"
            + table(
                header: ["", t("count")],
                rows: report.paths.map { [$0.path.joined(separator: " → "), String($0.count)] })
            + "</section>\n"
    }

    // MARK: Pieces

    /// A horizontal bar chart as inline SVG, scaled to the largest value; `overlay` draws a second,
    /// darker bar inside each (answered within seen).
    static func barChart(
        _ bars: [(label: String, value: Double, note: String)], title: String, alternative: String, id: String,
        overlay: [Double]? = nil
    ) -> String {
        let row = 28.0
        let labelWidth = 220.0
        let width = 640.0
        let barSpace = width - labelWidth - 190
        let height = row * Double(bars.count) + 8
        let largest = max(1, bars.map(\.value).max() ?? 1)
        var svg = chartStart(id: id, width: width, height: height, title: title, alternative: alternative)
        for (index, bar) in bars.enumerated() {
            let y = Double(index) * row + 4
            let length = bar.value / largest * barSpace
            svg += rowLabel(bar.label, x: labelWidth - 8, y: y + 18)
            svg +=
                "<rect class=\"bar\" x=\"\(Int(labelWidth))\" y=\"\(format(y + 4))\" width=\"\(format(max(length, 1)))\" height=\"\(Int(row - 8))\" rx=\"3\"/>"
            if let overlay, index < overlay.count {
                svg +=
                    "<rect class=\"bar inner\" x=\"\(Int(labelWidth))\" y=\"\(format(y + 8))\" width=\"\(format(max(overlay[index] / largest * barSpace, 0)))\" height=\"\(Int(row - 16))\" rx=\"2\"/>"
            }
            svg +=
                "<text class=\"value\" x=\"\(format(labelWidth + length + 6))\" y=\"\(format(y + 18))\">\(format(bar.value)) · \(escape(bar.note))</text>\n"
        }
        return svg + "</svg></figure>\n"
    }

    /// Horizontal 100 % stacked bars as inline SVG, one per row, with a legend; segment shades
    /// cycle through five classes.
    static func stackedBar(
        _ rows: [(label: String, segments: [(label: String, share: Double, count: Int)])], title: String,
        alternative: String, id: String
    ) -> String {
        let row = 30.0
        let labelWidth = rows.contains { !$0.label.isEmpty } ? 220.0 : 8.0
        let width = 640.0
        let barSpace = width - labelWidth - 16
        let legend = rows.first?.segments.map(\.label) ?? []
        let height = row * Double(rows.count) + 22 * Double((legend.count + 2) / 3) + 12
        var svg = chartStart(
            id: id, kind: "stacked", width: width, height: height, title: title, alternative: alternative)
        for (index, bar) in rows.enumerated() {
            let y = Double(index) * row + 4
            if !bar.label.isEmpty {
                svg += rowLabel(bar.label, x: labelWidth - 8, y: y + 18)
            }
            let total = bar.segments.reduce(0) { $0 + max(0, $1.share) }
            var x = labelWidth
            for (k, segment) in bar.segments.enumerated() where segment.share > 0 {
                let length = total == 0 ? 0 : segment.share / total * barSpace
                svg +=
                    "<rect class=\"segment s\(k % 5)\" x=\"\(format(x))\" y=\"\(format(y + 4))\" width=\"\(format(length))\" height=\"\(Int(row - 8))\"><title>\(escape(segment.label)): \(segment.count) (\(escape(percent(segment.share))))</title></rect>"
                if length > 44 {
                    svg +=
                        "<text class=\"inside\" x=\"\(format(x + 4))\" y=\"\(format(y + 19))\">\(escape(percent(segment.share)))</text>"
                }
                x += length
            }
            svg += "\n"
        }
        for (k, label) in legend.enumerated() {
            let x = 8 + Double(k % 3) * 210
            let y = row * Double(rows.count) + 10 + Double(k / 3) * 22
            let short = shortened(label, to: 24)
            svg +=
                "<rect class=\"segment s\(k % 5)\" x=\"\(format(x))\" y=\"\(format(y))\" width=\"14\" height=\"14\"/><text x=\"\(format(x + 20))\" y=\"\(format(y + 12))\">\(escape(short))</text>"
        }
        return svg + "</svg></figure>\n"
    }

    /// The opening of a chart: the figure, the SVG element (of class `kind`, if any) labelled by its
    /// title and its text alternative.
    static func chartStart(
        id: String, kind: String? = nil, width: Double, height: Double, title: String, alternative: String
    ) -> String {
        let kindAttribute = kind.map { " class=\"\(escape($0))\"" } ?? ""
        return """
            <figure class="chart"><svg id="\(escape(id))"\(kindAttribute) role="img" aria-labelledby="\(escape(id))-title \(escape(id))-desc" viewBox="0 0 \(Int(width)) \(Int(height))" width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">
            <title id="\(escape(id))-title">\(escape(title))</title><desc id="\(escape(id))-desc">\(escape(alternative))</desc>

            """
    }

    /// A bar's label, right-aligned at `x`, shortened to 26 characters.
    static func rowLabel(_ label: String, x: Double, y: Double) -> String {
        "<text class=\"label\" x=\"\(Int(x))\" y=\"\(format(y))\" text-anchor=\"end\">\(escape(shortened(label, to: 26)))</text>"
    }

    /// `text` cut to `limit` characters, the last one an ellipsis, when it is longer.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    static func table(header: [String], rows: [[String]]) -> String {
        var html = "<table><thead><tr>" + header.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in rows {
            html +=
                "<tr>"
                + row.enumerated().map { index, cell in
                    index == 0 ? "<th scope=\"row\"><bdi>\(escape(cell))</bdi></th>" : "<td>\(escape(cell))</td>"
                }.joined() + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// `text` safe in HTML text and in a quoted attribute (``Markup/escape(_:)``).
    public static func escape(_ text: String) -> String { Markup.escape(text) }

    static func percent(_ share: Double) -> String {
        String(format: "%.1f %%", share * 100)
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.2f", value)
    }

    static let css = """
        :root{--bar:#3b6fd8;--inner:#18357a;--ink:#1b1f24;--muted:#5b6470;--line:#d9dde3}
        body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);margin:0 auto;max-width:60rem;padding:1rem}
        h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .3rem}code{color:var(--muted);font-size:.8em}
        .totals span{display:inline-block;margin-right:1.2rem}.facts,.empty{color:var(--muted);margin:.2rem 0}
        section{border-top:1px solid var(--line);padding-bottom:.5rem}figure{margin:.4rem 0}
        svg .bar{fill:var(--bar)}svg .inner{fill:var(--inner)}svg .s0{fill:#c0392b}svg .s1{fill:#9aa3ad}svg .s2{fill:#2e8b57}svg .s3{fill:#3b6fd8}svg .s4{fill:#d68910}svg text.inside{fill:#fff;font-size:12px}.score{font-size:1.1rem}h3{font-size:1rem;margin:.8rem 0 .2rem}svg text{font-size:13px;fill:var(--ink)}svg .value{fill:var(--muted)}
        table{border-collapse:collapse;margin:.4rem 0;font-size:.9rem}th,td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left}
        td{text-align:right}.texts ul{max-height:20rem;overflow:auto;padding-left:1.2rem}
        @media (max-width:40rem){body{padding:.5rem}svg text{font-size:16px}}
        @media print{details{display:block}details>summary{display:none}.texts ul{max-height:none}input{display:none}}
        """

    /// Filters a question's text answers as one types; the page reads the same without it.
    static let script = """
        document.querySelectorAll('input[data-list]').forEach(function(box){box.addEventListener('input',function(){var q=box.value.toLowerCase();document.getElementById(box.dataset.list).querySelectorAll('li').forEach(function(li){li.hidden=q!==''&&li.textContent.toLowerCase().indexOf(q)===-1;});});});
        """
}
