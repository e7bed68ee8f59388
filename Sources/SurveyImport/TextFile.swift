import Foundation
import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a whole file as text (a survey, an answer script, a saved state, a configuration) or as
/// bytes, fast for large files and with errors that say what is wrong and where.
///
/// ```swift
/// let text = try TextFile.read("survey.json")  // "survey.json:3:7: the file is not UTF-8 text"
/// ```
public enum TextFile {
    /// The largest file ``read(_:maximumSize:)`` reads by default: 512 MiB.
    public static let maximumSize = 512 << 20

    /// Files this large (bytes) are read in pieces on several cores: 16 MiB.
    public static let parallelReadSize = 1 << 24

    /// The text of the file at `path`. Any readable stream works (a pipe, a FIFO, `<(command)`); a
    /// regular file is read straight into the string's own storage (one allocation the size of the
    /// file: reading in chunks into a growing array, then copying that into a string, touched three
    /// times the file's size, which a 100 MB survey pays in page faults), a large one in pieces on
    /// several cores.
    /// - Parameter maximumSize: the largest input accepted, in bytes.
    /// - Throws: ``TextReadError`` for a file that cannot be opened or read, a directory, an empty
    ///   input, one over `maximumSize`, or text that is not UTF-8 (with the line and column of the
    ///   first byte that is not).
    public static func read(_ path: String, maximumSize: Int = maximumSize) throws(TextReadError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TextReadError(path, "cannot read the file (\(systemMessage()))") }
        defer { close(descriptor) }
        var info = stat()
        let known = fstat(descriptor, &info) == 0
        if known, (info.st_mode & S_IFMT) == S_IFDIR {
            throw TextReadError(path, "is a directory, not a file")
        }
        if known, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size <= maximumSize {
            if let text = try readRegularFile(descriptor, size: Int(info.st_size), path: path) { return text }
            // The file changed size while it was read: read it again as a stream.
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw TextReadError(path, "the file changed while it was read")
            }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TextReadError(path, "cannot read the file (\(systemMessage()))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else {
                throw TextReadError(path, "the input is larger than \(maximumSize >> 20) MiB")
            }
        }
        guard !bytes.isEmpty else { throw TextReadError(path, "the file is empty") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // Located only when it fails: the standard library's check is the faster one.
            throw bytes.withUnsafeBufferPointer { notUTF8(in: $0, path: path) }
                ?? TextReadError(path, "the file is not UTF-8 text")
        }
        return text
    }

    /// The bytes of the regular file at `path`, unchecked, read in pieces on several cores when it
    /// is large (as ``read(_:maximumSize:)`` reads).
    /// - Throws: ``TextReadError`` when the file cannot be opened or read, or changes size while it is read.
    public static func readBytes(_ path: String) throws(TextReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TextReadError(path, "cannot read the file (\(systemMessage()))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= 0 else {
            throw TextReadError(path, "cannot read the file (\(systemMessage()))")
        }
        let size = Int(info.st_size)
        var outcome = ParallelRead.Outcome.complete
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            outcome = ParallelRead.read(descriptor, into: base, size: size)
            count = outcome == .complete ? size : 0
        }
        switch outcome {
        case .complete: return bytes
        case .changed: throw TextReadError(path, "the file changed while it was read")
        case .failed(let number): throw TextReadError(path, "cannot read the file (\(systemMessage(number)))")
        }
    }

    /// A regular file of `size` bytes read into a string; `nil` when the file is not `size` bytes
    /// long any more.
    static func readRegularFile(_ descriptor: Int32, size: Int, path: String) throws(TextReadError) -> String? {
        var outcome = ParallelRead.Outcome.complete
        var problem: TextReadError?
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            outcome = ParallelRead.read(descriptor, into: base, size: size)
            guard outcome == .complete else { return 0 }
            problem = notUTF8(in: UnsafeBufferPointer(start: base, count: size), path: path)
            return problem == nil ? size : 0
        }
        if let problem { throw problem }
        switch outcome {
        case .complete: return text
        case .changed: return nil
        case .failed(let number): throw TextReadError(path, "cannot read the file (\(systemMessage(number)))")
        }
    }

    /// The error for text that is not UTF-8, at the line and column of the first byte that is not
    /// part of valid UTF-8 (columns count characters), or `nil` when all of `bytes` is UTF-8.
    static func notUTF8(in bytes: UnsafeBufferPointer<UInt8>, path: String) -> TextReadError? {
        guard let offset = UTF8Validation.firstInvalidOffset(in: bytes) else { return nil }
        let before = bytes[..<offset]
        let lineStart = (before.lastIndex(of: 10)).map { $0 + 1 } ?? 0
        let line = 1 + before.lazy.filter { $0 == 10 }.count
        let column = 1 + bytes[lineStart..<offset].lazy.filter { $0 & 0xC0 != 0x80 }.count
        return TextReadError(path, "the file is not UTF-8 text", line: line, column: column)
    }

    static func systemMessage(_ number: Int32 = errno) -> String { String(cString: strerror(number)) }

    static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }
}

