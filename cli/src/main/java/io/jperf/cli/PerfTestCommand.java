package io.jperf.cli;

import io.jperf.engine.TestListener;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.CsvReport;
import io.jperf.report.PerftestJson;
import io.jperf.report.RunInfo;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** What every test command (write-bw, read-lat, ...) shares: options to a test, the run, and its output. */
final class PerfTestCommand {
    private PerfTestCommand() {
    }

    static int run(CommandSpec spec, TestKind kind, TestOptionsMixin common, BwFlags bw) {
        TestOptions options;
        try {
            options = common.toOptions(kind, bw);
        } catch (OptionsException e) {
            throw new UsageException(e.getMessage());
        }
        if (common.peerDevice != null && !options.loopback()) {
            throw new UsageException("--peer-dev goes with --loopback");
        }
        if (common.peerDevice != null && common.peerDevice.isBlank()) {
            throw new UsageException("--peer-dev: must name a device (`jperf devices` lists them)");
        }
        common.run.validate();
        if (common.timeoutSeconds != null && common.timeoutSeconds < 1) {
            throw new UsageException("--timeout must be at least 1 second (got " + common.timeoutSeconds + ")");
        }
        if (options.json()) {
            OutputPaths.requireWritable(options.jsonFile(), "--out_json_file");
        }
        OutputPaths.requireWritable(common.jperfJson, "--jperf-json");
        OutputPaths.requireWritable(options.csvFile(), "--csv");
        OutputPaths.requireWritable(options.hlogFile(), "--hlog");
        MemoryCheck.require(options, options.loopback());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RunInfo run = CommandRunInfo.of(spec);
        PerftestPrinter printer = common.json ? null : new PerftestPrinter(options, run, out, err);
        TestListener listener = printer != null ? printer : new TestListener() {
            @Override
            public void warning(String message) {
                err.println("jperf: warning: " + message);
            }
        };
        boolean longRun = options.allSizes() || options.isDuration();
        PerfTestResult result;
        try (ProgressIndicator progress = new ProgressIndicator(listener, err,
                longRun && ProgressIndicator.onTerminal(), options.durationSeconds(), System::nanoTime).start()) {
            PerfTest test = common.run.applyTo(PerfTest.of(options).listener(progress))
                    .timeout(common.timeoutSeconds != null ? Duration.ofSeconds(common.timeoutSeconds)
                            : PerfTest.DEFAULT_TIMEOUT);
            result = options.loopback() ? test.runLoopback(common.peerDevice) : test.run();
        }
        if (printer != null) {
            printer.finish();
        }
        writeFiles(options, result, common.jperfJson, run);
        if (common.json) {
            out.print(result.toJson(run));
            out.flush();
        }
        return ExitCodes.OK;
    }

    /**
     * The files a run asked for: perftest's JSON ({@code --out_json}), jperf's record ({@code --jperf-json}),
     * the CSV. A run without a result of its kind (none was measured) writes no result file.
     */
    static void writeFiles(TestOptions options, PerfTestResult result, Path jperfJson, RunInfo run) {
        boolean measured = !(options.kind().isBandwidth() ? result.bandwidth() : result.latency()).isEmpty();
        try {
            if (options.json() && measured) {
                Files.writeString(options.jsonFile(), PerftestJson.of(options, result.header(), result.bandwidth(),
                        result.latency()));
            }
            if (jperfJson != null) {
                Files.writeString(jperfJson, result.toJson(run));
            }
            if (options.csvFile() != null && measured) {
                Files.writeString(options.csvFile(), CsvReport.comment(run) + (options.kind().isBandwidth()
                        ? CsvReport.bandwidth(result.bandwidth()) : CsvReport.latency(result.latency())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the report: " + e.getMessage(), e);
        }
    }
}
