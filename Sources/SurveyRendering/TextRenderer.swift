import Foundation
import SurveyCore

/// The terminal front end: asks one question at a time, in the respondent's language.
///
/// Numbered choices (`2`, or `1,3` for several), "Other" asks for its text, stars for ratings,
/// the scale's range and end labels, yes/no styles with their symbols, forms field by field and
/// matrices row by row. `b` goes back, `d` dismisses the survey ("don't ask again") and `q` quits at every prompt; the end of input quits too
/// (the driver saves the state). Invalid input is asked again with the question type's own
/// message. With ``Style/plain`` the output is plain, line-oriented text (every prompt ends with a
/// line break), for pipes, `expect`-style scripts and golden files.
///
/// ```swift
/// var renderer = TextRenderer(input: StandardInputLines(), style: .detect(), output: { print($0, terminator: "") })
/// _ = driver.run(with: &renderer)
/// ```
public struct TextRenderer: SurveyRenderer {
    /// How the output looks.
    public struct Style: Sendable, Hashable {
        /// ANSI colours and bold text.
        public var usesColor: Bool
        /// Unicode symbols (★, ☺, 👍, █); ASCII stand-ins otherwise.
        public var usesSymbols: Bool
        /// Prompts stay on the input line (a terminal); otherwise every prompt ends with a line break.
        public var isInteractive: Bool

        /// Creates a style.
        public init(usesColor: Bool, usesSymbols: Bool, isInteractive: Bool) {
            self.usesColor = usesColor
            self.usesSymbols = usesSymbols
            self.isInteractive = isInteractive
        }

        /// Line-oriented output without colour, with Unicode symbols.
        public static let plain = Style(usesColor: false, usesSymbols: true, isInteractive: false)

        /// Line-oriented ASCII output.
        public static let ascii = Style(usesColor: false, usesSymbols: false, isInteractive: false)

        /// The style for a terminal: colour only when standard output is a terminal and `NO_COLOR`
        /// is unset; symbols unless `TERM` is `dumb`.
        /// - Parameters:
        ///   - isTerminal: whether standard output is a terminal.
        ///   - environment: the process environment.
        public static func detect(isTerminal: Bool, environment: [String: String]) -> Style {
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            let dumb = environment["TERM"] == "dumb"
            return Style(usesColor: isTerminal && !noColor && !dumb, usesSymbols: !dumb, isInteractive: isTerminal)
        }
    }

    var input: any LineSource
    let write: (String) -> Void
    /// How the output looks.
    public var style: Style
    var strings = UIStrings(locale: "en")
    var visit = -1
    var asked: Set<String> = []
    var shownContent: Set<String> = []
    var skippedErrors: Set<String> = []
    /// Panels whose heading was printed on this visit.
    var shownPanels: Set<String> = []
    /// Validator warnings and notes already printed on this visit (step id and message).
    var shownNotices: Set<String> = []
    /// Questions whose comment box was asked on this visit.
    var askedComments: Set<String> = []
    var drafts: [String: [String: JSONValue]] = [:]
    /// Where the respondent is in a repeat being filled in, by question id (each answered field is
    /// sent at once, so that the engine decides what the next fields of the instance are).
    var repeatCursors: [String: RepeatCursor] = [:]
    /// Where keys come from in the interactive mode; `nil` in line mode.
    var keys: (any KeySource)?
    /// The interactive mode's state between prompts.
    let live = InteractiveState()
    /// The survey's title, shown at the top of each screen in the interactive mode.
    var surveyTitle: String?

    /// A renderer reading lines from `input` and writing text to `output` (which adds no line breaks).
    public init(input: some LineSource, style: Style = .plain, output: @escaping (String) -> Void) {
        self.input = input
        self.style = style
        write = output
    }

    /// The interactive mode: reads keys from `keys` (a ``Terminal``), moves through lists with the
    /// arrow keys and edits lines in place, on a screen redrawn for each unit. `output` writes to the
    /// same terminal. The answers and the flow are the line mode's: a list gives the line that would
    /// have been typed.
    ///
    /// ```swift
    /// if let terminal = Terminal() {
    ///     var renderer = TextRenderer(keys: terminal, style: .detect(isTerminal: true, environment: environment)) {
    ///         print($0, terminator: "")
    ///     }
    ///     _ = terminal.withRawMode { driver.run(with: &renderer) }
    /// }
    /// ```
    public init(keys: some KeySource, style: Style, output: @escaping (String) -> Void) {
        self.input = ArrayLineSource([])
        self.keys = keys
        var style = style
        style.isInteractive = true
        self.style = style
        write = output
    }

