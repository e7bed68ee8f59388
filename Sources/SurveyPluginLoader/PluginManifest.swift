import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The small JSON file distributed beside a plugin library: what the library declares, readable
/// without loading it. `libdemo.so`'s manifest is `libdemo.plugin.json` in the same folder.
///
/// ```json
/// {"name": "demo", "version": "1.0.0", "abi": "1.1", "kinds": ["demo"], "functions": ["demo_percent"]}
/// ```
///
/// ``PluginLoader`` reads it when present and refuses the plugin when it disagrees with the library
/// (``PluginError/Kind/invalidManifest``, naming the manifest file and the field).
public struct PluginManifest: Sendable, Hashable {
    /// The plugin's name, as its descriptor declares it.
    public var name: String
    /// The plugin's version, as its descriptor declares it.
    public var version: String
    /// The ABI version the library is built for: `"1.0"` or `"1.1"`.
    public var abi: String
    /// The ids of its question kinds, in declaration order.
    public var kinds: [String]
    /// The names of its expression functions, in declaration order.
    public var functions: [String]

    /// Creates a manifest.
    public init(name: String, version: String, abi: String, kinds: [String], functions: [String]) {
        self.name = name
        self.version = version
        self.abi = abi
        self.kinds = kinds
        self.functions = functions
    }

    /// What `plugin` declares.
    public init(describing plugin: LoadedPlugin) {
        self.init(
            name: plugin.name, version: plugin.version, abi: "\(PluginLoader.abiVersion).\(plugin.abiMinor)",
            kinds: plugin.questionTypes.map(\.typeID), functions: plugin.functions.map(\.name))
    }

    /// The manifest file beside `library`: its `.so` suffix replaced by `.plugin.json`.
    public static func path(forLibrary library: String) -> String {
        (library.hasSuffix(".so") ? String(library.dropLast(3)) : library) + ".plugin.json"
    }

    /// The manifest as JSON text (one field a line, ending with a newline).
    public var json: String {
        func list(_ items: [String]) -> String {
            "[" + items.map { JSONWriter.string(from: .string($0)) }.joined(separator: ", ") + "]"
        }
        return """
            {
              "name": \(JSONWriter.string(from: .string(name))),
              "version": \(JSONWriter.string(from: .string(version))),
              "abi": \(JSONWriter.string(from: .string(abi))),
              "kinds": \(list(kinds)),
              "functions": \(list(functions))
            }

            """
    }

    /// Reads the manifest at `path`; `nil` when there is no such file.
    /// - Throws: ``PluginError`` (`invalidManifest`) naming `path` when it is not valid JSON or a
    ///   field is missing or of the wrong type.
    public static func read(path: String) throws(PluginError) -> PluginManifest? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: bytes)
        } catch {
            throw PluginError(.invalidManifest, path: path, "not valid JSON (\(error))")
        }
        guard let object = value.objectValue else {
            throw PluginError(.invalidManifest, path: path, "the manifest must be a JSON object")
        }
        func string(_ field: String) throws(PluginError) -> String {
            guard let text = object[field]?.stringValue else {
                throw PluginError(.invalidManifest, path: path, "field '\(field)' must be a string")
            }
            return text
        }
        func strings(_ field: String) throws(PluginError) -> [String] {
            guard let items = object[field]?.arrayValue else {
                throw PluginError(.invalidManifest, path: path, "field '\(field)' must be an array of strings")
            }
            var texts: [String] = []
            for item in items {
                guard let text = item.stringValue else {
                    throw PluginError(.invalidManifest, path: path, "field '\(field)' must be an array of strings")
                }
                texts.append(text)
            }
            return texts
        }
        return PluginManifest(
            name: try string("name"), version: try string("version"), abi: try string("abi"),
            kinds: try strings("kinds"), functions: try strings("functions"))
    }

    /// Checks that `plugin` declares what this manifest says.
    /// - Throws: ``PluginError`` (`invalidManifest`) naming `path` and the first field that differs.
    public func check(_ plugin: LoadedPlugin, manifestPath path: String) throws(PluginError) {
        let declared = PluginManifest(describing: plugin)
        func mismatch(_ field: String, _ manifest: String, _ library: String) -> PluginError {
            PluginError(
                .invalidManifest, path: path,
                "field '\(field)' is \(manifest) but the library \(plugin.path) declares \(library)")
        }
        func quoted(_ text: String) -> String { JSONWriter.string(from: .string(text)) }
        func listed(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ", ") + "]" }
        if name != declared.name { throw mismatch("name", quoted(name), quoted(declared.name)) }
        if version != declared.version { throw mismatch("version", quoted(version), quoted(declared.version)) }
        if abi != declared.abi { throw mismatch("abi", quoted(abi), quoted(declared.abi)) }
        if Set(kinds) != Set(declared.kinds) { throw mismatch("kinds", listed(kinds), listed(declared.kinds)) }
        if Set(functions.map { $0.lowercased() }) != Set(declared.functions.map { $0.lowercased() }) {
            throw mismatch("functions", listed(functions), listed(declared.functions))
        }
    }
}
