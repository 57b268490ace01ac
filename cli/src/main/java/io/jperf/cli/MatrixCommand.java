package io.jperf.cli;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.ServeLimits;
import io.jperf.matrix.ClusterMembership;
import io.jperf.matrix.DryRun;
import io.jperf.matrix.LocalRails;
import io.jperf.matrix.MatrixAnalysis;
import io.jperf.matrix.MatrixCoordinator;
import io.jperf.matrix.MatrixHtmlReport;
import io.jperf.matrix.MatrixJson;
import io.jperf.matrix.MatrixMember;
import io.jperf.matrix.MatrixTextReport;
import io.jperf.matrix.MembershipException;
import io.jperf.matrix.Pattern;
import io.jperf.matrix.Rail;
import io.jperf.matrix.RailMode;
import io.jperf.matrix.ResultMatrix;
import io.jperf.matrix.Schedule;
import io.jperf.matrix.Threshold;
import io.jperf.matrix.PerfTestRunner;
import io.jperf.options.OptionsException;
import io.jperf.options.SizeParser;
import io.jperf.wire.PeerText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code jperf matrix}: write tests between the hosts of a cluster allocation, every pair (or a
 * pattern) on every rail, run by the scheduler's tasks: rank 0 coordinates, every member serves.
 */
@Command(name = "matrix", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            MatrixCommand.SUMMARY,
            "Rank 0 coordinates; every member (rank 0 too) runs `jperf serve` for the server ends and an agent that runs"
                + " a client end when the coordinator asks. Both need the shared secret (--auth-token-file or "
                + io.jperf.engine.AuthSecret.ENVIRONMENT + ").",
            "--dry-run prints the rounds, tests, wall time and the coordinator's memory without running anything."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every test ran and no link is beyond the threshold (or --dry-run)",
            "1:a test failed or a link is beyond the threshold (the suspects are ranked in the report)",
            "2:invalid options or membership (a missing or malformed SLURM_*/JOB_COMPLETION_INDEX variable)"})
