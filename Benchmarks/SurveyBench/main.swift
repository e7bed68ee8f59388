import Foundation

// SurveyBench: a generator of large branching surveys and a benchmark of the engine on them.
// See Benchmarks/README.md.

let usage = """
    usage:
      SurveyBench generate --questions N [--per-page 10] [--seed S]
                           [--kinds single-choice,multiple-choice,text,rating] [--visible-density 1.0]
                           [--chain-depth D] [--jumps J] [--calculated C] [--no-surveyjs] --out DIR
      SurveyBench bench FILE [--answers FILE] [--respondents R] [--repeat K] [--dump-result FILE] [--cold]
      SurveyBench bench --scale [--max-n 1000000] [--seed S] [--repeat 3] [--work DIR] [--cold]
      SurveyBench load FILE [--repeat K]
      SurveyBench store [--store PATH|URL] [--respondents 1,8,64] [--seconds 3] [--responses 1000000]
                        [--questions 20] [--skip overhead,throughput,bulk,export] [--synchronous full|normal] [--work DIR]
      SurveyBench repeat [--instances 100,1000] [--items 20] [--repeat 3]
      SurveyBench eligibility [--responses 1000000] [--respondents 200000] [--decisions 5000] [--store PATH] [--work DIR]
      SurveyBench audit [--questions 50] [--calculated 5] [--responses 1000000] [--single 20000] [--repeat 3] [--threads N]
    """

let commandLine = CommandLine.arguments
do {
    guard commandLine.count >= 2 else { throw BenchError(usage) }
    let arguments = try Arguments(commandLine.dropFirst(2), flags: ["no-surveyjs", "scale", "phases", "cold"])
    switch commandLine[1] {
    case "generate": try runGenerate(arguments)
    case "bench" where arguments.flags.contains("scale"): try runScale(arguments)
    case "bench": try runBench(arguments)
    case "scale": try runScale(arguments)
    case "load": try runLoad(arguments)
    case "store": try runStoreBench(arguments)
    case "repeat": try runRepeatBench(arguments)
    case "eligibility": try runEligibilityBench(arguments)
    case "audit": try runAuditBench(arguments)
    default: throw BenchError(usage)
    }
} catch {
    FileHandle.standardError.write(Data("SurveyBench: \(error)\n".utf8))
    exit(1)
}
