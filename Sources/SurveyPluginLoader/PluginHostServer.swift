import CFFI
import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The child's side of ``PluginIsolation``: loads plugin files into this process and serves the
/// parent's calls, one JSON line in and one out, over standard input and output (`survey
/// plugin-host FILE...`). The protocol is in docs/plugin-abi.md ("Isolated plugins").
public enum PluginHostServer {
    /// Serves until standard input ends; returns the exit status (0 at the end of input, 1 when a
    /// plugin does not load or the input cannot be read).
    ///
    /// What the plugins themselves print to standard output goes to standard error, so it can
    /// never be mistaken for a reply. The process ends when its parent does.
    public static func serve(files: [String]) -> Int32 {
        let output = dup(1)
        guard output >= 0 else { return 1 }
        dup2(2, 1)
        watchParent()
        let send: @Sendable (JSONValue) -> Void = { message in
            _ = LineChannel.write(JSONWriter.string(from: message) + "\n", to: output)
        }
        let loader = PluginLoader(diagnostics: { line in send(["log": .string(line)]) })
        var plugins: [LoadedPlugin] = []
        for file in files {
            do {
                plugins.append(try loader.load(path: file))
            } catch {
                send([
                    "loadError": [
                        "kind": .string(error.kind.rawValue), "path": .string(error.path),
                        "message": .string(error.message),
                    ]
                ])
                return 1
            }
        }
        send(["plugins": .array(plugins.map(describe))])
        var input = LineChannel(input: 0, output: output)
        while true {
            switch input.readLine(timeout: nil) {
            case .line(let text):
                send(reply(to: text, plugins: plugins))
            case .end:
                return 0
            case .timeout, .tooLong, .failed:
                return 1
            }
        }
    }

    /// What a plugin offers, as the hello line lists it.
    static func describe(_ plugin: LoadedPlugin) -> JSONValue {
        let types: [JSONValue] = plugin.questionTypes.map { type in
            let callbacks = PluginCallback.allCases.filter { plugin.inProcess.types[type.typeID]?.provides($0) == true }
            return [
                "id": .string(type.typeID), "summary": .string(type.summary),
                "collectsAnswer": .bool(type.collectsAnswer),
                "optionsSchema": plugin.optionsSchemas[type.typeID] ?? .null,
                "callbacks": .array(callbacks.map { .string($0.rawValue) }),
            ]
        }
        let functions: [JSONValue] = plugin.functions.map { function in
            [
                "name": .string(function.name), "arity": .number(Double(function.arity.lowerBound)),
                "signature": .string(plugin.functionSignatures[function.name.lowercased()] ?? function.name),
            ]
        }
        return [
            "path": .string(plugin.path), "name": .string(plugin.name), "version": .string(plugin.version),
            "abiMinor": .number(Double(plugin.abiMinor)), "types": .array(types), "functions": .array(functions),
        ]
    }

    /// The reply to one request line.
    static func reply(to text: String, plugins: [LoadedPlugin]) -> JSONValue {
        guard let request = try? JSONParser.parse(text) else { return failure(.invalidJSON, "the request is not JSON") }
        guard let repetitions = request["measure"]?.intValue else { return reply(to: request, plugins: plugins) }
        // The plugin checker's leak rule: the request's call made `measure` times after one warm-up
        // call, and how much the C heap grew meanwhile (memory a callback keeps, or a `free_string`
        // that does not free). The reply of the last call comes with it.
        var last = reply(to: request, plugins: plugins)
        let before = survey_heap_in_use()
        for _ in 0..<max(0, min(repetitions, 100_000)) { last = reply(to: request, plugins: plugins) }
        let after = survey_heap_in_use()
        return ["heapGrowth": .number(Double(after - before)), "reply": last]
    }

    private static func failure(_ kind: PluginError.Kind, _ message: String) -> JSONValue {
        ["failure": ["kind": .string(kind.rawValue), "message": .string(message)]]
    }

    /// The reply to one parsed request.
    static func reply(to request: JSONValue, plugins: [LoadedPlugin]) -> JSONValue {
        guard let index = request["plugin"]?.intValue, plugins.indices.contains(index) else {
            return failure(.invalidDescriptor, "the request names no loaded plugin")
        }
        let plugin = plugins[index]
        if let name = request["function"]?.stringValue {
            guard let function = plugin.inProcess.functions[name.lowercased()] else {
                return failure(.invalidDescriptor, "the plugin has no function '\(name)'")
            }
            return ["value": function.call(request["arguments"]?.arrayValue ?? [])]
        }
        guard let callbackName = request["call"]?.stringValue, let callback = PluginCallback(rawValue: callbackName),
            let typeID = request["type"]?.stringValue, let channel = plugin.inProcess.types[typeID],
            let options = request["options"]?.stringValue
        else {
            return failure(.invalidDescriptor, "the request names no callback of a loaded question type")
        }
        switch channel.call(callback, options: options, argument: request["argument"]?.stringValue) {
        case .json(let json): return ["json": json]
        case .failure(let kind, let message): return failure(kind, message)
        }
    }

    /// Ends this process when its parent has gone (even while a plugin call loops): the parent's
    /// end closes the socket, but a looping call never reads it.
    private static func watchParent() {
        let parent = getppid()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                let parent = pid_t(Int(bitPattern: argument))
                while getppid() == parent { usleep(200_000) }
                _exit(1)
            }, UnsafeMutableRawPointer(bitPattern: Int(parent)))
        if started == 0 { pthread_detach(thread) }
    }
}
