package io.jperf.sweep;

import io.jperf.engine.PathReport;
import io.jperf.engine.TestFailedException;
import io.jperf.engine.TestListener;
import io.jperf.engine.AuthSecret;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.path.PathSummary;
import io.jperf.path.Verdict;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a {@link SweepPlan}'s points one after another against its {@code jperf serve} peer and
 * collects a {@link SweepResult}: one row per point, in plan order.
 *
 * <pre>{@code
 * SweepPlan plan = SweepPlan.builder(base).values(SweepDimension.RAIL, List.of("rxe0=10.20.0.2", "rxe1=10.20.1.2"))
 *         .values(SweepDimension.RDMA_CM, List.of("off", "on")).build();
 * SweepResult result = Sweep.of(plan).pointTimeout(Duration.ofSeconds(30)).run();
 * System.out.print(SweepTextReport.render(result));
 * }</pre>
 *
 * A point that fails does not stop the sweep: whatever it threw (the engine's
 * {@code TestFailedException}, {@code RdmaException}, {@code RdmaUnavailableException},
 * {@code CmException}, an I/O or any other runtime exception) becomes a failed row with the
 * decoded message, and the path verdicts the failure carried plus those of a
 * {@link LocalPathCheck} of this host's side. A row that ran takes its verdicts and path summary
 * from the result's path report. Only an interrupt ends a sweep early; the rows so far are
 * returned.
 *
 * <p>A {@code Sweep} is an immutable description: each {@link #run()} runs every point anew.
 * Runs must not overlap against the same peer (a {@code jperf serve} peer serves one client at a
 * time).
 */
public final class Sweep {

    /** The default bound on every wait within one point (connecting, each exchange, a stalled data path). */
    public static final Duration DEFAULT_POINT_TIMEOUT = PerfTest.DEFAULT_TIMEOUT;

    /** Lines of an error message a row keeps (the rest is counted). */
    static final int ERROR_LINES = 8;

    /** Runs one point; the default runs {@link PerfTest} against the plan's peer. */
    @FunctionalInterface
    public interface PointRunner {
        PerfTestResult run(SweepChoice choice) throws Exception;
    }

    private final SweepPlan plan;
    private final Duration pointTimeout;
    private final Duration pause;
    private final SweepListener listener;
    private final PointRunner runner;
    private final LocalPathCheck pathCheck;
    private final boolean qosExpected;
    private final Duration warmup;
    private final int cpu;
    private final SweepPlan.SourceLocator locator;
    private final AuthSecret authSecret;

    private Sweep(SweepPlan plan, Duration pointTimeout, Duration pause, SweepListener listener, PointRunner runner,
                  LocalPathCheck pathCheck, boolean qosExpected, Duration warmup, int cpu,
                  SweepPlan.SourceLocator locator, AuthSecret authSecret) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.pointTimeout = positive(pointTimeout, "pointTimeout");
        this.pause = Objects.requireNonNull(pause, "pause");
        if (pause.isNegative()) {
            throw new IllegalArgumentException("pause must not be negative: " + pause);
        }
        this.listener = Objects.requireNonNull(listener, "listener");
        this.runner = runner;
        this.pathCheck = Objects.requireNonNull(pathCheck, "pathCheck");
        this.qosExpected = qosExpected;
        this.warmup = Objects.requireNonNull(warmup, "warmup");
        this.cpu = cpu;
        this.locator = Objects.requireNonNull(locator, "locator");
        this.authSecret = authSecret;
    }

    /**
     * A sweep of {@code plan} with the defaults: {@link PerfTest}'s (1 s warm-up, no pinning, F5
     * not checked), a 60 s point timeout, no pause, the live {@link LocalPathCheck} for failed
     * points, and the live source lookup.
     */
    public static Sweep of(SweepPlan plan) {
        return new Sweep(plan, DEFAULT_POINT_TIMEOUT, Duration.ZERO, SweepListener.NONE, null, LocalPathCheck.live(),
                false, PerfTest.DEFAULT_WARMUP, -1, SweepPlan.SourceLocator.live(), null);
    }

    /** Bounds every wait within one point ({@link PerfTest#timeout}); default 60 s. */
    public Sweep pointTimeout(Duration value) {
        return new Sweep(plan, value, pause, listener, runner, pathCheck, qosExpected, warmup, cpu, locator, authSecret);
    }

    /** Waits this long between points (default none), e.g. to let a fabric's counters settle. */
    public Sweep pause(Duration value) {
        return new Sweep(plan, pointTimeout, value, listener, runner, pathCheck, qosExpected, warmup, cpu, locator, authSecret);
    }

    public Sweep listener(SweepListener value) {
        return new Sweep(plan, pointTimeout, pause, value, runner, pathCheck, qosExpected, warmup, cpu, locator, authSecret);
    }

    /** Runs each point with {@code value} instead of {@link PerfTest} (tests, or another engine). */
    public Sweep runner(PointRunner value) {
        return new Sweep(plan, pointTimeout, pause, listener, Objects.requireNonNull(value, "runner"), pathCheck,
                qosExpected, warmup, cpu, locator, authSecret);
    }

    /** How a failed point's path is checked on this host (default {@link LocalPathCheck#live()}). */
    public Sweep pathCheck(LocalPathCheck value) {
        return new Sweep(plan, pointTimeout, pause, listener, runner, value, qosExpected, warmup, cpu, locator, authSecret);
    }

    /** Evaluate F5 (traffic class 0 / Not-ECT) on every point ({@link PerfTest#qosExpected}). */
    public Sweep qosExpected(boolean value) {
        return new Sweep(plan, pointTimeout, pause, listener, runner, pathCheck, value, warmup, cpu, locator, authSecret);
    }

    /** Each point's warm-up ({@link PerfTest#warmup}); default 1 s. */
    public Sweep warmup(Duration value) {
        return new Sweep(plan, pointTimeout, pause, listener, runner, pathCheck, qosExpected, value, cpu, locator, authSecret);
    }

    /** Pins the sweeping thread to {@code value} ({@link PerfTest#cpu}); -1 (default) does not. */
    public Sweep cpu(int value) {
        return new Sweep(plan, pointTimeout, pause, listener, runner, pathCheck, qosExpected, warmup, value, locator, authSecret);
    }

    /** How source addresses find their device and GID (default: this host's GID tables). */
    public Sweep sourceLocator(SweepPlan.SourceLocator value) {
        return new Sweep(plan, pointTimeout, pause, listener, runner, pathCheck, qosExpected, warmup, cpu, value, authSecret);
    }

    public SweepPlan plan() {
        return plan;
    }

    /**
     * Runs every point in plan order. Notes of the source lookup are reported to the listener first,
     * as warnings of the first point they concern.
     *
     * @return every row; fewer than the plan's points only when the thread was interrupted
     */
    public SweepResult run() {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        SweepPlan.Expansion expansion = plan.expand(locator);
        List<SweepChoice> choices = expansion.choices();
        expansion.notes().forEach(n -> listener.warning(choices.get(n.choice()), n.text()));
        List<SweepRow> rows = new ArrayList<>(choices.size());
        for (SweepChoice choice : choices) {
            if (!rows.isEmpty() && !pause.isZero()) {
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            listener.started(choice, choices.size());
            SweepRow row = runPoint(choice);
            rows.add(row);
            listener.finished(row, choices.size());
            if (Thread.currentThread().isInterrupted()) {
                break;
            }
        }
        return new SweepResult(plan.base().params().kind(), plan.base().target().serverHost(), plan.dimensionNames(), rows, started,
                Duration.ofNanos(System.nanoTime() - t0));
    }

    private SweepRow runPoint(SweepChoice choice) {
        long t0 = System.nanoTime();
        PerfTestResult result;
        try {
            result = (runner != null ? runner : (PointRunner) this::runPerfTest).run(choice);
            if (result == null) {
                throw new IllegalStateException("the point runner returned no result");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failedRow(choice, new TestFailedException("interrupted: the sweep stops here", e), t0);
        } catch (Exception e) {
            return failedRow(choice, e, t0);
        }
        Optional<PathReport> path = result.path();
        return SweepRow.ran(choice, result, path.map(PathReport::verdicts).orElse(List.of()),
                path.map(p -> PathSummary.text(p.local())), Duration.ofNanos(System.nanoTime() - t0));
    }

    /** The shared secret to prove to a {@code jperf serve} peer that requires one; null (the default): none. */
    public Sweep authSecret(AuthSecret value) {
        return new Sweep(plan, pointTimeout, pause, listener, runner, pathCheck, qosExpected, warmup, cpu, locator, value);
    }

    private PerfTestResult runPerfTest(SweepChoice choice) {
        // both ends are jperf: perftest's 1 s pause after connecting buys nothing
        return PerfTest.of(choice.options()).settleDelay(Duration.ZERO).timeout(pointTimeout)
                .qosExpected(qosExpected).warmup(warmup).cpu(cpu).authSecret(authSecret)
                .servePeerAddress(choice.peerAddress().orElse(null))
                .listener(new TestListener() {
                    @Override
                    public void warning(String message) {
                        listener.warning(choice, message);
                    }
                })
                .run();
    }

    private SweepRow failedRow(SweepChoice choice, Exception e, long t0) {
        List<Verdict> carried = carriedVerdicts(e);
        LocalPathCheck.Outcome local;
        try {
            local = pathCheck.check(choice, qosExpected);
        } catch (RuntimeException | LinkageError x) {
            local = LocalPathCheck.Outcome.problem("pre-flight: " + x);
        }
        String error = describe(e);
        if (local.problem().isPresent() && !error.contains(stripPrefix(local.problem().get()))) {
            error = error + "\n" + local.problem().get();
        }
        return SweepRow.failed(choice, error, merge(carried, local.verdicts()),
                local.record().map(PathSummary::text), Duration.ofNanos(System.nanoTime() - t0));
    }

    private static String stripPrefix(String problem) {
        return problem.startsWith("pre-flight: ") ? problem.substring("pre-flight: ".length()) : problem;
    }

    /** The verdicts the engine attached to the failure (the first in the cause chain that has some). */
    static List<Verdict> carriedVerdicts(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TestFailedException f && !f.verdicts().isEmpty()) {
                return f.verdicts();
            }
        }
        return List.of();
    }

    /** Both lists without repeats (same class, check and summary), ordered by failure class. */
    static List<Verdict> merge(List<Verdict> first, List<Verdict> second) {
        Map<String, Verdict> byKey = new LinkedHashMap<>();
        for (Verdict v : first) {
            byKey.putIfAbsent(v.id() + "\u0000" + v.check() + "\u0000" + v.summary(), v);
        }
        for (Verdict v : second) {
            byKey.putIfAbsent(v.id() + "\u0000" + v.check() + "\u0000" + v.summary(), v);
        }
        List<Verdict> out = new ArrayList<>(byKey.values());
        out.sort(Comparator.comparing(Verdict::id));
        return List.copyOf(out);
    }

    /**
     * A failure as a row's error: the message's first {@value #ERROR_LINES} lines without the
     * verdict lines the engine appends (the row lists its verdicts itself), then the causes'
     * messages where they add something. Exceptions from outside jperf that are not I/O errors
     * (likely bugs) keep their class name.
     */
    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        sb.append(ownText(e));
        List<Verdict> carried = e instanceof TestFailedException f ? f.verdicts() : List.of();
        String text = dropVerdictLines(sb.toString(), carried);
        Throwable seen = e;
        StringBuilder causes = new StringBuilder();
        int depth = 0;
        for (Throwable c = e.getCause(); c != null && c != seen && depth < 4; seen = c, c = c.getCause(), depth++) {
            String m = firstLine(ownText(c));
            if (m.isBlank() || text.contains(m) || causes.toString().contains(m)) {
                continue;
            }
            causes.append("\ncaused by: ").append(m);
        }
        return limitLines(text.strip()) + causes;
    }

    private static String ownText(Throwable e) {
        String m = e.getMessage();
        boolean ours = e.getClass().getName().startsWith("io.jperf.") || e instanceof IOException
                || e instanceof UncheckedIOException;
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return ours ? m : e.getClass().getSimpleName() + ": " + m;
    }

    private static String dropVerdictLines(String text, List<Verdict> verdicts) {
        if (verdicts.isEmpty()) {
            return text;
        }
        List<String> drop = new ArrayList<>();
        drop.add("The path has problems that may explain it:");
        verdicts.forEach(v -> drop.add(v + " Fix: " + v.fixHint()));
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (!drop.contains(line.strip())) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    private static String limitLines(String text) {
        String[] lines = text.split("\n");
        if (lines.length <= ERROR_LINES) {
            return text;
        }
        return String.join("\n", List.of(lines).subList(0, ERROR_LINES)) + "\n(" + (lines.length - ERROR_LINES)
                + " more lines)";
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return (nl < 0 ? text : text.substring(0, nl)).strip();
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
        return d;
    }
}
