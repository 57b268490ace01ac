package io.jperf.stats;

import io.jperf.result.BandwidthResult;

/**
 * Bandwidth figures computed from post and completion timestamps the way perftest's
 * {@code print_report_bw} does. With N = iterations x QPs messages:
 * <ul>
 *   <li>average = size x N / (last completion - first post);</li>
 *   <li>message rate = N / (last completion - first post) / 10^6;</li>
 *   <li>peak = size / the shortest per-message time of any window from a post {@code i} (every
 *       {@code postList}-th) to a recorded completion {@code j >= i} (every {@code cqModeration}-th, plus
 *       the last): {@code (completion[j] - post[i]) / (j - i + 1)}.</li>
 * </ul>
 * Units: MiB/s (2^20 bytes) or Gb/s (10^9 bits). perftest divides whole clock ticks per message with
 * integer division; jperf keeps fractional nanoseconds. Stateless and thread-safe.
 */
public final class BandwidthStats {
    private BandwidthStats() {
    }

    /**
     * Figures with the peak, from per-message timestamps in nanoseconds indexed by the global message
     * number (0 .. N-1, in posting order across QPs, as perftest's {@code tposted}/{@code tcompleted}).
     *
     * @param postNanos post time; read at every index that is a multiple of {@code postList}
     * @param completionNanos completion time; read at {@code k x cqModeration - 1} and at {@code N - 1}
     * @param iterations iterations per QP
     * @throws IllegalArgumentException when an array is shorter than N, a parameter is not positive, or the
     *     last completion is not after the first post
     */
    public static BandwidthResult compute(long[] postNanos, long[] completionNanos, int iterations, int numQps,
                                          long sizeBytes, int cqModeration, int postList,
                                          BandwidthResult.Unit unit) {
        requirePositive("iterations", iterations);
        requirePositive("numQps", numQps);
        requirePositive("cqModeration", cqModeration);
        requirePositive("postList", postList);
        long n = (long) iterations * numQps;
        if (postNanos.length < n || completionNanos.length < n) {
            throw new IllegalArgumentException("timestamp arrays hold " + postNanos.length + " posts and "
                    + completionNanos.length + " completions; " + n + " messages need " + n + " each");
        }
        int total = (int) n;
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < total; i += postList) {
            long post = postNanos[i];
            for (int j = roundUp(i + 1, cqModeration) - 1; j < total; j += cqModeration) {
                best = Math.min(best, (double) (completionNanos[j] - post) / (j - i + 1));
            }
            if (total % cqModeration != 0) {
                int j = total - 1;
                best = Math.min(best, (double) (completionNanos[j] - post) / (j - i + 1));
            }
        }
        long elapsed = completionNanos[total - 1] - postNanos[0];
        BandwidthResult base = fromElapsed(elapsed, n, sizeBytes, unit);
        double peak = best > 0 ? unit.fromBytesPerSecond(sizeBytes * 1e9 / best) : 0;
        return new BandwidthResult(sizeBytes, n, peak, base.average(), base.messageRateMpps(), unit);
    }

    /**
     * Figures without the peak (printed as 0), as perftest reports {@code -D} runs and runs of more than
     * 20000 iterations.
     *
     * @param elapsedNanos first post to last completion (with {@code -D}: the sampling window)
     * @param messages messages completed in that time (all QPs)
     */
    public static BandwidthResult fromElapsed(long elapsedNanos, long messages, long sizeBytes,
                                              BandwidthResult.Unit unit) {
        if (elapsedNanos <= 0) {
            throw new IllegalArgumentException("elapsed time must be positive (got " + elapsedNanos + " ns)");
        }
        if (messages < 0 || sizeBytes <= 0) {
            throw new IllegalArgumentException("messages (" + messages + ") must be >= 0 and size ("
                    + sizeBytes + ") > 0");
        }
        double seconds = elapsedNanos / 1e9;
        double average = unit.fromBytesPerSecond((double) sizeBytes * messages / seconds);
        double rate = messages / seconds / 1e6;
        return new BandwidthResult(sizeBytes, messages, 0, average, rate, unit);
    }

    private static int roundUp(int value, int alignment) {
        return value % alignment == 0 ? value : alignment * (value / alignment + 1);
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive (got " + value + ")");
        }
    }
}
