/// Where text stops being UTF-8, for messages that say so instead of replacing bytes with U+FFFD.
package enum UTF8Validation {
    /// The offset (from `bytes.startIndex`) of the first byte that does not start a valid UTF-8
    /// sequence, or `nil` when all of `bytes` is UTF-8.
    package static func firstInvalidOffset(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }

    /// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence (a
    /// sequence cut short, an overlong form, a surrogate or a code point above U+10FFFF), or `nil`
    /// when all of it is UTF-8. ASCII is checked eight bytes at a time, so a 100 MB survey costs
    /// a fraction of a millisecond per megabyte.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time (the word is loaded unaligned, byte order does not matter).
            while index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The second byte's range depends on the lead (Unicode's table of well-formed sequences).
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= count, (low...high).contains(base[index + 1]) else { return index }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}
