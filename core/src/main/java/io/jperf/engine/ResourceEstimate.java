package io.jperf.engine;

import io.jperf.options.TestKind;
import io.jperf.options.TestParameters;

import java.util.Locale;

/**
 * What one end of a test allocates, computed from its options before anything is allocated: the
 * registered buffer (native memory, pinned), the Java heap for timestamps, and an upper estimate
 * of the provider's queue memory (send queues and the CQ). {@code jperf serve} refuses a request
 * whose total is over its {@code --max-memory}; the command line refuses a test that cannot fit
 * in this host's memory. Every product is computed in {@code long} without overflow (the largest
 * valid options stay far below 2^63). Immutable.
 *
 * @param bufferBytes the registered buffer: two page-aligned slices per QP
 * @param heapBytes   the timestamp arrays (peak bandwidth, latency samples and their differences)
 * @param queueBytes  the send queues and completion queue, estimated generously
 */
public record ResourceEstimate(long bufferBytes, long heapBytes, long queueBytes) {
    private static final long PAGE = 4096;
    /** Generous per-entry sizes: a send WQE with inline space, a CQE, and a QP's fixed part. */
    private static final long WQE_BYTES = 512;
    private static final long CQE_BYTES = 64;
    private static final long QP_FIXED_BYTES = 16 * 1024;

    /**
     * One end of the test {@code p} describes (the server's end for a served request); where it runs and how
     * it reports do not change it.
     */
    public static ResourceEstimate of(TestParameters p) {
        long qps = p.numQps();
        long slice = alignUp(Math.max(p.maxMessageSize(), PAGE));
        long buffer = slice * 2 * qps;
        long heap;
        if (p.kind().isBandwidth()) {
            heap = p.peakEnabled() ? 2L * Long.BYTES * p.iterations() * qps : 0;
        } else {
            long samples = p.isDuration()
                    ? Math.min(LatencyMeasurement.MAX_DURATION_STAMPS,
                            LatencyMeasurement.DURATION_STAMPS_PER_SECOND * p.durationSeconds())
                    : Math.max(p.iterations(), RunSettings.LATENCY_WARMUP_ROUNDS);
            heap = 2L * Long.BYTES * samples; // the stamps and their differences
        }
        long depth = p.kind() == TestKind.WRITE_BW ? p.txDepth() : 1;
        long queues = qps * (depth * WQE_BYTES + QP_FIXED_BYTES) + Math.max(16, depth * qps) * CQE_BYTES;
        return new ResourceEstimate(buffer, heap, queues);
    }

    /** Everything together. */
    public long totalBytes() {
        return bufferBytes + heapBytes + queueBytes;
    }

    /** Both ends in one process ({@code --loopback}). */
    public ResourceEstimate twice() {
        return new ResourceEstimate(2 * bufferBytes, 2 * heapBytes, 2 * queueBytes);
    }

    /** "1.5 GiB", "64.0 MiB", "512 B": for messages. */
    public static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** "buffer 8.0 GiB + heap 0 B + queues 1.2 MiB". */
    public String describe() {
        return "buffer " + format(bufferBytes) + " + heap " + format(heapBytes) + " + queues " + format(queueBytes);
    }

    private static long alignUp(long value) {
        return (value + PAGE - 1) / PAGE * PAGE;
    }
}