final class MatrixCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Test every host pair (or a pattern of pairs) of a cluster allocation on every rail, and rank the suspect"
            + " hosts and rails. Run one task per host from the scheduler: srun -N <n> --ntasks-per-node=1 jperf"
            + " matrix ..., or a Kubernetes Indexed Job (docs/cluster.md); by hand, --hosts and --rank.";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "write-bw|write-lat", defaultValue = "write-bw",
            description = "The test of every pair (default ${DEFAULT-VALUE}).")
    String kind;

    @Option(names = "--hosts", split = ",", paramLabel = "HOST",
            description = "The members in rank order, by hand (default: from Slurm's or the Indexed Job's environment).")
    List<String> hosts;

    @Option(names = "--rank", paramLabel = "N", description = "This member's rank in --hosts (0 coordinates).")
    Integer rank;

    @Option(names = "--pattern", paramLabel = "PATTERN", defaultValue = "all-pairs",
            description = "all-pairs, ring, one-to-all or bisection (default ${DEFAULT-VALUE}).")
    String pattern;

    @Option(names = "--rails", split = ",", paramLabel = "DEV",
            description = "This host's RDMA devices, one per rail, in the same rail order on every host (default: one"
                    + " rail on the first device).")
    List<String> rails;

    @Option(names = "--rail-mode", paramLabel = "MODE", defaultValue = "per-rail",
            description = "per-rail (rail r with rail r) or device-pairs (every device with every device; default"
                    + " ${DEFAULT-VALUE}).")
    String railMode;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES",
            description = "Message size with K/M/G suffixes (default 64K for write-bw, 2 for write-lat).")
    String size;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", defaultValue = "5",
            description = "Seconds each test measures (default ${DEFAULT-VALUE}).")
    int duration;

    @Option(names = "--tclass", paramLabel = "TC", description = "Traffic class 0..255 of every test (default 0).")
    Integer trafficClass;

    @Option(names = "--fail-below", paramLabel = "GBPS|Fxmedian",
            description = "write-bw: a link below this many Gb/s, or this factor of the matrix median (0.8xmedian), is bad.")
    String failBelow;

    @Option(names = "--fail-above", paramLabel = "US|Fxmedian",
            description = "write-lat: a link above this many us, or this factor of the matrix median (1.5xmedian), is bad.")
    String failAbove;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "18515",
            description = "TCP port of every member's `jperf serve` (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--agent-port", paramLabel = "PORT", defaultValue = "18516",
            description = "TCP port of every member's agent (default ${DEFAULT-VALUE}).")
    int agentPort;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Bound on every wait within one test (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--start-timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "How long the coordinator waits for every agent to answer at the start (default"
                    + " ${DEFAULT-VALUE}).")
    int startTimeoutSeconds;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "3600",
            description = "A member exits (exit 1) when the coordinator has sent nothing for this long (default"
                    + " ${DEFAULT-VALUE}).")
    int idleTimeoutSeconds;

    @Option(names = "--json", description = "Print the matrix as JSON on stdout instead of the text report.")
    boolean json;

    @Option(names = "--out_json", paramLabel = "FILE", description = "Also write the matrix as JSON to FILE.")
    Path outJson;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write a self-contained HTML heatmap to FILE.")
    Path html;

    @Option(names = "--points", paramLabel = "FILE",
            description = "Write every point as it arrives, with both ends' path records and verdicts, as JSON Lines.")
    Path points;

    @Option(names = "--dry-run", description = "Print the rounds, tests, wall time and coordinator memory; run nothing.")
    boolean dryRun;

    @Option(names = "--dry-run-hosts", paramLabel = "N",
            description = "With --dry-run: this many hosts instead of the membership's.")
    Integer dryRunHosts;

    @Option(names = "--dry-run-rails", paramLabel = "N", description = "With --dry-run: this many rails instead of --rails.")
    Integer dryRunRails;

    @Option(names = "--test-overhead", paramLabel = "SECONDS", defaultValue = "2",
            description = "With --dry-run: seconds each test takes beyond -D and --warmup (connecting, QP set-up, path"
                    + " probe, clean-up; default ${DEFAULT-VALUE}, an assumption: measure it on your fabric).")
    double testOverheadSeconds;

    @Mixin
    RunFlags run;

    private final Map<String, String> environment;
    private final LocalRails localRails;

    MatrixCommand() {
        this(System.getenv(), LocalRails.live(1));
    }

    /** For tests: reads the membership from {@code environment} and this host's rails from {@code localRails}. */
    MatrixCommand(Map<String, String> environment, LocalRails localRails) {
        this.environment = environment;
        this.localRails = localRails;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        validate();
        if (dryRun) {
            return dryRun();
        }
        return runMember();
    }

    /** Serves as a member; on rank 0 also coordinates and reports. */
    private int runMember() throws IOException, InterruptedException {
        ClusterMembership m = membership();
        AuthSecret secret = run.authSecret().orElseThrow(() -> new UsageException("jperf matrix needs the shared secret"
                + " of its members (--auth-token-file FILE or " + AuthSecret.ENVIRONMENT + "): every member's serve and"
                + " agent require it"));
        long sizeBytes = sizeBytes();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Rail> mine = localRails.resolve(rails == null ? List.of() : rails);
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        ServeLimits limits = ServeLimits.DEFAULTS.withAuthSecret(secret)
                .withMaxDuration(Duration.ofSeconds(Math.max(300, duration + 60)));
        Consumer<String> events = line -> {
            synchronized (err) {
                err.println("jperf matrix [" + m.rank() + "]: " + PeerText.line(line));
                err.flush();
            }
        };
        events.accept("rank " + m.rank() + " of " + m.size() + " (" + m.source() + ") on " + m.self() + "; rails "
                + mine.stream().map(r -> r.device() + r.address().map(a -> "=" + a).orElse("")).toList()
                + "; serve port " + port + ", agent port " + agentPort);
        try (MatrixMember member = MatrixMember.start(m, mine, port, agentPort, limits, timeout,
                new PerfTestRunner(secret, 1), events)) {
            if (!m.isCoordinator()) {
                if (member.awaitStop(Duration.ofSeconds(idleTimeoutSeconds))) {
                    events.accept("the coordinator said stop");
                    return ExitCodes.OK;
                }
                events.accept("no word from the coordinator (" + m.coordinator() + ") for " + idleTimeoutSeconds
                        + " s (--idle-timeout): exiting");
                return ExitCodes.TEST_FAILED;
            }
            MatrixCoordinator.TestSettings settings = new MatrixCoordinator.TestSettings(bandwidth(), sizeBytes, duration,
                    trafficClass == null ? 0 : trafficClass, run.warmup(), timeout);
            ResultMatrix result;
            try (BufferedWriter pointsFile = points == null ? null : Files.newBufferedWriter(points, StandardCharsets.UTF_8)) {
                Consumer<String> sink = pointsFile == null ? p -> { } : p -> {
                    try {
                        pointsFile.write(p);
                        pointsFile.newLine();
                        pointsFile.flush();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
                result = MatrixCoordinator.builder(m, secret, settings).ports(agentPort, port).pattern(parsePattern())
                        .railMode(parseRailMode()).startTimeout(Duration.ofSeconds(startTimeoutSeconds))
                        .events(events).points(sink).build().run();
            }
            MatrixAnalysis analysis = MatrixAnalysis.of(result, threshold());
            String title = title(sizeBytes);
            out.print(json ? MatrixJson.render(analysis, title) : PeerText.report(MatrixTextReport.render(analysis, title)));
            out.flush();
            writeFile(outJson, () -> MatrixJson.render(analysis, title), "--out_json");
            writeFile(html, () -> MatrixHtmlReport.render(analysis, title), "--html");
            return analysis.failedThreshold() ? ExitCodes.TEST_FAILED : ExitCodes.OK;
        }
    }

    private String title(long sizeBytes) {
        return (bandwidth() ? "write-bw" : "write-lat") + " " + parsePattern().label() + " " + parseRailMode().label()
                + ", " + sizeBytes + " B, -D " + duration + (trafficClass == null ? "" : ", tclass " + trafficClass);
    }

    private long sizeBytes() {
        String text = size != null ? size : bandwidth() ? "64K" : "2";
        try {
            long v = SizeParser.parse(text);
            if (v >= 1 && v <= (1L << 30)) {
                return v;
            }
        } catch (OptionsException e) {
            // below
        }
        throw new UsageException("-s: '" + text + "' is not a size between 1 and 1G (e.g. 64K)");
    }

    private static void writeFile(Path file, java.util.function.Supplier<String> text, String option) {
        if (file == null) {
            return;
        }
        try {
            Files.writeString(file, text.get(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(option + " " + file + ": cannot be written (" + e.getMessage() + ")", e);
        }
    }

    private int dryRun() {
        int n;
        if (dryRunHosts != null) {
            n = dryRunHosts;
        } else {
            n = membership().size();
        }
        int railCount = dryRunRails != null ? dryRunRails : rails == null ? 1 : rails.size();
        Schedule schedule = schedule(n, railCount);
        Duration measure = Duration.ofSeconds(duration);
        Duration overhead = Duration.ofNanos((long) (testOverheadSeconds * 1e9));
        Duration perTest = measure.plus(run.warmup()).plus(overhead);
        DryRun d = DryRun.of(schedule, perTest);
        PrintWriter out = spec.commandLine().getOut();
        out.print(d.describe(measure, run.warmup(), overhead));
        out.flush();
        return ExitCodes.OK;
    }

    /** Checks the options; {@link UsageException} (exit 2) naming the option otherwise. */
    void validate() {
        testKind();
        parsePattern();
        parseRailMode();
        threshold();
        sizeBytes();
        if (duration < 1 || duration > 3600) {
            throw new UsageException("-D must be between 1 and 3600 seconds (got " + duration + ")");
        }
        if (trafficClass != null && (trafficClass < 0 || trafficClass > 255)) {
            throw new UsageException("--tclass must be 0..255 (got " + trafficClass + ")");
        }
        requirePort("-p", port);
        requirePort("--agent-port", agentPort);
        if (port == agentPort) {
            throw new UsageException("-p and --agent-port must differ (both " + port + ")");
        }
        requireRange("--timeout", timeoutSeconds, 1, 3600);
        requireRange("--start-timeout", startTimeoutSeconds, 1, 86_400);
        requireRange("--idle-timeout", idleTimeoutSeconds, 1, 7 * 86_400);
        if (rails != null && (rails.isEmpty() || rails.stream().anyMatch(String::isBlank)
                || rails.stream().distinct().count() != rails.size())) {
            throw new UsageException("--rails must name distinct devices (got " + rails + ")");
        }
        if (dryRunHosts != null && (dryRunHosts < 2 || dryRunHosts > 65_536)) {
            throw new UsageException("--dry-run-hosts must be 2..65536 (got " + dryRunHosts + ")");
        }
        if (dryRunRails != null && (dryRunRails < 1 || dryRunRails > 64)) {
            throw new UsageException("--dry-run-rails must be 1..64 (got " + dryRunRails + ")");
        }
        if ((dryRunHosts != null || dryRunRails != null) && !dryRun) {
            throw new UsageException("--dry-run-hosts and --dry-run-rails only go with --dry-run");
        }
        if (!(testOverheadSeconds >= 0 && testOverheadSeconds <= 3600)) {
            throw new UsageException("--test-overhead must be 0..3600 seconds (got " + testOverheadSeconds + ")");
        }
        if (hosts != null ^ rank != null) {
            throw new UsageException("--hosts and --rank go together");
        }
        run.validate();
        OutputPaths.requireWritable(outJson, "--out_json");
        OutputPaths.requireWritable(html, "--html");
        OutputPaths.requireWritable(points, "--points");
    }

    boolean bandwidth() {
        return testKind();
    }

    /** True for write-bw, false for write-lat. */
    private boolean testKind() {
        return switch (kind.toLowerCase(Locale.ROOT)) {
            case "write-bw", "write_bw", "ib_write_bw" -> true;
            case "write-lat", "write_lat", "ib_write_lat" -> false;
            default -> throw new UsageException("matrix: the test is write-bw or write-lat (got '" + kind + "')");
        };
    }

    Pattern parsePattern() {
        try {
            return Pattern.parse(pattern);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--pattern: " + e.getMessage());
        }
    }

    RailMode parseRailMode() {
        try {
            return RailMode.parse(railMode);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--rail-mode: " + e.getMessage());
        }
    }

    /** The threshold for the test's kind, or null. */
    Threshold threshold() {
        boolean bw = testKind();
        if (bw && failAbove != null) {
            throw new UsageException("--fail-above is for write-lat; write-bw takes --fail-below");
        }
        if (!bw && failBelow != null) {
            throw new UsageException("--fail-below is for write-bw; write-lat takes --fail-above");
        }
        String text = bw ? failBelow : failAbove;
        if (text == null) {
            return null;
        }
        try {
            return Threshold.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException((bw ? "--fail-below: " : "--fail-above: ") + e.getMessage());
        }
    }

    /** From --hosts/--rank, else the environment. */
    ClusterMembership membership() {
        try {
            return hosts != null ? ClusterMembership.explicit(hosts, rank) : ClusterMembership.fromEnvironment(environment);
        } catch (MembershipException e) {
            throw new UsageException(e.getMessage());
        }
    }

    Schedule schedule(int n, int railCount) {
        try {
            return Schedule.of(parsePattern(), n, railCount, parseRailMode());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static void requirePort(String name, int value) {
        requireRange(name, value, 1, 65_535);
    }

    private static void requireRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new UsageException(name + " must be between " + min + " and " + max + " (got " + value + ")");
        }
    }
}
