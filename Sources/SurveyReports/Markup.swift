/// Text made safe inside HTML and XML documents.
public enum Markup {
    /// `text` safe as element content and as a quoted attribute value, in HTML and in XML 1.0: the
    /// markup characters become references (`& < > " '` and the backtick, which old browsers took as
    /// a quote), and control characters and the noncharacters U+FFFE/U+FFFF (which XML cannot hold)
    /// become U+FFFD. Tab, line feed and carriage return are kept.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "`": result += "&#96;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
