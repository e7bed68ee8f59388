/// What a front end that saves its session before ending does with each stop signal (SIGINT,
/// SIGTERM, SIGHUP) of a run, counted from the first.
///
/// The first ends the input: the front end quits as at the end of input, the driver saves the
/// session (``SurveyDriver/stateStore``), and the run then ends with the first signal's status. A
/// signal that comes while that save is being written is held: it would otherwise end the process
/// with the state file not yet written, losing every answer (a person presses Ctrl-C twice; a
/// supervisor sends SIGTERM after SIGINT). The run still ends once the save is written, with the
/// first signal's status. Only ``heldSignals`` are held: the one after them ends the run at once
/// without saving, for a save that cannot finish (a state file on a stalled disk): signal 1 is
/// ``Action/endInput``, signal 2 ``Action/hold``, signal 3 ``Action/endNow``.
///
/// ``action(forSignal:)`` allocates nothing and takes no lock, so a signal handler may call it.
public enum StopSignals {
    /// What to do with one stop signal.
    public enum Action: Sendable, Equatable {
        /// End the input so the session is saved, then end the run with this signal's status.
        case endInput
        /// The session is being saved: let the save finish; the run then ends as the first signal said.
        case hold
        /// End the run now, without waiting for the save.
        case endNow
    }

    /// How many signals after the first are held while the session is saved.
    public static let heldSignals = 1

    /// The action for the `count`th stop signal of the run (from 1).
    public static func action(forSignal count: Int) -> Action {
        if count <= 1 { return .endInput }
        return count <= 1 + heldSignals ? .hold : .endNow
    }
}
