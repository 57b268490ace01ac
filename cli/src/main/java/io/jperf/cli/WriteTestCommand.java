package io.jperf.cli;

import io.jperf.engine.TestListener;
import io.jperf.engine.WriteTest;
import io.jperf.engine.WriteTestResult;
import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.CsvReport;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;

/** What write-bw and write-lat share: options to a test, the run, and its output. */
final class WriteTestCommand {
    private WriteTestCommand() {
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
        OutputPaths.requireWritable(options.csvFile(), "--csv");
        OutputPaths.requireWritable(options.hlogFile(), "--hlog");
        MemoryCheck.require(options, options.loopback());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PerftestPrinter printer = common.json ? null : new PerftestPrinter(options, out, err);
        TestListener listener = printer != null ? printer : new TestListener() {
            @Override
            public void warning(String message) {
                err.println("jperf: warning: " + message);
            }
        };
        boolean longRun = options.allSizes() || options.isDuration();
        listener = new ProgressIndicator(listener, err, longRun && System.console() != null);
        WriteTest test = common.run.applyTo(WriteTest.of(options).listener(listener))
                .timeout(common.timeoutSeconds != null ? Duration.ofSeconds(common.timeoutSeconds)
                        : WriteTest.DEFAULT_TIMEOUT);
        WriteTestResult result = options.loopback() ? test.runLoopback(common.peerDevice) : test.run();
        if (printer != null) {
            printer.finish();
        }
        writeFiles(options, result);
        if (common.json) {
            out.print(result.toJson());
            out.flush();
        }
        return ExitCodes.OK;
    }

    private static void writeFiles(TestOptions options, WriteTestResult result) {
        try {
            if (options.json()) {
                Files.writeString(options.jsonFile(), result.toJson());
            }
            if (options.csvFile() != null) {
                Files.writeString(options.csvFile(), options.kind().isBandwidth()
                        ? CsvReport.bandwidth(result.bandwidth()) : CsvReport.latency(result.latency()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the report: " + e.getMessage(), e);
        }
    }
}
