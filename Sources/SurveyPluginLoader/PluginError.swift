/// Why a plugin could not be loaded or installed.
///
/// ``description`` is the one-line message the CLI prints: the file, then the problem.
///
/// ```
/// plugins/libcolor.so: ABI version 2 is not supported (this engine reads version 1)
/// ```
public struct PluginError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for programs that react to it.
    public enum Kind: String, Sendable, Hashable {
        /// The file or plugin directory does not exist.
        case notFound
        /// The file exists but is not a regular file (a directory, FIFO or device), or `dlopen` refused it.
        case notSharedObject
        /// The library does not export `survey_plugin_entry`.
        case missingEntrySymbol
        /// The descriptor's `abi_version` is not one this engine reads.
        case abiVersionMismatch
        /// A descriptor's `struct_size` is not the size this engine expects.
        case structSizeMismatch
        /// The descriptor is malformed: a missing callback, an invalid id, an unknown value type.
        case invalidDescriptor
        /// A question type id is already registered (by the engine or another plugin).
        case duplicateTypeID
        /// An expression function name is already registered.
        case duplicateFunction
        /// The plugin returned text that is not valid JSON, or JSON of the wrong shape.
        case invalidJSON
        /// The plugin reported an error.
        case pluginReportedError
        /// With ``PluginIsolation``: the plugin host child process could not start, or crashed,
        /// exited or did not answer in time during a call.
        case hostFailure
        /// The plugin's manifest (``PluginManifest``) is malformed or disagrees with the library.
        case invalidManifest
    }

    /// What went wrong.
    public var kind: Kind
    /// The plugin file (or directory) as given.
    public var path: String
    /// What went wrong, without the path.
    public var message: String

    /// Creates an error about the plugin at `path`.
    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `PATH: message`.
    public var description: String { "\(path): \(message)" }
}
