package io.jperf.engine;

import io.jperf.options.TestParameters;

import java.util.Locale;

/**
 * The resource budget of {@code jperf serve}: the products of a client's request checked against
 * the server's {@link ServeLimits} after its fields were parsed and range-checked, and before
 * anything is allocated. Memory is buffer + timestamps + queues ({@link ResourceEstimate}); time
 * is the duration asked for, or the least time the transfer could take on the fastest link
 * ({@value #FASTEST_GBIT_PER_SECOND} Gb/s, {@value #FASTEST_ROUND_TRIP_NANOS} ns a round trip).
 * Stateless.
 */
final class ServeBudget {
    static final int FASTEST_GBIT_PER_SECOND = 400;
    static final int FASTEST_ROUND_TRIP_NANOS = 1000;

    private ServeBudget() {
    }

    /** @throws ServeRefusedException naming the product, the limit and what to lower */
    static void check(TestParameters p, ServeLimits limits) {
        ResourceEstimate need = ResourceEstimate.of(p);
        if (need.totalBytes() > limits.maxMemoryBytes()) {
            throw refuse("the test needs " + ResourceEstimate.format(need.totalBytes()) + " on the server ("
                    + need.describe() + "), over its --max-memory " + ResourceEstimate.format(limits.maxMemoryBytes())
                    + ": use a smaller -s, fewer -q, a smaller -t or fewer -n");
        }
        long maxSeconds = limits.maxDuration().toSeconds();
        if (p.isDuration()) {
            if (p.durationSeconds() > maxSeconds) {
                throw refuse("-D " + p.durationSeconds() + " is longer than the server's --max-duration " + maxSeconds
                        + " s");
            }
            return;
        }
        double least = leastSeconds(p);
        if (least > maxSeconds) {
            throw refuse(String.format(Locale.ROOT, "-n %d over %s takes at least %.0f s even at %d Gb/s, longer"
                    + " than the server's --max-duration %d s: use fewer -n or -D", p.iterations(),
                    p.allSizes() ? "every size (-a)" : p.size() + " B x " + p.numQps() + " QP(s)", least,
                    FASTEST_GBIT_PER_SECOND, maxSeconds));
        }
    }

    /** The least time a counted test could take: its bytes at the fastest rate, or its round trips. */
    static double leastSeconds(TestParameters p) {
        double bytes = 0;
        for (long size : p.messageSizes()) {
            bytes += (double) size * p.iterations() * p.numQps();
        }
        if (p.bidirectional()) {
            bytes *= 2;
        }
        double seconds = bytes * 8 / (FASTEST_GBIT_PER_SECOND * 1e9);
        if (!p.kind().isBandwidth()) {
            seconds = Math.max(seconds,
                    (double) p.iterations() * p.messageSizes().size() * FASTEST_ROUND_TRIP_NANOS / 1e9);
        }
        return seconds;
    }

    private static ServeRefusedException refuse(String reason) {
        return new ServeRefusedException("over this server's budget: " + reason, null, null);
    }
}