    // MARK: SurveyRenderer

    public mutating func action(for request: StepRequest) -> RendererAction {
        let presentation = request.presentation
        strings = presentation.strings
        if request.visit != visit {
            visit = request.visit
            asked = []
            shownContent = []
            skippedErrors = []
            shownPanels = []
            shownNotices = []
            askedComments = []
            if !isKeyed { showHeader(presentation) }
        }
        if isKeyed {
            // Each prompt on a fresh screen: the title, progress and headings always at the same places.
            shownContent = []
            shownPanels = []
            clearScreen()
            showHeader(presentation)
            flushMessages()
        }
        // A required panel left unanswered: say so, and ask its questions again.
        for panel in presentation.panels {
            guard let error = panel.error, skippedErrors.insert(panel.id).inserted else { continue }
            line(paint("! " + (panel.title.map { $0 + ": " } ?? "") + error.message, .red))
            for question in presentation.questions where panelChain(of: question, in: presentation).contains(panel.id) {
                asked.remove(question.id)
            }
        }
        // Warnings and notes of answers just given: said once, they never block.
        for question in presentation.questions where asked.contains(question.id) {
            for notice in question.notices where shownNotices.insert(question.id + "\u{0}" + notice.message).inserted {
                line(paint((notice.severity == .warning ? "⚠ " : "ℹ ") + notice.message, .yellow))
            }
        }
        var hasAnswerable = false
        for question in presentation.questions {
            showPanelHeadings(for: question, in: presentation)
            guard question.collectsAnswer else {
                if shownContent.insert(question.id).inserted { showContent(question) }
                continue
            }
            // Read-only: shown with its answer, never asked.
            if question.isReadOnly {
                if shownContent.insert(question.id).inserted {
                    showTitle(question)
                    line(paint("= " + (question.answer.map { display($0, for: question.input) } ?? "—"), .dim))
                }
                continue
            }
            hasAnswerable = true
            let isErroneous = question.error != nil && !skippedErrors.contains(question.id)
            // The comment box, once the question itself was asked.
            if !isErroneous, asked.contains(question.id), let area = question.commentArea,
                askedComments.insert(question.id).inserted
            {
                switch readLine(prompt: area.label + (area.text.map { " [\($0)]" } ?? "")) {
                case .command(let action): return action
                case .line(let text):
                    if !text.allSatisfy(\.isWhitespace) { return .answer(stepID: area.key, value: .string(text)) }
                }
            }
            guard isErroneous || !asked.contains(question.id) || repeatCursors[question.id] != nil else { continue }
            asked.insert(question.id)
            switch ask(question, presentation: presentation, parser: request.lineParser) {
            case .some(let action): return action
            case .none: if isErroneous { skippedErrors.insert(question.id) }
            }
        }
        if !hasAnswerable {
            switch readLine(prompt: "[\(strings[.enterKey])] " + strings[.continue]) {
            case .command(let action): return action
            case .line: return .next
            }
        }
        return .next
    }

    public mutating func receive(_ event: RendererEvent) {
        switch event {
        case .started(let info):
            strings = info.strings
            surveyTitle = info.title
            if isKeyed { return }
            line(paint(info.title, .bold))
            if let description = info.description { line(description) }
            line(paint("[b] \(strings[.back])   [d] \(strings[.dontAskAgain])   [q] \(strings[.quit])", .dim))
        case .answered(let stepID, _):
            drafts[stepID] = nil
        case .validationFailed:
            skippedErrors = []
        case .rejected(let error) where isKeyed:
            live.pendingMessages.append(
                paint("! " + (error.code == "cannotGoBack" ? strings[.atFirstQuestion] : error.message), .red))
        case .rejected(let error):
            // Back on the first unit is the one refusal a respondent causes by typing; say it in their language.
            line(paint("! " + (error.code == "cannotGoBack" ? strings[.atFirstQuestion] : error.message), .red))
        case .completed(let result):
            flushMessages()
            line("")
            line(paint(result.message ?? strings[result.quota == nil ? .completed : .surveyEnded], .green))
            // Where the survey sends the respondent next (a web front end goes there): the address alone.
            if let redirect = result.redirect { line(redirect) }
        case .dismissed:
            flushMessages()
            line(strings[.dismissed])
        case .empty:
            line(strings[.surveyEmpty])
        case .quit(_, let location):
            flushMessages()
            if let location {
                line("")
                line(strings.format(.savedProgress, ["file": location]))
            }
        }
    }

    // MARK: Layout

