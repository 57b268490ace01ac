package io.jperf.sweep;

import io.jperf.engine.PerfTestResult;
import io.jperf.path.Severity;
import io.jperf.path.Verdict;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one sweep point produced: the test result, or the decoded error that ended it; the path
 * verdicts in both cases (a failed point keeps what could be learned about its path). Immutable.
 *
 * @param choice   the sweep point
 * @param result   the test result; empty when the point failed
 * @param error    why the point failed (call, errno, hint), empty when it ran
 * @param verdicts the path findings (F1..F7) of this point, from the result's path report or from
 *                 what was probed before the failure
 * @param path     the one-paragraph path summary of this end ({@code PathSummary}), if known
 * @param elapsed  how long the point took, connection included
 */
public record SweepRow(SweepChoice choice, Optional<PerfTestResult> result, Optional<String> error,
                       List<Verdict> verdicts, Optional<String> path, Duration elapsed) {

    public SweepRow {
        Objects.requireNonNull(choice, "choice");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(elapsed, "elapsed");
        verdicts = List.copyOf(verdicts);
        if (result.isPresent() == error.isPresent()) {
            throw new IllegalArgumentException("a sweep row has either a result or an error");
        }
    }

    public static SweepRow ran(SweepChoice choice, PerfTestResult result, List<Verdict> verdicts,
                               Optional<String> path, Duration elapsed) {
        return new SweepRow(choice, Optional.of(result), Optional.empty(), verdicts, path, elapsed);
    }

    public static SweepRow failed(SweepChoice choice, String error, List<Verdict> verdicts, Optional<String> path,
                                  Duration elapsed) {
        return new SweepRow(choice, Optional.empty(), Optional.of(error), verdicts, path, elapsed);
    }

    public boolean ok() {
        return result.isPresent();
    }

    /** No verdict of severity WARN or ERROR (INFO findings do not make a path inconsistent). */
    public boolean consistent() {
        return verdicts.stream().noneMatch(v -> v.severity() != Severity.INFO);
    }

    /**
     * The figure the sweep compares rows by: for bandwidth the average in Gb/s at the row's
     * largest message size; for latency t_typical in microseconds at its smallest size. Empty
     * for a failed row.
     */
    public OptionalDouble headline() {
        if (result.isEmpty()) {
            return OptionalDouble.empty();
        }
        PerfTestResult r = result.get();
        if (!r.bandwidth().isEmpty()) {
            BandwidthResult b = r.bandwidth().stream().max(Comparator.comparingLong(BandwidthResult::sizeBytes))
                    .orElseThrow();
            return OptionalDouble.of(gbits(b.average(), b.unit()));
        }
        return r.latency().stream().min(Comparator.comparingLong(LatencyResult::sizeBytes))
                .map(l -> OptionalDouble.of(l.typicalUs())).orElse(OptionalDouble.empty());
    }

    /** The message size {@link #headline()} was measured at; empty for a failed row. */
    public OptionalLong headlineSize() {
        if (result.isEmpty()) {
            return OptionalLong.empty();
        }
        PerfTestResult r = result.get();
        if (!r.bandwidth().isEmpty()) {
            return OptionalLong.of(r.bandwidth().stream().mapToLong(BandwidthResult::sizeBytes).max().orElseThrow());
        }
        return r.latency().stream().mapToLong(LatencyResult::sizeBytes).min().stream()
                .mapToObj(OptionalLong::of).findFirst().orElse(OptionalLong.empty());
    }

    /** Converts a bandwidth figure to Gb/s (10^9 bit/s). */
    static double gbits(double value, BandwidthResult.Unit unit) {
        return unit == BandwidthResult.Unit.GBIT_PER_SEC ? value : value * (1 << 20) * 8 / 1e9;
    }
}
