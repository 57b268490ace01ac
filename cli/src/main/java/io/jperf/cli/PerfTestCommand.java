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
import io.jperf.result.BandwidthResult;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

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
        applyPerftestAliases(common);
        if (bw != null && ((bw.limitBw != null && !(bw.limitBw >= 0))
                || (bw.limitMsgRate != null && !(bw.limitMsgRate >= 0)))) {
            throw new UsageException("-w/--limit_bw and -y/--limit_msgrate must be 0 or more (got "
                    + (bw.limitBw != null ? bw.limitBw : bw.limitMsgRate) + ")");
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
        String filesNote = serverFilesNote(options, common.jperfJson);
        if (filesNote != null) {
            err.println("jperf: warning: " + filesNote);
            err.flush();
        }
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
        String belowLimit = bw == null ? null : belowLimits(options, result.bandwidth(), bw.limitBw, bw.limitMsgRate);
        if (belowLimit != null) {
            err.println("jperf: " + belowLimit);
            err.flush();
            return ExitCodes.TEST_FAILED;
        }
        return ExitCodes.OK;
    }

    /**
     * What the files of an {@code -a} server hold when it cannot hold every size: a unidirectional bandwidth
     * server measures nothing and hears, as perftest's, only the client's report of the last size at the end
     * (ib_write_bw's server prints that one line too). Latency servers and {@code -b} measure every size and
     * write every size (perftest's {@code --out_json} the last, as perftest rewrites it per size).
     *
     * @return the warning, or null when the files hold every size or none was asked for
     */
    static String serverFilesNote(TestOptions options, Path jperfJson) {
        boolean files = options.csvFile() != null || jperfJson != null;
        if (!files || !options.allSizes() || !options.isServer() || options.loopback()
                || !options.kind().isBandwidth() || options.bidirectional()) {
            return null;
        }
        return "a " + options.kind().commandName() + " server without -b hears only the client's last size at the"
                + " end (perftest's protocol; ib_" + options.kind().commandName().replace('-', '_') + "'s server"
                + " prints that one too), so " + (options.csvFile() != null && jperfJson != null ? "--csv and"
                + " --jperf-json hold" : options.csvFile() != null ? "--csv holds" : "--jperf-json holds")
                + " that one size; the client's files hold every size of -a";
    }

    /** perftest's {@code --pin_cores} (one CPU: jperf's {@code --cpu}) and {@code --perform_warm_up}. */
    static void applyPerftestAliases(TestOptionsMixin common) {
        if (common.pinCores != null) {
            int cpu;
            try {
                cpu = Integer.parseInt(common.pinCores.strip());
            } catch (NumberFormatException e) {
                throw new UsageException("--pin_cores " + common.pinCores + ": jperf pins the test thread to one CPU,"
                        + " so it takes one CPU number; to keep the whole JVM on a list, run it under taskset -c "
                        + common.pinCores);
            }
            if (common.run.cpu != null && common.run.cpu != cpu) {
                throw new UsageException("--pin_cores " + cpu + " and --cpu " + common.run.cpu + " name different CPUs");
            }
            common.run.cpu = cpu;
        }
        if (common.performWarmUp && common.run.warmupSeconds != null && common.run.warmupSeconds == 0) {
            throw new UsageException("--perform_warm_up asks for a warm-up that --warmup 0 turns off");
        }
    }

    /**
     * perftest's {@code -w}/{@code -y} verdict: met when some size's average bandwidth (in the report's unit)
     * or message rate reaches the limit, as perftest ORs it over the sizes. Checked where perftest checks it:
     * on the client (also the client of {@code --loopback}) and on both ends of {@code -b}, not on a
     * unidirectional server.
     *
     * @return the one line saying which limit was missed, or null when every limit given was met
     */
    static String belowLimits(TestOptions options, List<BandwidthResult> results, Double limitBw, Double limitMsgRate) {
        boolean unidirectionalServer = options.isServer() && !options.loopback() && !options.bidirectional();
        if ((limitBw == null && limitMsgRate == null) || unidirectionalServer || results.isEmpty()) {
            return null;
        }
        double bestBw = results.stream().mapToDouble(BandwidthResult::average).max().orElse(0);
        double bestRate = results.stream().mapToDouble(BandwidthResult::messageRateMpps).max().orElse(0);
        String unit = results.getFirst().unit().label();
        if (limitBw != null && bestBw < limitBw) {
            return String.format(Locale.ROOT, "-w/--limit_bw: the average bandwidth (best %.2f %s) is below the"
                    + " limit %.2f %s", bestBw, unit, limitBw, unit);
        }
        if (limitMsgRate != null && bestRate < limitMsgRate) {
            return String.format(Locale.ROOT, "-y/--limit_msgrate: the message rate (best %.6f Mpps) is below the"
                    + " limit %.6f Mpps", bestRate, limitMsgRate);
        }
        return null;
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
