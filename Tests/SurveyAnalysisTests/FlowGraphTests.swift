import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

@Suite("FlowGraph")
struct FlowGraphTests {
    static let json = surveyJSON(
        """
        {"id": "color", "type": "single-choice", "required": true, "options": {"choices": ["red", "green"]},
         "branches": [{"if": "{color} = 'red'", "goto": "end"}, {"goto": "end"}]},
        {"id": "skipped", "type": "text"},
        {"id": "p", "type": "page", "visibleIf": "{color} = 'green'", "steps": [{"id": "q", "type": "text", "required": true}]},
        {"id": "end", "type": "content", "options": {"body": "Bye"}}
        """)

    @Test func nodesEdgesAndReachability() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.json)
        let graph = FlowGraph(survey: survey)
        #expect(graph.nodes.map(\.id) == ["color", "skipped", "p", "end"])
        #expect(graph.nodes.map(\.isReachable) == [true, false, false, true])
        #expect(graph.nodes[2].visibleIf == "{color} = 'green'")
        #expect(graph.nodes[2].questions.map(\.isRequired) == [true])
        // The unconditional branch ends the list: no default next edge from 'color'.
        let fromColor = graph.edges.filter { $0.from == 0 }
        #expect(fromColor.count == 2)
        #expect(fromColor.allSatisfy { if case .branch = $0.kind { return true } else { return false } })
        #expect(graph.edges.contains { $0.from == 3 && $0.to == graph.nodes.count && $0.kind == .next })
    }

    @Test func dotAndMermaid() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.json)
        let graph = FlowGraph(survey: survey)
        let dot = graph.rendered(as: .dot)
        #expect(dot.hasPrefix("digraph \"test\" {\n"))
        #expect(dot.contains("u0 -> u3 [label=\"{color} = 'red'\""))
        #expect(dot.contains("UNREACHABLE"))
        #expect(dot.hasSuffix("}\n"))
        let mermaid = graph.rendered(as: .mermaid)
        #expect(mermaid.hasPrefix("flowchart TD\n"))
        #expect(mermaid.contains("#123;color#125; = 'red'"))
        #expect(mermaid.contains("class u1,u2 unreachable"))
    }
}
