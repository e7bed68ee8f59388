import CSurveyPluginABI
import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Loads plugin shared libraries: question types and expression functions behind the versioned
/// C ABI of `survey_plugin.h` (see docs/plugin-abi.md).
///
/// This is the only code in the engine that calls `dlopen`, `dlsym` or libffi. A loaded library is
/// never unloaded.
///
/// ```swift
/// let plugins = try PluginLoader().load(paths: ["plugins/libColorPicker.so"], environment: environment)
/// var types = QuestionTypeRegistry.builtins()
/// var functions = ExpressionFunctionRegistry.standard
/// try plugins.install(into: &types, functions: &functions)
/// ```
public struct PluginLoader: Sendable {
    /// The name of the environment variable listing plugin directories, separated by colons.
    public static let searchPathVariable = "SURVEY_PLUGIN_PATH"

    /// The major ABI version this loader reads.
    public static let abiVersion = UInt32(SURVEY_PLUGIN_ABI_VERSION)
    /// The newest minor ABI version this loader reads (older minors load too).
    public static let abiMinorVersion = UInt32(SURVEY_PLUGIN_ABI_MINOR)

    /// Where problems a plugin causes at run time are reported (a refusing or crashing callback, a
    /// function's error): for the operator, never shown to a respondent. Default: standard error.
    public var diagnostics: @Sendable (String) -> Void

    /// Where plugin calls run: in this process (`nil`, the default) or in a plugin host child process.
    public var isolation: PluginIsolation?

    /// Creates a loader.
    /// - Parameters:
    ///   - isolation: run every plugin call in a child process (``PluginIsolation``); default in this process.
    ///   - diagnostics: receives one line per run-time plugin problem; default standard error.
    public init(
        isolation: PluginIsolation? = nil,
        diagnostics: @escaping @Sendable (String) -> Void = PluginLoader.standardError
    ) {
        self.isolation = isolation
        self.diagnostics = diagnostics
    }

    /// Writes `line` to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        let bytes = Array(("survey: plugin " + line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Loads plugins.
    ///
    /// - Parameters:
    ///   - paths: plugin files given with `--plugin`, in order.
    ///   - environment: the process environment; every `*.so` file in the directories of
    ///     `SURVEY_PLUGIN_PATH` (colon-separated, each directory sorted by file name) is loaded after `paths`.
    /// - Returns: the plugins, in load order; a file named twice is loaded once.
    /// - Throws: ``PluginError`` naming the first file that cannot be loaded.
    public func load(paths: [String], environment: [String: String]) throws(PluginError) -> [LoadedPlugin] {
        let directories = (environment[Self.searchPathVariable] ?? "").split(separator: ":").map(String.init)
        var files: [String] = []
        for path in paths { files.append(try Self.locate(path, in: directories)) }
        for directory in directories {
            files += try sharedObjects(in: directory)
        }
        var seen: Set<String> = []
        var unique: [(file: String, resolved: String)] = []
        for file in files {
            let resolved = try resolve(file)
            guard seen.insert(resolved).inserted else { continue }
            unique.append((file, resolved))
        }
        let plugins: [LoadedPlugin]
        if let isolation {
            plugins = try loadIsolated(files: unique.map(\.file), isolation: isolation, environment: environment)
        } else {
            var loaded: [LoadedPlugin] = []
            for (file, resolved) in unique { loaded.append(try load(file: file, resolvedPath: resolved)) }
            plugins = loaded
        }
        for plugin in plugins { try Self.checkManifest(of: plugin) }
        return plugins
    }

    /// Where `--plugin NAME` points: `NAME` itself when it is a regular file or holds a `/`; otherwise the
    /// first `libNAME.so` or `NAME.so` (or `NAME`, when it ends with `.so`) in `directories`
    /// (`SURVEY_PLUGIN_PATH`, in order).
    /// - Throws: ``PluginError`` (`notFound`) when a name without `.so` is in none of the directories.
    static func locate(_ argument: String, in directories: [String]) throws(PluginError) -> String {
        var status = stat()
        if argument.contains("/") || (stat(argument, &status) == 0 && status.st_mode & S_IFMT == S_IFREG) {
            return argument
        }
        let names = argument.hasSuffix(".so") ? [argument] : ["lib\(argument).so", "\(argument).so"]
        for directory in directories {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            for name in names where access(prefix + name, F_OK) == 0 { return prefix + name }
        }
        if argument.hasSuffix(".so") { return argument }  // reported as "plugin file not found"
        let searched =
            directories.isEmpty
            ? "\(searchPathVariable) is not set"
            : "searched \(searchPathVariable): " + directories.joined(separator: ":")
        throw PluginError(
            .notFound, path: argument,
            "plugin file not found (no such file, and no \(names.joined(separator: " or ")); \(searched))")
    }

    /// Reads the manifest beside `plugin`'s library (``PluginManifest/path(forLibrary:)``), when
    /// there is one, and checks it against what the library declares.
    /// - Throws: ``PluginError`` (`invalidManifest`) naming the manifest file and the field.
    static func checkManifest(of plugin: LoadedPlugin) throws(PluginError) {
        let path = PluginManifest.path(forLibrary: plugin.path)
        guard let manifest = try PluginManifest.read(path: path) else { return }
        try manifest.check(plugin, manifestPath: path)
    }

