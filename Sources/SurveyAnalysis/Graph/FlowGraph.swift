import Foundation
import SurveyCore

/// A survey's flow as a graph: units (pages and steps outside pages) as nodes, the default next step
/// and every branch as edges, with the analysis's verdict on which units and edges respondents can
/// reach. Exported as Graphviz dot or Mermaid.
///
/// ```swift
/// let graph = FlowGraph(survey: survey)
/// print(graph.rendered(as: .dot))   // pipe into `dot -Tsvg -o flow.svg`
/// ```
public struct FlowGraph: Sendable {
    /// Export formats.
    public enum Format: String, Sendable, CaseIterable {
        case dot
        case mermaid
    }

    /// One question of a unit.
    public struct Question: Sendable, Hashable {
        public var id: String
        public var type: String
        public var visibleIf: String?
        public var isRequired: Bool
        public var isEnabled: Bool
        /// Whether some respondent can see it.
        public var isReachable: Bool
    }

    /// A page or a step outside pages.
    public struct Node: Sendable, Hashable {
        public var id: String
        public var isPage: Bool
        public var title: LocalizedText?
        /// The page's own `visibleIf` (a step outside pages has its condition on its question).
        public var visibleIf: String?
        public var isEnabled: Bool
        public var questions: [Question]
        /// Whether some respondent can see it.
        public var isReachable: Bool
    }

