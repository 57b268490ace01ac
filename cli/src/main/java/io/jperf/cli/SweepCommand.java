package io.jperf.cli;

import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.RunInfo;
import io.jperf.sweep.LocalPathCheck;
import io.jperf.sweep.Sweep;
import io.jperf.sweep.SweepChoice;
import io.jperf.sweep.SweepDimension;
import io.jperf.sweep.SweepHtmlReport;
import io.jperf.sweep.SweepJson;
import io.jperf.sweep.SweepListener;
import io.jperf.sweep.SweepPlan;
import io.jperf.sweep.SweepResult;
import io.jperf.sweep.SweepRow;
import io.jperf.sweep.SweepTextReport;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RdmaUnavailableException;
import io.jperf.wire.PeerText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jperf sweep write-bw|write-lat PEER}: one test over a set of choices (rails, source
 * addresses, GID indexes, RDMA CM off/on, traffic classes, message sizes) against a
 * {@code jperf serve} peer; a side-by-side table, JSON and an HTML report.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            SweepCommand.SUMMARY,
            "The choices are every combination of the dimension options given (at most 256), nested in the order"
                + " rail, source, gid, rdma_cm, tclass, size; the other options apply to every choice. A choice"
                + " that fails stays in the table with its error and the sweep goes on.",
            "Prints one line per choice on stderr as it ends, then the table (or --json) on stdout.",
            "Example: jperf sweep write-bw 10.20.0.2 --rails rxe0=10.20.0.2,rxe1=10.20.1.2 --rdma-cm off,on"
                + " --sizes 4K,64K --html sweep.html"})