    /// Loads one plugin file.
    /// - Throws: ``PluginError`` naming `path`.
    public func load(path: String) throws(PluginError) -> LoadedPlugin {
        if let isolation {
            _ = try resolve(path)
            let plugins = try loadIsolated(
                files: [path], isolation: isolation, environment: Self.processEnvironment)
            guard let plugin = plugins.first else {
                throw PluginError(.hostFailure, path: path, "the plugin host loaded nothing")
            }
            return plugin
        }
        return try load(file: path, resolvedPath: resolve(path))
    }

    private func sharedObjects(in directory: String) throws(PluginError) -> [String] {
        guard let stream = opendir(directory) else {
            throw PluginError(.notFound, path: directory, "plugin directory from \(Self.searchPathVariable) not found")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".so") { names.append(name) }
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return names.sorted().map { prefix + $0 }
    }

    /// The canonical path, so a plugin given twice loads once; also checks the file exists and is a
    /// regular file (`dlopen` on a FIFO blocks until something writes to it).
    private func resolve(_ path: String) throws(PluginError) -> String {
        guard let resolved = realpath(path, nil) else {
            throw PluginError(.notFound, path: path, "plugin file not found")
        }
        defer { free(resolved) }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw PluginError(
                .notSharedObject, path: path,
                "not a regular file (a directory, FIFO or device), so not a shared library")
        }
        return String(cString: resolved)
    }

    private func load(file: String, resolvedPath: String) throws(PluginError) -> LoadedPlugin {
        _ = dlerror()
        guard let handle = dlopen(resolvedPath, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw PluginError(.notSharedObject, path: file, "not a loadable shared library (\(reason))")
        }
        guard let symbol = dlsym(handle, SURVEY_PLUGIN_ENTRY_SYMBOL) else {
            throw PluginError(
                .missingEntrySymbol, path: file,
                "missing entry symbol '\(SURVEY_PLUGIN_ENTRY_SYMBOL)' (not a survey plugin, or built without the export line)"
            )
        }
        let entry = unsafeBitCast(symbol, to: (@convention(c) () -> UnsafePointer<survey_plugin>?).self)
        guard let descriptor = entry() else {
            throw PluginError(.invalidDescriptor, path: file, "\(SURVEY_PLUGIN_ENTRY_SYMBOL)() returned NULL")
        }
        return try DescriptorReader(path: file, descriptor: descriptor, diagnostics: diagnostics).read()
    }
}

/// One loaded plugin: its question types and expression functions, ready to install.
public struct LoadedPlugin: Sendable {
    /// The file as given (also the origin named in duplicate-registration errors).
    public let path: String
    /// The plugin's name.
    public let name: String
    /// The plugin's version.
    public let version: String
    /// Its question types, each registered with `origin: path`.
    public let questionTypes: [AnyQuestionType]
    /// Its expression functions, called through libffi.
    public let functions: [ExpressionFunction]
    /// The JSON Schema of each question type's options, by type id (types that declare one).
    public let optionsSchemas: [String: JSONValue]
    /// Each function's C signature, such as `bmi(double, double) -> double`, by function name.
    public let functionSignatures: [String: String]
    /// The minor ABI version the plugin declares (0 for a plugin built against the 1.0 header).
    public internal(set) var abiMinor: UInt32 = 0

    /// The callbacks loaded into this process (what the plugin host serves); empty for a plugin
    /// that runs in the plugin host child process.
    struct InProcess: Sendable {
        var types: [String: InProcessTypeChannel] = [:]
        var functions: [String: ForeignFunction] = [:]
    }
    let inProcess: InProcess
}

extension Array where Element == LoadedPlugin {
    /// Registers every plugin's question types and functions.
    ///
    /// - Throws: ``PluginError`` (`duplicateTypeID`, `duplicateFunction` or `invalidDescriptor`)
    ///   naming the plugin and who already registered the id or name.
    public func install(into registry: inout QuestionTypeRegistry, functions: inout ExpressionFunctionRegistry)
        throws(PluginError)
    {
        for plugin in self {
            for type in plugin.questionTypes {
                do {
                    try registry.register(type)
                } catch {
                    throw PluginError(registryError: error, path: plugin.path)
                }
            }
            for function in plugin.functions {
                do {
                    try functions.register(function)
                } catch {
                    throw PluginError(registryError: error, path: plugin.path)
                }
            }
        }
    }
}

extension PluginError {
    init(registryError: RegistryError, path: String) {
        switch registryError {
        case .duplicateTypeID(let id, let existing, _):
            self.init(.duplicateTypeID, path: path, "question type '\(id)' is already registered by \(existing)")
        case .duplicateFunction(let name, let existing, _):
            self.init(
                .duplicateFunction, path: path, "expression function '\(name)' is already registered by \(existing)")
        case .invalidTypeID(let id, _):
            self.init(.invalidDescriptor, path: path, "invalid id '\(id)'")
        }
    }
}
