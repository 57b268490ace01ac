package io.jperf.cli;

import io.jperf.report.RunInfo;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.util.List;

/** The {@link RunInfo} of the command line picocli parsed: jperf's version, the arguments as given, the host. */
final class CommandRunInfo {
    private CommandRunInfo() {
    }

    static RunInfo of(CommandSpec spec) {
        ParseResult parsed = spec.root().commandLine().getParseResult();
        List<String> args = parsed != null ? parsed.originalArgs() : List.of();
        return RunInfo.command(args);
    }
}