/// Reads the first `size` bytes of an open file into memory, in pieces on several threads when the
/// file is large (``TextFile/parallelReadSize``): most of a read's time is the kernel giving the
/// fresh buffer its pages and copying into them, which several cores do in a fraction of the time.
///
/// Invariants: `base` points to `size` writable bytes that nothing else reads or writes until
/// ``read(_:into:size:)`` returns; each piece's thread writes only its own range of them
/// (`piece * size / pieces ..< (piece + 1) * size / pieces`), and every thread has finished when
/// `DispatchQueue.concurrentPerform` returns. The descriptor's file offset is not used (`pread`).
enum ParallelRead {
    /// What reading the pieces ran into.
    enum Outcome: Equatable {
        /// All `size` bytes were read, and the file has no more.
        case complete
        /// The file is shorter or longer than `size` bytes now.
        case changed
        /// A read failed with this `errno`.
        case failed(Int32)
    }

    static func read(_ descriptor: Int32, into base: UnsafeMutablePointer<UInt8>, size: Int) -> Outcome {
        let pieces = size >= TextFile.parallelReadSize ? min(4, ProcessInfo.processInfo.activeProcessorCount) : 1
        let outcomes = Outcomes()
        nonisolated(unsafe) let target = base
        DispatchQueue.concurrentPerform(iterations: pieces) { piece in
            var offset = piece * size / pieces
            let end = (piece + 1) * size / pieces
            while offset < end {
                let count = pread(descriptor, target + offset, end - offset, off_t(offset))
                if count < 0 {
                    if errno == EINTR { continue }
                    return outcomes.record(.failed(errno))
                }
                // The file is shorter than it was.
                if count == 0 { return outcomes.record(.changed) }
                offset += count
            }
        }
        if let outcome = outcomes.first { return outcome }
        // Longer than it was?
        var extra: UInt8 = 0
        return pread(descriptor, &extra, 1, off_t(size)) == 0 ? .complete : .changed
    }

    /// The first failure a piece ran into (a failure to read wins over a change of size).
    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Outcome?

        var first: Outcome? { lock.withLock { stored } }

        func record(_ outcome: Outcome) {
            lock.withLock {
                if case .failed = stored { return }
                stored = outcome
            }
        }
    }
}

/// A file or document that could not be read as text: where, and why.
public struct TextReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path or the document's URL.
    public var location: String
    /// What went wrong, for a person.
    public var reason: String
    /// The line (1-based) of the problem, when it is at a place in the text.
    public var line: Int?
    /// The column (1-based, in characters) of the problem, with ``line``.
    public var column: Int?

    public init(_ location: String, _ reason: String, line: Int? = nil, column: Int? = nil) {
        self.location = location
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// `LOCATION: reason`, or `LOCATION:LINE:COL: reason`.
    public var description: String {
        let place = line.map { line in ":\(line)" + (column.map { ":\($0)" } ?? "") } ?? ""
        return "\(location)\(place): \(reason)"
    }
}
