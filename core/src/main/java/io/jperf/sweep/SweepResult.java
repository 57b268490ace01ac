package io.jperf.sweep;

import io.jperf.options.TestKind;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.LongStream;

/**
 * All rows of one sweep, in the order they ran. Immutable.
 *
 * @param kind       write-bw or write-lat
 * @param peerHost   the {@code jperf serve} peer's control address
 * @param dimensions the swept dimension names, in column order
 * @param rows       one row per choice, failed ones included
 * @param started    when the sweep started
 * @param elapsed    how long it took
 */
public record SweepResult(TestKind kind, String peerHost, List<String> dimensions, List<SweepRow> rows,
                          Instant started, Duration elapsed) {

    public SweepResult {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(peerHost, "peerHost");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(elapsed, "elapsed");
        dimensions = List.copyOf(dimensions);
        rows = List.copyOf(rows);
    }

    /** True when a larger headline is better (bandwidth); false for latency. */
    public boolean higherIsBetter() {
        return kind.isBandwidth();
    }

    /** The headline's unit, {@code Gb/s} or {@code us}. */
    public String headlineUnit() {
        return kind.isBandwidth() ? "Gb/s" : "us";
    }

    /**
     * The message size choices are ranked at: rows measured at other sizes (a size dimension) are
     * not compared with each other. Bandwidth: the largest headline size among the rows that ran;
     * latency: the smallest.
     */
    public OptionalLong rankedSize() {
        LongStream sizes = rows.stream().filter(SweepRow::ok).mapToLong(r -> r.headlineSize().orElseThrow());
        return higherIsBetter() ? sizes.max().stream().mapToObj(OptionalLong::of).findFirst().orElse(OptionalLong.empty())
                : sizes.min().stream().mapToObj(OptionalLong::of).findFirst().orElse(OptionalLong.empty());
    }

    /**
     * Which choices are best and worst, if any may be called so: {@link SweepRanking}'s rule with its
     * default noise threshold ({@link SweepRanking#ONE_RUN_NOISE}).
     */
    public SweepRanking ranking() {
        return SweepRanking.of(this);
    }

    /**
     * The row with the best headline among those that ran at {@link #rankedSize()}; empty unless
     * {@link #ranking()} ranks them (at least two such rows, further apart than the noise threshold).
     */
    public Optional<SweepRow> best() {
        return ranking().best();
    }

    /** The row with the worst headline, under the same conditions as {@link #best()}. */
    public Optional<SweepRow> worst() {
        return ranking().worst();
    }
}
