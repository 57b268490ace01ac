package io.jperf.options;

/**
 * The RDMA operation a test measures, and what follows from it for perftest compatibility: the title
 * perftest prints, whether a payload can go inline, whether the QPs need outstanding RDMA READ
 * resources ({@code -o}), what the responder (the server of a unidirectional test) posts and polls, and
 * how its latency test runs. The engine reads these facts instead of switching on the verb. Immutable.
 */
public enum Verb {
    /**
     * RDMA WRITE: one-sided (the server posts nothing and polls nothing); the latency test is a ping-pong
     * of writes in which the server writes first and each end spins on the last byte of its buffer.
     */
    WRITE("RDMA_Write", "RDMA WRITE", 2, true, false, false, 220),
    /** RDMA READ: one-sided; the latency test is the client's reads alone (the server's CPU is idle). */
    READ("RDMA_Read", "RDMA READ", 4, false, true, false, 0),
    /**
     * ATOMIC: one-sided like READ (fetch-and-add or compare-and-swap on one 64-bit word of the responder's
     * buffer, {@link AtomicType}; the original value comes back into the requester's buffer); 8-byte
     * messages only, outstanding atomics from {@code -o} as READ's, and the latency test is the client's
     * operations alone.
     */
    ATOMIC("Atomic", "ATOMIC", 5, false, true, false, 0),
    /**
     * SEND: two-sided. The receiving end posts receive work requests up front ({@code -r/--rx-depth}),
     * polls their completions and re-posts them, so the server of a bandwidth test is active and measures
     * (and reports) what it received; the latency test is a ping-pong of sends in which the client sends
     * first and each end waits for a receive completion.
     */
    SEND("Send", "SEND", 0, true, false, true, 236);

    private final String perftestTitle;
    private final String displayName;
    private final int perftestCode;
    private final boolean inlineAllowed;
    private final boolean outstandingReads;
    private final boolean receives;
    private final int knownNicLatencyInline;

    Verb(String perftestTitle, String displayName, int perftestCode, boolean inlineAllowed, boolean outstandingReads,
         boolean receives, int knownNicLatencyInline) {
        this.perftestTitle = perftestTitle;
        this.displayName = displayName;
        this.perftestCode = perftestCode;
        this.inlineAllowed = inlineAllowed;
        this.outstandingReads = outstandingReads;
        this.receives = receives;
        this.knownNicLatencyInline = knownNicLatencyInline;
    }

    /** perftest's {@code VerbType} value (its parameter negotiation sends it): SEND 0, WRITE 2, READ 4, ATOMIC 5. */
    public int perftestCode() {
        return perftestCode;
    }

    /**
     * Whether the responder posts receive work requests and polls their completions ({@code -r/--rx-depth}
     * applies; perftest syncs both ends after posting them, before each message size, and the server of a
     * unidirectional bandwidth test measures and reports on its own instead of waiting for the client's
     * report).
     */
    public boolean usesReceives() {
        return receives;
    }

    /**
     * Whether the client makes the first move of the latency ping-pong (SEND: the server's first step is a
     * receive) rather than the server (WRITE, as perftest's {@code run_iter_lat_write}).
     */
    public boolean clientStartsPingPong() {
        return receives;
    }

    /**
     * Whether a latency test sends QP0's key message once more before the key exchange (ib_write_lat and
     * ib_read_lat do; ib_send_lat does not).
     */
    public boolean latencyExtraKeyExchange() {
        return !receives;
    }

    /** The latency inline size perftest uses on NICs it recognises when no {@code -I} is given (0: none). */
    public int knownNicLatencyInline() {
        return knownNicLatencyInline;
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
     * Whether the QPs need RDMA READ/atomic resources: the requester's outstanding reads and the responder's
     * resources ({@code -o}; perftest sets both from the device's {@code max_qp_rd_atom} by default; READ and
     * ATOMIC).
     */
    public boolean usesOutstandingReads() {
        return outstandingReads;
    }

    /**
     * Whether both ends run the latency loop (a ping-pong, reported as half round trips) or only the
     * client does (each request's completion is the round trip, reported whole).
     */
    public boolean latencyIsPingPong() {
        return this != READ && this != ATOMIC;
    }

    /**
     * Whether the requests are atomic operations: the responder grants remote atomic access (memory region and
     * QP), every message is one aligned 64-bit word ({@link #ATOMIC_SIZE} bytes) and {@code -A} chooses the
     * operation.
     */
    public boolean isAtomic() {
        return this == ATOMIC;
    }

    /** The size of every atomic message: one 64-bit word (perftest's {@code DEF_SIZE_ATOMIC}). */
    public static final int ATOMIC_SIZE = 8;
}