final class SweepCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Run write-bw or write-lat once per choice against PEER, which runs `jperf serve`, and compare the"
            + " results side by side with the Linux path each ran on (GID, route, source, MTU, traffic class)"
            + " and its verdicts (F1-F7).";


    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "write-bw|write-lat", description = "The test every choice runs.")
    String kind;

    @Parameters(index = "1", paramLabel = "PEER",
            description = "The control address of the peer running `jperf serve`.")
    String peer;

    // ------------------------------------------------------------------ dimensions

    @Option(names = "--rails", split = ",", paramLabel = "DEV=PEER_ADDR",
            description = "Rails: this host's device and the peer's RDMA address on the same rail"
                + " (e.g. rxe0=10.20.0.2,rxe1=10.20.1.2); sets -d, and the peer runs on the device with that address.")
    List<String> rails;

    @Option(names = "--sources", split = ",", paramLabel = "ADDR",
            description = "Source addresses (--bind_source_ip); each runs on the device and GID that carry it"
                + " unless --rails/-d and --gid-indexes/-x say otherwise.")
    List<String> sources;

    @Option(names = "--gid-indexes", split = ",", paramLabel = "INDEX", description = "GID indexes (-x), 0..255.")
    List<String> gidIndexes;

    @Option(names = "--rdma-cm", split = ",", paramLabel = "off|on", description = "RDMA CM (-R) off and/or on.")
    List<String> rdmaCmValues;

    @Option(names = "--tclasses", split = ",", paramLabel = "TC",
            description = "Traffic classes (--tclass) 0..255, DSCP << 2 | ECN, e.g. 0,106.")
    List<String> tclasses;

    @Option(names = "--sizes", split = ",", paramLabel = "BYTES",
            description = "Message sizes (-s) with K/M/G suffixes, e.g. 2,64K,1M.")
    List<String> sizes;

    // ------------------------------------------------------------------ every choice

    @Mixin
    TestParameterFlags params;

    @Mixin
    BwFlags bw;

    @Mixin
    RunFlags run;

    // ------------------------------------------------------------------ the sweep

    @Option(names = "--point-timeout", paramLabel = "SECONDS",
            description = "Bound on every wait within one choice: connecting, each exchange, a stalled data path"
                + " (default 60).")
    Integer pointTimeoutSeconds;

    @Option(names = "--pause", paramLabel = "SECONDS", description = "Wait between choices (default 0).")
    Double pauseSeconds;

    @Option(names = "--json", description = "Print the sweep as JSON on stdout instead of the table.")
    boolean json;

    @Option(names = "--out_json", paramLabel = "FILE", description = "Also write the sweep as JSON to FILE.")
    Path outJson;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write a self-contained HTML report (charts, table, verdicts) to FILE.")
    Path html;

    private final Sweep.PointRunner runner;
    private final LocalPathCheck pathCheck;
    private final SweepPlan.SourceLocator locator;

    /** The command as jperf runs it: the write-test engine, the live pre-flight check and source lookup. */
    SweepCommand() {
        this(null, LocalPathCheck.live(), SweepPlan.SourceLocator.live());
    }

    /** For tests: runs each choice with {@code runner} (null = the engine). */
    SweepCommand(Sweep.PointRunner runner, LocalPathCheck pathCheck, SweepPlan.SourceLocator locator) {
        this.runner = runner;
        this.pathCheck = pathCheck;
        this.locator = locator;
    }

    @Override
    public Integer call() {
        SweepPlan plan = plan();
        if (runner == null) {
            requireRdma();
        }
        Sweep sweep = sweep(plan);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        err.println("jperf sweep: " + plan.size() + " choice" + (plan.size() == 1 ? "" : "s") + " of "
                + kindName(plan.base().params().kind()) + " against " + peer);
        err.flush();
        SweepResult result = sweep.listener(new Progress(err)).run();
        RunInfo run = CommandRunInfo.of(spec);
        if (json) {
            out.print(SweepJson.toJson(result, run));
        } else {
            out.print(PeerText.report(SweepTextReport.render(result, run)));
        }
        out.flush();
        write(outJson, () -> SweepJson.toJson(result, run), "--out_json");
        write(html, () -> SweepHtmlReport.render(result, run), "--html");
        boolean complete = result.rows().size() == plan.size() && result.rows().stream().allMatch(SweepRow::ok);
        return complete ? ExitCodes.OK : ExitCodes.TEST_FAILED;
    }

    /**
     * Without RDMA on this host every choice would fail the same way: exit 3 like the other commands, before
     * anything runs, instead of a table of identical failures and exit 1.
     */
    private static void requireRdma() {
        if (Rdma.deviceNames().isEmpty()) {
            throw new RdmaUnavailableException("no RDMA device found, so no choice can run; `jperf devices` lists"
                    + " them, `jperf doctor` says why there are none");
        }
    }

    /** Checks every option and builds the plan; {@link UsageException} (exit 2) naming the option otherwise. */
    SweepPlan plan() {
        TestKind testKind = TestKind.byName(kind).orElseThrow(() -> new UsageException("sweep: the first argument"
                + " is the test, one of " + java.util.Arrays.stream(TestKind.values()).map(TestKind::commandName)
                .collect(java.util.stream.Collectors.joining(", ")) + " (got '" + kind + "')"));
        if (!testKind.isBandwidth()) {
            List<String> bwOnly = new ArrayList<>();
            if (bw.txDepth != null) {
                bwOnly.add("-t");
            }
            if (bw.cqModeration != null) {
                bwOnly.add("-Q");
            }
            if (bw.reportGbits) {
                bwOnly.add("--report_gbits");
            }
            if (!bwOnly.isEmpty()) {
                throw new UsageException(String.join(", ", bwOnly) + ": only for a write-bw sweep");
            }
        }
        requireNotBoth(params.size != null, sizes, "-s", "--sizes");
        requireNotBoth(params.trafficClass != null, tclasses, "--tclass", "--tclasses");
        requireNotBoth(params.rdmaCm, rdmaCmValues, "-R", "--rdma-cm");
        if (pointTimeoutSeconds != null && (pointTimeoutSeconds < 1 || pointTimeoutSeconds > 86_400)) {
            throw new UsageException("--point-timeout must be between 1 and 86400 seconds (got " + pointTimeoutSeconds
                    + ")");
        }
        if (pauseSeconds != null && !(pauseSeconds >= 0 && pauseSeconds <= 3600)) {
            throw new UsageException("--pause must be between 0 and 3600 seconds (got " + pauseSeconds + ")");
        }
        run.validate();
        OutputPaths.requireWritable(outJson, "--out_json");
        OutputPaths.requireWritable(html, "--html");
        TestOptions base;
        try {
            base = baseOptions(testKind);
        } catch (OptionsException e) {
            throw new UsageException(e.getMessage());
        }
        try {
            return SweepPlan.builder(base)
                    .values(SweepDimension.RAIL, rails)
                    .values(SweepDimension.SOURCE, sources)
                    .values(SweepDimension.GID, gidIndexes)
                    .values(SweepDimension.RDMA_CM, rdmaCmValues)
                    .values(SweepDimension.TCLASS, tclasses)
                    .values(SweepDimension.SIZE, sizes)
                    .build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private Sweep sweep(SweepPlan plan) {
        Sweep s = Sweep.of(plan).pathCheck(pathCheck).sourceLocator(locator).qosExpected(run.qosExpected)
                .authSecret(run.authSecret().orElse(null))
                .cpu(run.cpuOrNone()).warmup(run.warmup());
        if (runner != null) {
            s = s.runner(runner);
        }
        if (pointTimeoutSeconds != null) {
            s = s.pointTimeout(Duration.ofSeconds(pointTimeoutSeconds));
        }
        if (pauseSeconds != null) {
            s = s.pause(Duration.ofNanos((long) (pauseSeconds * 1e9)));
        }
        return s;
    }

    private TestOptions baseOptions(TestKind testKind) {
        TestOptions.Builder b = params.applyTo(TestOptions.builder(testKind).serverHost(peer));
        // -T is valid only with -R: with --rdma-cm the base carries -R so that the "on" choices keep -T
        b.rdmaCm(params.rdmaCm || (rdmaCmValues != null && params.tos != null));
        bw.applyTo(b);
        return b.build();
    }

    private static void requireNotBoth(boolean single, List<String> many, String singleName, String manyName) {
        if (single && many != null) {
            throw new UsageException(manyName + " sets what " + singleName + " sets, for each choice:"
                    + " give one of them");
        }
    }

    private static void write(Path file, java.util.function.Supplier<String> content, String option) {
        if (file == null) {
            return;
        }
        try {
            Files.writeString(file, content.get());
        } catch (IOException e) {
            throw new UncheckedIOException(option + ": could not write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String kindName(TestKind kind) {
        return kind.commandName();
    }

    /** One line per choice on stderr when it ends; warnings as they come. */
    private static final class Progress implements SweepListener {
        /** How much of a failed choice's error its progress line shows (the table has all of it). */
        private static final int ERROR_CHARS = 140;

        private final PrintWriter err;

        Progress(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void finished(SweepRow row, int total) {
            StringBuilder sb = new StringBuilder("[").append(row.choice().index() + 1).append('/').append(total)
                    .append("] ").append(row.choice().label()).append(": ");
            if (row.ok()) {
                boolean bwRow = row.result().map(r -> !r.bandwidth().isEmpty()).orElse(false);
                sb.append(String.format(Locale.ROOT, "%.2f %s", row.headline().orElse(Double.NaN),
                        bwRow ? "Gb/s" : "us"));
            } else {
                String e = row.error().orElse("");
                int nl = e.indexOf('\n');
                String first = nl < 0 ? e : e.substring(0, nl);
                sb.append("FAILED: ").append(first.length() <= ERROR_CHARS ? first
                        : first.substring(0, ERROR_CHARS - 3) + "...");
            }
            String ids = row.verdicts().stream().filter(v -> v.severity() != io.jperf.path.Severity.INFO)
                    .map(io.jperf.path.Verdict::id).distinct().reduce((a, b) -> a + " " + b).orElse("");
            sb.append(ids.isEmpty() ? (row.ok() ? ", path consistent" : "") : ", path: " + ids);
            err.println(PeerText.multiline(sb.toString()));
            err.flush();
        }

        @Override
        public void warning(SweepChoice choice, String message) {
            err.println("jperf: warning: [" + (choice.index() + 1) + "] " + PeerText.multiline(message));
            err.flush();
        }
    }
}
