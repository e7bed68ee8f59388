import Foundation
import SurveyResponses

/// A `postgresql://` or `postgres://` URL (a libpq connection URI), with what must never be shown:
/// the password of its user part and of a `password=` query parameter.
///
/// The password is found the way libpq finds it (`user:password@` before the first `/`, and
/// `password=` in the query), but more generously: everything from the first `:` of the user part
/// to its last `@` is hidden, so a password with an unescaped `@` does not leak either.
struct PostgresURL: Sendable {
    /// The URL as given, for libpq only.
    let text: String
    /// The URL with every password replaced by `***`, for messages.
    let name: String
    /// The password as written and percent-decoded, longest first, to scrub from libpq's messages.
    let secrets: [String]

    static let schemes = ["postgresql://", "postgres://"]

    /// Splits `text` into what may be shown and what may not.
    /// - Throws: ``StoreError/Kind/invalidRequest`` when it is not a `postgresql://` or `postgres://` URL.
    init(_ text: String) throws(StoreError) {
        self.text = text
        var secrets: Set<String> = []
        var shown = text
        if let schemeEnd = text.range(of: "://") {
            let rest = text[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" }
            var userPart = ""
            var remainder = rest
            if let at = authority.lastIndex(of: "@") {
                let userInfo = rest[..<at]
                if let colon = userInfo.firstIndex(of: ":") {
                    let password = userInfo[userInfo.index(after: colon)...]
                    secrets.insert(String(password))
                    // libpq's own reading ends the password at the first `@` and takes the rest for the
                    // host, which its messages then show: hide every piece.
                    for piece in password.split(separator: "@") { secrets.insert(String(piece)) }
                    userPart = String(userInfo[...colon]) + "***@"
                } else {
                    userPart = String(userInfo) + "@"
                }
                remainder = rest[rest.index(after: at)...]
            }
            var location = remainder
            var shownQuery = ""
            if let mark = remainder.firstIndex(of: "?") {
                location = remainder[..<mark]
                let pairs = remainder[remainder.index(after: mark)...].split(
                    separator: "&", omittingEmptySubsequences: false)
                shownQuery =
                    "?"
                    + pairs.map { pair -> String in
                        guard let equals = pair.firstIndex(of: "="),
                            Self.percentDecoded(String(pair[..<equals])) == "password"
                        else { return String(pair) }
                        secrets.insert(String(pair[pair.index(after: equals)...]))
                        return String(pair[...equals]) + "***"
                    }.joined(separator: "&")
            }
            shown = String(text[..<schemeEnd.upperBound]) + userPart + location + shownQuery
        } else {
            // Not a URL (perhaps a `host=… password=…` connection string): hide any password in it.
            shown = text.replacing(#/(?i)password\s*=\s*\S*/#, with: "password=***")
        }
        for secret in secrets {
            if let decoded = Self.percentDecoded(secret) { secrets.insert(decoded) }
        }
        self.secrets = secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        name = shown
        guard Self.schemes.contains(where: { text.hasPrefix($0) }) else {
            throw StoreError(
                .invalidRequest,
                "is not a PostgreSQL URL; expected postgresql://[user[:password]@][host][:port][/database][?parameters]",
                store: name)
        }
    }

    /// `text` with `%XX` escapes decoded; `nil` when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `message` with every password in it replaced by `***`.
    ///
    /// libpq quotes what it shows of a URL, so a password appears between non-alphanumeric
    /// characters; an occurrence inside a word (a password `ss` in "address") is left alone.
    func redacting(_ message: String) -> String {
        var message = message
        for secret in secrets {
            var offset = 0
            while let range = message.range(
                of: secret, range: message.index(message.startIndex, offsetBy: offset)..<message.endIndex)
            {
                let start = message.distance(from: message.startIndex, to: range.lowerBound)
                let before =
                    range.lowerBound > message.startIndex ? message[message.index(before: range.lowerBound)] : nil
                let after = range.upperBound < message.endIndex ? message[range.upperBound] : nil
                if Self.isWordCharacter(before) || Self.isWordCharacter(after) {
                    offset = start + 1
                } else {
                    message.replaceSubrange(range, with: "***")
                    offset = start + 3
                }
            }
        }
        return message
    }

    static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber
    }
}
