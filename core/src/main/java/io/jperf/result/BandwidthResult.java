package io.jperf.result;

import java.util.Objects;

/**
 * One message size's bandwidth figures, as perftest prints them in a row of its BW table. Immutable.
 *
 * @param sizeBytes message size
 * @param iterations messages counted: iterations x QPs (with {@code -D}: messages completed in the window)
 * @param peak best window's bandwidth in {@code unit}; 0 when not computed ({@code -D}, more than 20000
 *     iterations)
 * @param average bandwidth from first post to last completion, in {@code unit}
 * @param messageRateMpps million messages per second
 * @param unit the unit of {@code peak} and {@code average}
 */
public record BandwidthResult(long sizeBytes, long iterations, double peak, double average,
                              double messageRateMpps, Unit unit) {

    /** Bandwidth unit: MiB/s (2^20 bytes) by default, Gb/s (10^9 bits) with {@code --report_gbits}. */
    public enum Unit {
        /** 2^20 bytes per second. */
        MIB_PER_SEC("MiB/sec", 1L << 20),
        /** 10^9 bits per second. */
        GBIT_PER_SEC("Gb/sec", 125_000_000L);

        private final String label;
        private final long bytesPerSecond;

        Unit(String label, long bytesPerSecond) {
            this.label = label;
            this.bytesPerSecond = bytesPerSecond;
        }

        /** The label in perftest's table header, e.g. {@code MiB/sec}. */
        public String label() {
            return label;
        }

        /** Bytes per second that make one unit (perftest's {@code format_factor}). */
        public long bytesPerSecond() {
            return bytesPerSecond;
        }

        /** Converts a byte rate to this unit. */
        public double fromBytesPerSecond(double bytesPerSec) {
            return bytesPerSec / bytesPerSecond;
        }
    }

    public BandwidthResult {
        Objects.requireNonNull(unit, "unit");
    }

    /**
     * This side's figures plus the peer's, as perftest reports a bidirectional test: peak, average and
     * message rate add up; size and iterations stay this side's.
     *
     * @throws IllegalArgumentException if the units differ
     */
    public BandwidthResult plus(BandwidthResult peer) {
        if (peer.unit != unit) {
            throw new IllegalArgumentException("cannot add " + peer.unit + " to " + unit
                    + ": both sides must agree on --report_gbits");
        }
        return new BandwidthResult(sizeBytes, iterations, peak + peer.peak, average + peer.average,
                messageRateMpps + peer.messageRateMpps, unit);
    }
}
