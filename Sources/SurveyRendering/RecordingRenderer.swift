import SurveyCore

/// A renderer that plays a fixed list of actions, then quits: the simplest double for tests.
///
/// ```swift
/// var renderer = ScriptedRenderer(actions: [.answer(stepID: "q1", value: true), .next])
/// ```
public struct ScriptedRenderer: SurveyRenderer {
    /// The actions not yet played.
    public private(set) var remaining: ArraySlice<RendererAction>

    /// Plays `actions` in order; `.quit` once they run out.
    public init(actions: [RendererAction]) {
        remaining = ArraySlice(actions)
    }

    public mutating func action(for request: StepRequest) -> RendererAction {
        remaining.popFirst() ?? .quit
    }
}

/// Wraps a renderer and records every request and event it sees, in memory.
///
/// ```swift
/// var recorder = RecordingRenderer(ScriptedRenderer(actions: [.next]))
/// _ = driver.run(with: &recorder)
/// recorder.requests.map(\.presentation.unitID)
/// ```
public struct RecordingRenderer<Base: SurveyRenderer>: SurveyRenderer {
    /// One thing the renderer saw or did, in order.
    public enum Entry: Sendable {
        case request(StepRequest)
        case action(RendererAction)
        case event(RendererEvent)
    }

    /// The wrapped renderer.
    public private(set) var base: Base
    /// Everything in order.
    public private(set) var entries: [Entry] = []

    /// Records what `base` sees and does.
    public init(_ base: Base) {
        self.base = base
    }

    /// Every request, in order.
    public var requests: [StepRequest] {
        entries.compactMap { if case .request(let request) = $0 { return request } else { return nil } }
    }

    /// Every event, in order.
    public var events: [RendererEvent] {
        entries.compactMap { if case .event(let event) = $0 { return event } else { return nil } }
    }

    /// Every action returned, in order.
    public var actions: [RendererAction] {
        entries.compactMap { if case .action(let action) = $0 { return action } else { return nil } }
    }

    public mutating func action(for request: StepRequest) -> RendererAction {
        entries.append(.request(request))
        let action = base.action(for: request)
        entries.append(.action(action))
        return action
    }

    public mutating func receive(_ event: RendererEvent) {
        entries.append(.event(event))
        base.receive(event)
    }
}
