import Testing

@testable import SurveyCore

/// ``UTF8Validation`` checks ASCII eight bytes at a time and multi-byte sequences against
/// Unicode's table of well-formed sequences; it must say exactly what the standard library's
/// decoder says, at the same offset.
@Suite struct UTF8ValidationTests {
    /// The first invalid offset, found the slow way: the longest valid prefix the standard library accepts.
    static func expected(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var index = 0
        while index < bytes.count {
            let valid = (1...4).first { length in
                index + length <= bytes.count
                    && String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            }
            guard let valid else { return index }
            index += valid
        }
        return nil
    }

    @Test func wellFormedAndMalformedSequencesAtTheirOffsets() {
        let cases: [([UInt8], Int?)] = [
            (Array("plain ASCII, longer than eight bytes".utf8), nil),
            (Array("é, ü, ß, 日本語, 🎉 and ASCII around them".utf8), nil),
            ([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xFF], 8),
            ([0xC0, 0x80], 0),  // overlong NUL
            ([0xE0, 0x80, 0x80], 0),  // overlong three-byte form
            ([0xED, 0xA0, 0x80], 0),  // a surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
            ([0xF0, 0x9F, 0x8E], 0),  // cut short at the end
            ([0x41, 0xE2, 0x82, 0x41], 1),  // cut short before ASCII
            ([0x41, 0xE2, 0x82, 0xAC], nil),  // the euro sign
            ([0x80], 0),  // a lone continuation byte
        ]
        for (bytes, offset) in cases {
            let found = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
            #expect(found == offset, "\(bytes)")
            #expect(Self.expected(bytes) == offset, "\(bytes)")
        }
    }

    @Test func randomBytesAgreeWithTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        // Mostly ASCII with multi-byte sequences, valid and broken, at every alignment.
        let pieces: [[UInt8]] = [
            [0x61], [0x20], [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x8E, 0x89], [0xC3], [0xE6, 0x97],
            [0xED, 0xBF, 0xBF], [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF5], [0xBF],
        ]
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let broken = Int.random(in: 0..<40, using: &generator) == 0
                let piece =
                    broken
                    ? pieces[Int.random(in: 5..<pieces.count, using: &generator)]
                    : pieces[Int.random(in: 0..<5, using: &generator)]
                bytes += piece
            }
            let found = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
            #expect(found == Self.expected(bytes), "\(bytes)")
            #expect(UTF8Validation.firstInvalidOffset(in: bytes[...]) == found)
        }
    }
}
