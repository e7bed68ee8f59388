/// A reference to an object that something else keeps alive, read without counting it: the one
/// place the core reads objects without retaining them.
///
/// A retain and a release are atomic updates of the object's reference count. On the paths every
/// answer takes, the objects read are shared by every session running on every thread (a survey's
/// step table, its question boxes, its compiled expressions), so each count bounces between the
/// cores; reading them through an `Unretained` costs nothing. The session, the survey's question
/// column and ``ExpressionHandle`` read through this type; everything else reads ordinary references.
///
/// Invariants, kept by whoever makes one (nothing checks them):
/// - **The object outlives it.** Make one only from a reference that something alive for at least
///   as long holds: a session's ``SurveySession/survey`` holds the compiled survey and its step
///   table; a ``QuestionColumn`` holds the question boxes it lists (`owners`); an expression holds
///   its code for every handle made of it.
/// - **The object is not mutated while read**, and can be read from several threads at once (the
///   compiled survey and everything in it are immutable once loaded).
///
/// Measured when each use was introduced (`Benchmarks/README.md`): on a 50-question respondent the
/// session's retains and releases went from 9.3 k to 4.0 k instructions of 44 k.
struct Unretained<Object: AnyObject> {
    private let reference: Unmanaged<Object>

    /// An unretained reference to `object`, which something else keeps alive (see the invariants).
    @inline(__always)
    init(_ object: Object) { reference = .passUnretained(object) }

    /// Calls `body` with the object, neither retained nor released around the call.
    @inline(__always)
    func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object as an ordinary (counted) reference, for code off the hot paths.
    var object: Object { reference.takeUnretainedValue() }
}

extension Unretained: @unchecked Sendable where Object: Sendable {}
