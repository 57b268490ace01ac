package io.jperf.options;

/**
 * The perftest program a test mirrors. Each kind carries the defaults that differ between
 * {@code ib_write_bw} and {@code ib_write_lat}.
 */
public enum TestKind {
    /** {@code ib_write_bw}: streaming RDMA WRITE bandwidth. */
    WRITE_BW("ib_write_bw", 65536, 5000, 128, 0),
    /** {@code ib_write_lat}: RDMA WRITE ping-pong latency. */
    WRITE_LAT("ib_write_lat", 2, 1000, 1, 220);

    private final String perftestName;
    private final long defaultSize;
    private final int defaultIterations;
    private final int defaultTxDepth;
    private final int defaultInlineSize;

    TestKind(String perftestName, long defaultSize, int defaultIterations, int defaultTxDepth,
             int defaultInlineSize) {
        this.perftestName = perftestName;
        this.defaultSize = defaultSize;
        this.defaultIterations = defaultIterations;
        this.defaultTxDepth = defaultTxDepth;
        this.defaultInlineSize = defaultInlineSize;
    }

    /** The perftest binary this kind is a drop-in for, e.g. {@code ib_write_bw}. */
    public String perftestName() {
        return perftestName;
    }

    /** {@code -s} default in bytes. */
    public long defaultSize() {
        return defaultSize;
    }

    /** {@code -n} default. */
    public int defaultIterations() {
        return defaultIterations;
    }

    /** {@code -t} default (before capping at the iteration count). */
    public int defaultTxDepth() {
        return defaultTxDepth;
    }

    /** {@code -I} default; for latency perftest uses 220 only on NICs it recognises, 0 otherwise. */
    public int defaultInlineSize() {
        return defaultInlineSize;
    }

    /** Whether this is a bandwidth test (bidirectional, multiple QPs, post lists and CQ moderation apply). */
    public boolean isBandwidth() {
        return this == WRITE_BW;
    }
}
