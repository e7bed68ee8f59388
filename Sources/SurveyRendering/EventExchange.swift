import SurveyCore

/// The JSON-event protocol one command at a time, for a front end whose commands arrive as separate
/// requests (an HTTP server) instead of as a stream of lines.
///
/// It is ``JSONEventRenderer``'s conversation cut at each command: ``start()`` gives the events a
/// JSON-event run begins with (`started`, the first `step` and `progress`), and each
/// ``perform(_:)`` gives the events the command produces, exactly as the line protocol would
/// print them between that command and the next (see `docs/json-event-protocol.md`). The flow is
/// ``SurveyDriver``'s: with a recorder, every accepted action is in the store before
/// ``perform(_:)`` returns its events, and an action the store cannot keep is undone and answered
/// with a `storeFailed` error.
///
/// ```swift
/// var exchange = EventExchange(driver: SurveyDriver(session: session, recorder: recorder))
/// let first = exchange.start()  // started, step, progress
/// let events = exchange.perform(try EventProtocol.command(from: ["command": "next"]))
/// ```
///
/// An exchange is a value holding a session: keep it in one place and give it one command at a
/// time (a server holds it behind a lock).
public struct EventExchange {
    var driver: SurveyDriver
    var renderer: ExchangeRenderer
    let buffer: EventBuffer
    /// How the session ended; `nil` while it goes on.
    public private(set) var outcome: DriverOutcome?

    /// An exchange driving `driver`'s session (with its recorder, when it has one).
    public init(driver: SurveyDriver) {
        self.driver = driver
        let buffer = EventBuffer()
        self.buffer = buffer
        renderer = ExchangeRenderer(transcript: EventTranscript(values: { buffer.events.append($0) }))
    }

    /// The session as it is now.
    public var session: SurveySession { driver.session }

    /// What records the session's accepted actions, as it is now (a `SessionRecorder` keeps what it
    /// last wrote: a server compares it with the store to know whether another process went on).
    public var recorder: (any SessionRecorder)? { driver.recorder }

    /// Whether the session has ended (completed, dismissed, quit, or empty: nothing to show); later
    /// commands get a `finished` error.
    public var isFinished: Bool { outcome != nil }

    /// Starts the session.
    /// - Returns: `started`, then the first unit's `step` and `progress` (or `completed` when the
    ///   survey shows nothing: `empty`, with no completion).
    public mutating func start() -> [JSONValue] {
        driver.start(with: &renderer)
        showCurrentUnit()
        return buffer.take()
    }

    /// Applies one command.
    /// - Returns: the events it produced, in order: its reply (`answered`, `validation-error`,
    ///   `error`, `completed`, `dismissed`, `quit`, `empty`) and, while the session goes on, a `step` and
    ///   `progress` when what the unit shows changed.
    public mutating func perform(_ action: RendererAction) -> [JSONValue] {
        guard outcome == nil else {
            return [
                EventProtocol.json(
                    of: RendererError(code: "finished", message: "the session is finished; it takes no more commands"))
            ]
        }
        if let ended = driver.perform(action, with: &renderer) {
            outcome = ended
        } else {
            showCurrentUnit()
        }
        return buffer.take()
    }

    /// The current unit from the start, for a client that lost track of it: `started` (with
    /// `"resumed": true`), then `step` and `progress`. Changes nothing.
    public mutating func restate() -> [JSONValue] {
        var info = driver.info
        info.isResumed = true
        renderer.transcript.record(.started(info))
        if outcome == nil, let request = driver.currentRequest { renderer.transcript.show(request) }
        return buffer.take()
    }

    mutating func showCurrentUnit() {
        if let request = driver.currentRequest {
            renderer.transcript.show(request)
        } else if outcome == nil {
            outcome = driver.finish(with: &renderer)
        }
    }
}

/// The events an exchange produced since they were last taken.
final class EventBuffer {
    var events: [JSONValue] = []

    func take() -> [JSONValue] {
        defer { events = [] }
        return events
    }
}

/// The renderer the driver talks to inside an exchange: it only writes the transcript (its actions
/// come from ``EventExchange/perform(_:)``, never from ``action(for:)``).
struct ExchangeRenderer: SurveyRenderer {
    var transcript: EventTranscript

    mutating func action(for request: StepRequest) -> RendererAction { .quit }

    mutating func receive(_ event: RendererEvent) {
        transcript.record(event)
    }
}
