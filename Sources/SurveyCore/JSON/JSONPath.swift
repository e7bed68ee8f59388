/// A location inside a JSON document, such as `$.steps[3].options.choices[0]`.
///
/// Errors carry a path so that a person can find the offending value; ``SourceLocator`` turns a
/// path into a line and column of the original text.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: an object member or an array index.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The components from the root.
    public var components: [Component]

    /// Creates a path from its components; the empty path is the document root.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document root, `$`.
    public static let root = JSONPath()

    /// This path followed by an object member.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    /// This path followed by an array index.
    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .key(let key):
                if key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !key.isEmpty {
                    text += ".\(key)"
                } else {
                    text += "[\(JSONWriter.string(from: .string(key), pretty: false))]"
                }
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