    mutating func showHeader(_ presentation: StepPresentation) {
        line("")
        let progress = presentation.progress
        if progress.isCounted, progress.total > 0 {
            let text = strings.format(
                .progress, ["current": String(progress.current), "total": String(progress.total)])
            line(paint(text, .dim) + "  " + paint(bar(progress.fraction), .cyan))
        }
        if presentation.isPage {
            if let title = presentation.title { line(paint(title, .bold)) }
            if let description = presentation.description { line(description) }
        }
    }

    /// The panels `question` is in, outer first.
    func panelChain(of question: QuestionPresentation, in presentation: StepPresentation) -> [String] {
        var chain: [String] = []
        var current = question.panel
        while let id = current, !chain.contains(id) {
            chain.insert(id, at: 0)
            current = presentation.panels.first { $0.id == id }?.parent
        }
        return chain
    }

    /// Prints the title and description of each panel `question` is in, the first time.
    mutating func showPanelHeadings(for question: QuestionPresentation, in presentation: StepPresentation) {
        guard question.panel != nil else { return }
        for id in panelChain(of: question, in: presentation) where shownPanels.insert(id).inserted {
            guard let panel = presentation.panels.first(where: { $0.id == id }) else { continue }
            if let title = panel.title {
                line("")
                line(paint("— " + title + (panel.isRequired ? " *" : ""), .bold))
            }
            if let description = panel.description { line(paint(description, .dim)) }
        }
    }

    func bar(_ fraction: Double) -> String {
        let width = 20
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded())))
        let (full, empty) = style.usesSymbols ? ("█", "░") : ("#", "-")
        return "[" + String(repeating: full, count: filled) + String(repeating: empty, count: width - filled) + "]"
    }

    func showContent(_ question: QuestionPresentation) {
        line(paint(question.title, .bold))
        if let description = question.description { line(description) }
        showBody(question.content)
    }

    func showTitle(_ question: QuestionPresentation) {
        line("")
        line(paint(question.title, .bold) + (question.isRequired ? paint(" *", .red) : ""))
        if let description = question.description { line(paint(description, .dim)) }
        showBody(question.content)
    }

    /// The body text of a content step, then its media as `[image: reference] alternative text`.
    func showBody(_ content: ContentPresentation?) {
        guard let content else { return }
        if let body = content.body, !body.isEmpty { line(body) }
        if let media = content.media { line(mediaLine(media)) }
    }

    /// `[video: https://example.com/tour.mp4] A short screen recording`.
    func mediaLine(_ media: MediaReference) -> String {
        let reference = paint("[\(media.kind): \(media.reference)]", .cyan)
        guard let alternative = media.alternativeText, !alternative.isEmpty else { return reference }
        return reference + " " + paint(alternative, .dim)
    }

    // MARK: Output helpers

    enum Paint { case bold, dim, red, green, yellow, cyan }

    func paint(_ text: String, _ paint: Paint) -> String {
        guard style.usesColor, !text.isEmpty else { return text }
        let code: String
        switch paint {
        case .bold: code = "1"
        case .dim: code = "2"
        case .red: code = "31"
        case .green: code = "32"
        case .yellow: code = "33"
        case .cyan: code = "36"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    func line(_ text: String) {
        if isKeyed { closeRegion() }
        write(text + "\n")
    }

    enum Reply {
        case line(String)
        case command(RendererAction)
    }

    /// Shows `prompt` and reads a line; `b`, `d` and `q` are commands, the end of input is `q`.
    mutating func readLine(prompt: String) -> Reply {
        if isKeyed { return editLine(prompt: prompt) }
        let marker = style.usesSymbols ? "› " : "> "
        write(paint(prompt.isEmpty ? marker : prompt + " " + marker, .cyan) + (style.isInteractive ? "" : "\n"))
        var text = ""
        while true {
            guard let checked = input.readCheckedLine() else { return .command(.quit) }
            if case .text(let line) = checked {
                text = line
                break
            }
            // Bytes that are not UTF-8, or a line past the limit, are never taken as an answer.
            if case .tooLong(_, let limit) = checked {
                showError(strings.format(.lineTooLong, ["max": String(limit >> 20)]))
            } else {
                showError(strings[.invalidText])
            }
            write(paint(prompt.isEmpty ? marker : prompt + " " + marker, .cyan) + (style.isInteractive ? "" : "\n"))
        }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "b": return .command(.back)
        case "d": return .command(.dismiss)
        case "q": return .command(.quit)
        default: return .line(text)
        }
    }

    func showError(_ message: String) {
        if isKeyed {
            // Shown by the next prompt, under it, in place of the refused one.
            live.pendingError = message
            return
        }
        line(paint("! " + message, .red))
    }
}
