import SurveyRendering
import Testing

/// The rule a front end that saves its session on a stop signal follows for the signals after it.
@Suite struct StopSignalsTests {
    @Test func theFirstEndsTheInputTheNextIsHeldThenTheRunEndsAtOnce() {
        #expect(StopSignals.action(forSignal: 1) == .endInput)
        #expect(StopSignals.heldSignals == 1)
        #expect(StopSignals.action(forSignal: 2) == .hold)
        for count in 3...6 { #expect(StopSignals.action(forSignal: count) == .endNow, "signal \(count)") }
    }
}
