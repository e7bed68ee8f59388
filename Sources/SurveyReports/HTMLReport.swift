import Foundation
import SurveyCore

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
        if !summary.buckets.isEmpty {
            let bars = summary.buckets.map {
                (label: $0.label, value: Double($0.count), note: percent($0.percentage / 100))
            }
            let alternative = summary.buckets.map { "\($0.label): \($0.count) (\(percent($0.percentage / 100)))" }
                .joined(separator: "; ")
            html += barChart(bars, title: question.title, alternative: alternative, id: "chart-\(index)")
            html += "<details><summary>\(escape(t("value"))) / \(escape(t("count")))</summary>\n"
            html += table(
                header: [t("value"), t("count"), t("share")],
                rows: summary.buckets.map { [$0.label, String($0.count), percent($0.percentage / 100)] })
            html += "</details>\n"
        }
        if !question.texts.isEmpty {
            html +=
                "<div class=\"texts\"><label>\(escape(t("search"))) <input type=\"search\" data-list=\"texts-\(index)\"></label>\n"
            html += "<ul id=\"texts-\(index)\">\n"
            for text in question.texts { html += "<li><bdi>\(escape(text))</bdi></li>\n" }
            html += "</ul></div>\n"
        }
        return html + "</section>\n"
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
        var svg = """
            <figure class="chart"><svg id="\(escape(id))" role="img" aria-labelledby="\(escape(id))-title \(escape(id))-desc" viewBox="0 0 \(Int(width)) \(Int(height))" width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">
            <title id="\(escape(id))-title">\(escape(title))</title><desc id="\(escape(id))-desc">\(escape(alternative))</desc>

            """
        for (index, bar) in bars.enumerated() {
            let y = Double(index) * row + 4
            let length = bar.value / largest * barSpace
            let label = bar.label.count > 26 ? String(bar.label.prefix(25)) + "…" : bar.label
            svg +=
                "<text class=\"label\" x=\"\(Int(labelWidth - 8))\" y=\"\(format(y + 18))\" text-anchor=\"end\">\(escape(label))</text>"
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
        svg .bar{fill:var(--bar)}svg .inner{fill:var(--inner)}svg text{font-size:13px;fill:var(--ink)}svg .value{fill:var(--muted)}
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
