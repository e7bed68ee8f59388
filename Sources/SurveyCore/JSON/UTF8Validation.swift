/// Where text stops being UTF-8, for messages that say so instead of replacing bytes with U+FFFD.
package enum UTF8Validation {
    /// The offset (from `bytes.startIndex`) of the first byte that does not start a valid UTF-8
    /// sequence, or `nil` when all of `bytes` is UTF-8.
    package static func firstInvalidOffset(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let length: Int
            switch bytes[index] {
            case 0..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index - bytes.startIndex
            }
            guard index + length <= bytes.endIndex,
                length == 1 || String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            else { return index - bytes.startIndex }
            index += length
        }
        return nil
    }
}
