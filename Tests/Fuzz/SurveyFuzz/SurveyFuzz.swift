import SurveyFuzzTargets

#if canImport(Glibc)
    import Glibc
#endif

// SurveyFuzz TARGET FILE|DIR...: runs a fuzz target once on each input (a replay of a corpus or a
// crash). Built with -DFUZZING and -sanitize=fuzzer (Tests/fuzz.sh), it is a libFuzzer binary for
// the target named by SURVEY_FUZZ_TARGET instead.

func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

#if FUZZING
    let fuzzTarget: @Sendable ([UInt8]) -> Void = {
        let name = getenv("SURVEY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTargets.all[name] else {
            printError("SURVEY_FUZZ_TARGET must be one of \(FuzzTargets.all.keys.sorted())")
            exit(2)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        fuzzTarget(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }

    typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// libFuzzer's driver (the library's own `main` is not linked: SwiftPM names an executable's
    /// entry point `SurveyFuzz_main` and points `main` at it).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: FuzzCallback
    ) -> CInt

    @_cdecl("SurveyFuzz_main")
    public func fuzzMain(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> CInt {
        var count = argc
        var arguments = argv
        FuzzTargets.prepare()
        atexit { FuzzTargets.release() }
        return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
    }
#else
    @main struct SurveyFuzz {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let target = FuzzTargets.all[name] else {
                printError("usage: SurveyFuzz \(FuzzTargets.all.keys.sorted().joined(separator: "|")) FILE|DIR...")
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                for file in files(at: path) {
                    target(read(file))
                    count += 1
                }
            }
            print("\(name): \(count) inputs, no crash")
        }

        static func files(at path: String) -> [String] {
            guard let directory = opendir(path) else { return [path] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if !name.hasPrefix(".") { names.append(path + "/" + name) }
            }
            return names.sorted()
        }

        static func read(_ path: String) -> [UInt8] {
            guard let file = fopen(path, "rb") else { return [] }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            return bytes
        }
    }
#endif
