package io.jperf.options;

/**
 * The perftest program a test mirrors: a {@link Verb} and a metric (bandwidth or latency), with the
 * defaults perftest gives that program. Everything verb-specific the engine needs comes from
 * {@link #verb()}; everything metric-specific from {@link #isBandwidth()}.
 */
public enum TestKind {
    /** {@code ib_write_bw}: streaming RDMA WRITE bandwidth. */
    WRITE_BW("ib_write_bw", Verb.WRITE, true, 65536, 5000, 128, 0),
    /** {@code ib_write_lat}: RDMA WRITE ping-pong latency. */
    WRITE_LAT("ib_write_lat", Verb.WRITE, false, 2, 1000, 1, 220),
    /** {@code ib_read_bw}: streaming RDMA READ bandwidth (the client reads the server's buffer). */
    READ_BW("ib_read_bw", Verb.READ, true, 65536, 1000, 128, 0),
    /** {@code ib_read_lat}: RDMA READ latency, one read at a time (full round trips). */
    READ_LAT("ib_read_lat", Verb.READ, false, 2, 1000, 1, 0),
    /** {@code ib_send_bw}: streaming SEND bandwidth; the server receives, measures and reports. */
    SEND_BW("ib_send_bw", Verb.SEND, true, 65536, 1000, 128, 0),
    /** {@code ib_send_lat}: SEND ping-pong latency (the client sends first). */
    SEND_LAT("ib_send_lat", Verb.SEND, false, 2, 1000, 1, 236),
    /**
     * {@code ib_atomic_bw}: streaming atomic bandwidth (the client's fetch-and-adds or compare-and-swaps on the
     * server's buffer, 8-byte messages).
     */
    ATOMIC_BW("ib_atomic_bw", Verb.ATOMIC, true, Verb.ATOMIC_SIZE, 1000, 128, 0),
    /** {@code ib_atomic_lat}: atomic latency, one operation at a time (full round trips). */
    ATOMIC_LAT("ib_atomic_lat", Verb.ATOMIC, false, Verb.ATOMIC_SIZE, 1000, 1, 0);

    private final String perftestName;
    private final Verb verb;
    private final boolean bandwidth;
    private final long defaultSize;
    private final int defaultIterations;
    private final int defaultTxDepth;
    private final int defaultInlineSize;

    TestKind(String perftestName, Verb verb, boolean bandwidth, long defaultSize, int defaultIterations,
             int defaultTxDepth, int defaultInlineSize) {
        this.perftestName = perftestName;
        this.verb = verb;
        this.bandwidth = bandwidth;
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

    /**
     * {@code -r/--rx-depth} default for kinds whose verb {@linkplain Verb#usesReceives() receives}: perftest's
     * 512 (before capping at the iteration count); 0 for the others.
     */
    public int defaultRxDepth() {
        return verb.usesReceives() ? 512 : 0;
    }

    /** {@code -n} default. */
    public int defaultIterations() {
        return defaultIterations;
    }

    /** {@code -t} default (before capping at the iteration count). */
    public int defaultTxDepth() {
        return defaultTxDepth;
    }

    /**
     * {@code -I} default; for write latency perftest uses 220 only on NICs it recognises, 0 otherwise;
     * READ and ATOMIC carry no payload, so 0.
     */
    public int defaultInlineSize() {
        return defaultInlineSize;
    }

    /** The operation measured. */
    public Verb verb() {
        return verb;
    }

    /** Whether this is a bandwidth test (bidirectional, multiple QPs, post lists and CQ moderation apply). */
    public boolean isBandwidth() {
        return bandwidth;
    }

    /** jperf's command for this kind, e.g. {@code read-bw}. */
    public String commandName() {
        return verb.name().toLowerCase(java.util.Locale.ROOT) + (bandwidth ? "-bw" : "-lat");
    }

    /**
     * The kind a name means: jperf's command ({@code read-bw}), perftest's program ({@code ib_read_bw})
     * or either with {@code _} and {@code -} swapped; empty when none does.
     */
    public static java.util.Optional<TestKind> byName(String name) {
        String n = name.strip().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        for (TestKind k : values()) {
            if (n.equals(k.commandName()) || n.equals(k.perftestName.replace('_', '-'))) {
                return java.util.Optional.of(k);
            }
        }
        return java.util.Optional.empty();
    }
}
