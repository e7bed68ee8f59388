import SurveyCore

/// The JSON-event front end: JSON Lines over any line source and sink, so a UI in any language can
/// drive the engine. See `docs/json-event-protocol.md`.
///
/// Bad input (invalid JSON, an unknown command, a missing member) produces an `error` event and
/// the session goes on; the end of input counts as `quit`, so the answers given are never lost.
///
/// ```swift
/// var renderer = JSONEventRenderer(input: StandardInputLines()) { print($0) }
/// var driver = SurveyDriver(session: SurveySession(survey: survey))
/// _ = driver.run(with: &renderer)
/// ```
public struct JSONEventRenderer: SurveyRenderer {
    var input: any LineSource
    var transcript: EventTranscript

    /// A renderer reading commands from `input` and writing one event per call of `output`.
    public init(input: some LineSource, output: @escaping (String) -> Void) {
        self.input = input
        transcript = EventTranscript(write: output)
    }

    /// A renderer handing over each event as a value, before it is written as a line
    /// (`EventProtocol.line`): for the fuzz target, which reads the events and writes few of them.
    package init(input: some LineSource, values: @escaping (JSONValue) -> Void) {
        self.input = input
        transcript = EventTranscript(values: values)
    }

    public mutating func action(for request: StepRequest) -> RendererAction {
        transcript.show(request)
        while let checked = input.readCheckedLine() {
            guard case .text(let line) = checked else {
                switch checked {
                case .invalidUTF8(let offset):
                    transcript.emit(
                        EventProtocol.json(
                            of: RendererError(
                                code: "invalidUTF8",
                                message: "the line is not UTF-8 text (the first bad byte is at offset \(offset)); "
                                    + "it was ignored")))
                case .tooLong(let count, let limit):
                    transcript.emit(EventProtocol.json(of: EventProtocol.lineTooLong(byteCount: count, limit: limit)))
                case .text: break
                }
                continue
            }
            if line.allSatisfy(\.isWhitespace) { continue }
            do {
                return try EventProtocol.command(fromLine: line)
            } catch {
                transcript.emit(EventProtocol.json(of: error))
            }
        }
        return .quit
    }

    public mutating func receive(_ event: RendererEvent) {
        transcript.record(event)
    }
}