    /// How the flow goes from one node to another.
    public struct Edge: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// Next, when no branch applies.
            case next
            /// The source is hidden: the flow passes it by.
            case skip
            /// A branch, with its condition (`nil`: always) and the question it is on (`nil`: the page).
            case branch(condition: String?, question: String?)
        }

        /// Node indices; ``FlowGraph/nodes``'s count stands for "completed".
        public var from: Int
        public var to: Int
        public var kind: Kind
        /// Whether some respondent can take it.
        public var isFeasible: Bool
    }

    public var surveyID: String
    public var title: LocalizedText
    public var defaultLocale: String
    public var nodes: [Node]
    public var edges: [Edge]

    /// The flow of `survey`, analysed.
    public init(survey: Survey) {
        let analyzed = AnalyzedSurvey(survey: survey)
        let model = analyzed.model
        let flow = analyzed.flow
        var stepReachable = [Bool](repeating: true, count: model.stepCount)
        flow.run { states in
            let unit = model.units[states.unit]
            for step in unit.steps {
                if let inUnit = states.inUnit {
                    stepReachable[step] = analyzed.evaluator.canHold(flow.predicates.stepVisible[step], in: inUnit)
                } else {
                    stepReachable[step] = false
                }
            }
        }
        surveyID = survey.id
        title = survey.definition.title
        defaultLocale = survey.definition.defaultLocale
        nodes = model.units.enumerated().map { index, unit in
            let definition =
                survey.definition.steps.indices.contains(unit.unitOffset)
                ? survey.definition.steps[unit.unitOffset] : nil
            return Node(
                id: unit.id, isPage: unit.isPage,
                title: unit.isPage ? definition?.title : model.steps[unit.steps.lowerBound].definition.title,
                visibleIf: unit.isPage ? unit.visibleIf?.source : nil, isEnabled: unit.isEnabled,
                questions: unit.steps.map { step in
                    let info = model.steps[step]
                    return Question(
                        id: info.id, type: info.question.typeID, visibleIf: info.visibleIf?.source,
                        isRequired: info.isRequired, isEnabled: info.isEnabled,
                        isReachable: stepReachable[step])
                },
                isReachable: flow.isShown[index])
        }
        let feasible = Set(flow.edges)
        var edges: [Edge] = []
        for (index, unit) in model.units.enumerated() {
            let guards = flow.predicates.branches[index]
            var fallsThrough = true
            for (position, item) in guards.enumerated() {
                let question: String?
                if case .step(let step) = item.owner, unit.isPage {
                    question = model.steps[step].id
                } else {
                    question = nil
                }
                let to = item.branch.targetUnit ?? model.units.count
                edges.append(
                    Edge(
                        from: index, to: to,
                        kind: .branch(condition: item.branch.condition?.source, question: question),
                        isFeasible: feasible.contains(FlowEdge(from: index, to: to, kind: .branch(position)))))
                // An unconditional branch on the page, or on a question that is always there, ends the list.
                if item.branch.condition == nil {
                    switch item.owner {
                    case .unit: fallsThrough = false
                    case .step(let step):
                        if model.steps[step].visibleIf == nil && model.steps[step].isEnabled { fallsThrough = false }
                    }
                }
                if !fallsThrough { break }
            }
            if fallsThrough {
                edges.append(
                    Edge(
                        from: index, to: index + 1, kind: .next,
                        isFeasible: feasible.contains(FlowEdge(from: index, to: index + 1, kind: .next))))
            }
            let skip = FlowEdge(from: index, to: index + 1, kind: .skip)
            if feasible.contains(skip) {
                edges.append(Edge(from: index, to: index + 1, kind: .skip, isFeasible: true))
            }
        }
        self.edges = edges
    }

    /// The graph in `format`, with titles in `locale` (default: the survey's default locale).
    public func rendered(as format: Format, locale: String? = nil) -> String {
        switch format {
        case .dot: return dot(locale: locale ?? defaultLocale)
        case .mermaid: return mermaid(locale: locale ?? defaultLocale)
        }
    }

    // MARK: Labels

    func lines(of node: Node, locale: String) -> [String] {
        var lines: [String] = []
        let title = node.title.map { Self.shortened($0.resolved(locale: locale, defaultLocale: defaultLocale), 48) }
        if node.isPage {
            lines.append("page " + node.id)
            if let title, !title.isEmpty { lines.append(title) }
            if let visibleIf = node.visibleIf { lines.append("if " + Self.shortened(visibleIf, 60)) }
            for question in node.questions {
                var line = "• " + question.id + (question.isRequired ? " *" : "") + " (" + question.type + ")"
                if !question.isEnabled { line += " [off]" }
                if let visibleIf = question.visibleIf { line += " if " + Self.shortened(visibleIf, 48) }
                if question.isEnabled, node.isReachable, !question.isReachable { line += " [unreachable]" }
                lines.append(line)
            }
        } else if let question = node.questions.first {
            lines.append(question.id + (question.isRequired ? " *" : "") + " (" + question.type + ")")
            if let title, !title.isEmpty { lines.append(title) }
            if let visibleIf = question.visibleIf { lines.append("if " + Self.shortened(visibleIf, 60)) }
            if !question.isEnabled { lines.append("[switched off]") }
        }
        if node.isEnabled, node.questions.contains(where: \.isEnabled), !node.isReachable {
            lines.append("UNREACHABLE")
        }
        return lines
    }

    func label(of edge: Edge) -> String? {
        switch edge.kind {
        case .next:
            let hasBranches = edges.contains {
                if case .branch = $0.kind { return $0.from == edge.from }
                return false
            }
            return hasBranches ? "otherwise" : nil
        case .skip:
            return nodes.indices.contains(edge.from) && !nodes[edge.from].isReachable ? "always passed by" : "if hidden"
        case .branch(let condition, let question):
            let text = condition.map { Self.shortened($0, 60) } ?? "always"
            return question.map { "\($0): \(text)" } ?? text
        }
    }

    static func shortened(_ text: String, _ length: Int) -> String {
        let single = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return single.count <= length ? single : String(single.prefix(length - 1)) + "…"
    }

    // MARK: Graphviz

    func dot(locale: String) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var out = "digraph " + quoted(surveyID) + " {\n"
        out +=
            "  graph [rankdir=TB, fontname=\"Helvetica\", label="
            + quoted(title.resolved(locale: locale, defaultLocale: defaultLocale)) + ", labelloc=t];\n"
        out += "  node [shape=box, style=\"rounded\", fontname=\"Helvetica\", fontsize=11];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=9];\n"
        out += "  start [shape=circle, label=\"\", width=0.25, style=filled, fillcolor=black];\n"
        out += "  completed [shape=doublecircle, label=\"done\", width=0.5];\n"
        for (index, node) in nodes.enumerated() {
            let text = lines(of: node, locale: locale).map {
                $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            }
            var attributes = ["label=\"" + text.joined(separator: "\\l") + "\\l\""]
            if !node.isEnabled || !node.questions.contains(where: \.isEnabled) {
                attributes.append("style=\"rounded,dotted\"")
                attributes.append("fontcolor=gray40")
            } else if !node.isReachable {
                attributes.append("style=\"rounded,dashed\"")
                attributes.append("color=red")
                attributes.append("fontcolor=red")
            } else if node.isPage {
                attributes.append("style=\"rounded,filled\"")
                attributes.append("fillcolor=\"#f3f6fb\"")
            }
            out += "  u\(index) [" + attributes.joined(separator: ", ") + "];\n"
        }
        out += "  start -> u0;\n"
        for edge in edges {
            let to = edge.to == nodes.count ? "completed" : "u\(edge.to)"
            var attributes: [String] = []
            if let label = label(of: edge) { attributes.append("label=" + quoted(label)) }
            switch edge.kind {
            case .skip: attributes += ["style=dashed", "color=gray50", "fontcolor=gray40"]
            case .branch: attributes += ["color=\"#1f5fbf\"", "fontcolor=\"#1f5fbf\""]
            case .next: break
            }
            if !edge.isFeasible { attributes += ["style=dotted", "color=red", "fontcolor=red"] }
            out +=
                "  u\(edge.from) -> \(to)" + (attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]")
                + ";\n"
        }
        out += "}\n"
        return out
    }

    // MARK: Mermaid

    func mermaid(locale: String) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "#amp;").replacingOccurrences(of: "\"", with: "#quot;")
                .replacingOccurrences(of: "<", with: "#lt;").replacingOccurrences(of: ">", with: "#gt;")
                .replacingOccurrences(of: "{", with: "#123;").replacingOccurrences(of: "}", with: "#125;")
                .replacingOccurrences(of: "|", with: "#124;")
        }
        var out = "flowchart TD\n"
        out += "  start((start))\n"
        out += "  completed(((done)))\n"
        var unreachable: [String] = []
        var switchedOff: [String] = []
        for (index, node) in nodes.enumerated() {
            let text = lines(of: node, locale: locale).map(escaped).joined(separator: "<br/>")
            out += "  u\(index)[\"" + text + "\"]\n"
            if !node.isEnabled || !node.questions.contains(where: \.isEnabled) {
                switchedOff.append("u\(index)")
            } else if !node.isReachable {
                unreachable.append("u\(index)")
            }
        }
        out += "  start --> u0\n"
        for edge in edges {
            let to = edge.to == nodes.count ? "completed" : "u\(edge.to)"
            let arrow: String
            switch edge.kind {
            case .skip: arrow = "-.->"
            default: arrow = edge.isFeasible ? "-->" : "-.->"
            }
            let label =
                label(of: edge).map { "|\"" + escaped($0) + (edge.isFeasible ? "" : " (never taken)") + "\"|" } ?? ""
            out += "  u\(edge.from) \(arrow)\(label) \(to)\n"
        }
        out += "  classDef unreachable stroke:#d00,stroke-dasharray:5 5,color:#d00\n"
        out += "  classDef off stroke:#999,stroke-dasharray:2 2,color:#777\n"
        if !unreachable.isEmpty { out += "  class " + unreachable.joined(separator: ",") + " unreachable\n" }
        if !switchedOff.isEmpty { out += "  class " + switchedOff.joined(separator: ",") + " off\n" }
        return out
    }
}
