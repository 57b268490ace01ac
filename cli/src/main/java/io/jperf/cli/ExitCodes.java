package io.jperf.cli;

/** The documented process exit codes of {@code jperf}. */
public final class ExitCodes {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** The test ran but failed: completion errors, a peer that went away, a mismatch with the peer. */
    public static final int TEST_FAILED = 1;
    /** Invalid options or combinations; nothing was touched. */
    public static final int USAGE = 2;
    /** No usable RDMA here: libraries missing, kernel without RDMA, no device, no such device or port. */
    public static final int NO_RDMA = 3;
    /** A verbs or RDMA CM call failed; the message names it, its errno and a hint. */
    public static final int RDMA_ERROR = 4;

    /** A bug: an exception nobody expected (printed with its stack trace). */
    public static final int INTERNAL = 70;

    private ExitCodes() {
    }
}
