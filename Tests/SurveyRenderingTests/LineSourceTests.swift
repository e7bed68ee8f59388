import Foundation
import SurveyRendering
import Testing

/// `StandardInputLines` over a file: long lines in linear time, a bounded line length.
@Suite struct LineSourceTests {
    /// A file holding `bytes`, opened for reading; closed by the caller.
    static func descriptor(holding bytes: [UInt8]) throws -> Int32 {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        return descriptor
    }

    @Test func aFiftyMegabyteLineIsReadWhole() throws {
        let length = 50_000_000
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        bytes[0] = UInt8(ascii: "<")
        bytes[length - 1] = UInt8(ascii: ">")
        bytes += Array("\nnext\r\nlast".utf8)
        let descriptor = try Self.descriptor(holding: bytes)
        defer { close(descriptor) }
        var lines = StandardInputLines(descriptor: descriptor)
        guard case .text(let long) = lines.readCheckedLine() else {
            Issue.record("the long line was not read as text")
            return
        }
        #expect(long.utf8.count == length)
        #expect(long.hasPrefix("<aaa") && long.hasSuffix("aaa>"))
        #expect(lines.readCheckedLine() == .text("next"))
        #expect(lines.readCheckedLine() == .text("last"))
        #expect(lines.readCheckedLine() == nil)
    }

    @Test func manyShortLinesComeOutInOrder() throws {
        let count = 200_000
        let text = (0..<count).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let descriptor = try Self.descriptor(holding: Array(text.utf8))
        defer { close(descriptor) }
        var lines = StandardInputLines(descriptor: descriptor)
        var read = 0
        while let line = lines.readLine() {
            if line != "line \(read)" {
                Issue.record("line \(read) read as '\(line)'")
                return
            }
            read += 1
        }
        #expect(read == count)
    }

    @Test(arguments: [false, true])
    func aLinePastTheLimitIsDroppedAndReported(isLast: Bool) throws {
        // 1,000 bytes is the limit here; 250,001 bytes spans several reads of the file in pieces.
        let bytes =
            Array("before\n".utf8) + [UInt8](repeating: 0x7B, count: 250_001) + Array("\n\(isLast ? "" : "after")".utf8)
        let descriptor = try Self.descriptor(holding: bytes)
        defer { close(descriptor) }
        var lines = StandardInputLines(descriptor: descriptor, maximumLineLength: 1_000)
        #expect(lines.readCheckedLine() == .text("before"))
        #expect(lines.readCheckedLine() == .tooLong(byteCount: 250_001, limit: 1_000))
        #expect(lines.readCheckedLine() == (isLast ? nil : .text("after")))
        #expect(lines.readCheckedLine() == nil)
    }

    @Test func aLineOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() throws {
        let limit = StandardInputLines.maximumLineLength
        #expect(limit == 64 << 20)
        let bytes =
            [UInt8](repeating: 0x61, count: limit) + [10] + [UInt8](repeating: 0x62, count: limit + 1) + [10]
            + Array("ok\n".utf8)
        let descriptor = try Self.descriptor(holding: bytes)
        defer { close(descriptor) }
        var lines = StandardInputLines(descriptor: descriptor)
        guard case .text(let first) = lines.readCheckedLine() else {
            Issue.record("a line of exactly the limit was refused")
            return
        }
        #expect(first.utf8.count == limit)
        #expect(lines.readCheckedLine() == .tooLong(byteCount: limit + 1, limit: limit))
        #expect(lines.readCheckedLine() == .text("ok"))
    }

    @Test func theErrorNamesTheLimit() {
        let error = EventProtocol.lineTooLong(byteCount: 70_000_000, limit: 64 << 20)
        #expect(error.code == "lineTooLong")
        #expect(error.message.contains("64 MiB"))
        #expect(error.message.contains("70000000 bytes"))
    }
}
