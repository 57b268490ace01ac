package io.jperf.cli;

import io.jperf.engine.TestListener;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.engine.StopSignal;
import io.jperf.options.OptionsException;
import io.jperf.options.OutputOptions;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.CsvReport;
import io.jperf.report.PerftestJson;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.wire.PeerText;
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
        if (common.peerDevice != null && !options.target().loopback()) {
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
        if (options.output().json()) {
            OutputPaths.requireWritable(options.output().jsonFile(), "--out_json_file");
        }
        OutputPaths.requireWritable(common.jperfJson, "--jperf-json");
        OutputPaths.requireWritable(options.output().csvFile(), "--csv");
        OutputPaths.requireWritable(options.output().hlogFile(), "--hlog");
        MemoryCheck.require(options, options.target().loopback());
        SysfsCounters counters = common.reportCounters == null || common.json ? null
                : openCounters(SysfsCounters.SYSFS_ROOT, options.target().device(), options.target().ibPort(),
                        common.reportCounters, PerfTestCommand::firstDevice);
        boolean cpuUtil = common.bwReport != null && common.bwReport.cpuUtil && options.isDuration()
                && !options.params().runInfinitely();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RunInfo run = CommandRunInfo.of(spec);
        List<String> notes = new java.util.ArrayList<>(flagNotes(options, common.latency, common.bwReport,
                common.json));
        if (common.reportCounters != null && common.json) {
            notes.add("-W/--report-counters: the counter lines are part of perftest's text, which --json replaces");
        }
        for (String note : notes) {
            err.println("jperf: warning: " + note);
            err.flush();
        }
        PerftestPrinter printer = common.json ? null : new PerftestPrinter(options, run, out, err)
                .samples(common.latency != null && common.latency.histogram,
                        common.latency != null && common.latency.unsorted)
                .reportBoth(common.bwReport != null && common.bwReport.reportBoth)
                .counters(counters).cpuUtil(cpuUtil ? CpuTimes.PROC_STAT : null);
        TestListener listener = printer != null ? printer : new TestListener() {
            @Override
            public void warning(String message) {
                err.println("jperf: warning: " + message);
            }
        };
        if (printer != null && options.params().runInfinitely() && bw != null && !bw.noPeak) {
            out.println(" WARNING: BW peak won't be measured in this run."); // perftest's line
            out.flush();
        }
        boolean longRun = (options.params().allSizes() || options.isDuration()) && !options.params().runInfinitely();
        StopSignal stop = new StopSignal();
        PerfTestResult result;
        try (ProgressIndicator progress = new ProgressIndicator(listener, err,
                longRun && ProgressIndicator.onTerminal(), options.params().durationSeconds(), System::nanoTime).start();
             StopOnSignals signals = options.params().runInfinitely() && !options.isServer() ? new StopOnSignals(stop) : null) {
            PerfTest test = common.run.applyTo(PerfTest.of(options).listener(progress).stopSignal(stop))
                    .timeout(common.timeoutSeconds != null ? Duration.ofSeconds(common.timeoutSeconds)
                            : PerfTest.DEFAULT_TIMEOUT);
            result = options.target().loopback() ? test.runLoopback(common.peerDevice) : test.run();
        }
        if (printer != null) {
            printer.finish();
        }
        writeFiles(options, result, common.jperfJson, run, printer != null ? printer.cpuUtilPercent() : null);
        String filesNote = serverFilesNote(options, common.jperfJson, result.bandwidth().size(), result.peerVersion());
        if (filesNote != null) {
            err.println("jperf: warning: " + filesNote);
            err.flush();
        }
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
     * What the files of an {@code -a} server hold when they cannot hold every size: a unidirectional
     * bandwidth server measures nothing and hears the client's reports. A jperf client sends every size's;
     * perftest's protocol carries only the last size's at the end (ib_write_bw's server prints that one
     * line too), so with a perftest client the files hold that one size. Latency servers and {@code -b}
     * measure every size and write every size (perftest's {@code --out_json} the last, as perftest
     * rewrites it per size).
     *
     * @param sizesHeard how many sizes the server's result holds
     * @param peerVersion the client's version text, as the header's
     * @return the warning, or null when the files hold every size or none was asked for
     */
    static String serverFilesNote(TestOptions options, Path jperfJson, int sizesHeard, String peerVersion) {
        boolean files = options.output().csvFile() != null || jperfJson != null;
        if (!files || !options.params().allSizes() || !options.isServer() || options.target().loopback()
                || !options.params().kind().isBandwidth() || options.params().bidirectional()
                || sizesHeard >= options.params().messageSizes().size()) {
            return null;
        }
        return "the client (version " + PeerText.line(peerVersion) + ") reported only its last size, as perftest's protocol"
                + " does (a jperf client reports every size of -a), so " + (options.output().csvFile() != null
                && jperfJson != null ? "--csv and --jperf-json hold" : options.output().csvFile() != null ? "--csv holds"
                : "--jperf-json holds") + " that one size; the client's files hold every size";
    }

    /**
     * What perftest's output flags cannot show in this run, said instead of silently doing nothing (perftest
     * itself ignores them there): {@code -H}/{@code -U} with {@code -D}, or with {@code --json},
     * {@code --report-both} without {@code -b}, with {@code -a} or with {@code --json}.
     */
    static List<String> flagNotes(TestOptions options, LatencyFlags latency, BwReportFlags bw, boolean json) {
        List<String> notes = new java.util.ArrayList<>();
        if (latency != null && (latency.histogram || latency.unsorted)) {
            String flag = latency.histogram && latency.unsorted ? "-H and -U" : latency.histogram ? "-H" : "-U";
            if (options.isDuration()) {
                notes.add(flag + ": a timed run (-D) prints no samples, as perftest's");
            } else if (json) {
                notes.add(flag + ": the samples are part of perftest's text, which --json replaces");
            }
        }
        if (bw != null && bw.cpuUtil) {
            if (!options.isDuration()) {
                notes.add("--cpu_util: CPU utilization works only with a timed run (-D), as in perftest; this run"
                        + " prints no CPU_Util column");
            } else if (options.params().runInfinitely()) {
                notes.add("--cpu_util: --run_infinitely rows have no CPU_Util column");
            } else if (json) {
                notes.add("--cpu_util: the CPU_Util column is part of perftest's text, which --json replaces");
            }
        }
        if (bw != null && bw.reportBoth) {
            if (json) {
                notes.add("--report-both: both sides' rows are part of perftest's text, which --json replaces");
            } else if (!options.params().bidirectional()) {
                notes.add("--report-both: only a bidirectional run (-b) has two sides to report, as in perftest;"
                        + " this run prints its one row");
            } else if (options.params().allSizes()) {
                notes.add("--report-both: perftest prints both sides only without -a, and so does jperf; with -a"
                        + " each row is the sum of both directions");
            }
        }
        return notes;
    }

    /**
     * perftest's {@code -W}: the counters of {@code device} (null: the device the test opens, libibverbs' first),
     * checked and read once before the test starts.
     *
     * @param firstDevice libibverbs' first device, or null when there is none (the test then fails on its own)
     * @return the counters, or null when there is no device to read them from
     * @throws UsageException naming the counter and its file when one cannot be read
     */
    static SysfsCounters openCounters(Path root, String device, int port, String list,
                                      java.util.function.Supplier<String> firstDevice) {
        String dev = device != null ? device : firstDevice.get();
        if (dev == null) {
            return null;
        }
        try {
            return SysfsCounters.open(root, dev, port, list);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static String firstDevice() {
        try {
            List<String> names = io.jperf.verbs.Rdma.deviceNames();
            return names.isEmpty() ? null : names.getFirst();
        } catch (RuntimeException | LinkageError e) {
            return null; // no libibverbs: the test itself says so
        }
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
        boolean unidirectionalServer = options.isServer() && !options.target().loopback()
                && !options.params().bidirectional();
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
        writeFiles(options, result, jperfJson, run, null);
    }

    /** As {@link #writeFiles(TestOptions, PerfTestResult, Path, RunInfo)}, with {@code --cpu_util}'s figure or null. */
    static void writeFiles(TestOptions options, PerfTestResult result, Path jperfJson, RunInfo run, Double cpuUtil) {
        boolean bandwidth = options.params().kind().isBandwidth();
        boolean measured = !(bandwidth ? result.bandwidth() : result.latency()).isEmpty();
        OutputOptions output = options.output();
        try {
            if (output.json() && measured) {
                Files.writeString(output.jsonFile(), PerftestJson.of(options, result.header(), result.bandwidth(),
                        result.latency(), cpuUtil));
            }
            if (jperfJson != null) {
                Files.writeString(jperfJson, result.toJson(run));
            }
            if (output.csvFile() != null && measured) {
                Files.writeString(output.csvFile(), CsvReport.comment(run)
                        + (bandwidth ? CsvReport.bandwidth(result.bandwidth()) : CsvReport.latency(result.latency())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the report: " + e.getMessage(), e);
        }
    }
}
