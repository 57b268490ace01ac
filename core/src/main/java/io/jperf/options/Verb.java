package io.jperf.options;

/**
 * The RDMA operation a test measures, and what follows from it for perftest compatibility: the title
 * perftest prints, whether a payload can go inline, whether the QPs need outstanding RDMA READ
 * resources ({@code -o}), and how its latency test runs. Immutable.
 */
public enum Verb {
    /** RDMA WRITE: one-sided; the latency test is a ping-pong of writes between both ends. */
    WRITE("RDMA_Write", "RDMA WRITE", true, false),
    /** RDMA READ: one-sided; the latency test is the client's reads alone (the server's CPU is idle). */
    READ("RDMA_Read", "RDMA READ", false, true);

    private final String perftestTitle;
    private final String displayName;
    private final boolean inlineAllowed;
    private final boolean outstandingReads;

    Verb(String perftestTitle, String displayName, boolean inlineAllowed, boolean outstandingReads) {
        this.perftestTitle = perftestTitle;
        this.displayName = displayName;
        this.inlineAllowed = inlineAllowed;
        this.outstandingReads = outstandingReads;
    }

    /** The first word of perftest's report title, e.g. {@code RDMA_Read}. */
    public String perftestTitle() {
        return perftestTitle;
    }

    /** How messages name the operation, e.g. {@code RDMA READ}. */
    public String displayName() {
        return displayName;
    }

    /** Whether a work request of this verb can carry its payload inline. */
    public boolean inlineAllowed() {
        return inlineAllowed;
    }

    /**
     * Whether the QPs need RDMA READ resources: the requester's outstanding reads and the responder's
     * resources ({@code -o}; perftest sets both from the device's {@code max_qp_rd_atom} by default).
     */
    public boolean usesOutstandingReads() {
        return outstandingReads;
    }

    /**
     * Whether both ends run the latency loop (a ping-pong, reported as half round trips) or only the
     * client does (each request's completion is the round trip, reported whole).
     */
    public boolean latencyIsPingPong() {
        return this == WRITE;
    }
}
