package io.jperf.options;

import java.nio.file.Path;

/**
 * The checks behind {@link TestParameters}, {@link ConnectionTarget}, {@link OutputOptions} and, for what spans
 * them, {@link TestOptions}; each failure names the perftest flag and what is allowed.
 */
final class OptionsValidator {
    private OptionsValidator() {
    }

    static void requireRange(String flag, long value, long min, long max) {
        if (value < min || value > max) {
            throw new OptionsException(flag + ": must be between " + min + " and " + max + " (got " + value + ")");
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new OptionsException(message);
        }
    }

    private static void requireNotBlank(String flag, String value) {
        if (value != null && value.isBlank()) {
            throw new OptionsException(flag + ": must not be empty");
        }
    }

    /** The checks of a {@link ConnectionTarget}: where to connect and which local device, port and GID. */
    static void validateTarget(String serverHost, int port, String device, int ibPort, int gidIndex,
                               String bindSourceIp, boolean loopback) {
        requireNotBlank("host", serverHost);
        requireNotBlank("-d/--ib-dev", device);
        requireNotBlank("--bind_source_ip", bindSourceIp);
        requireRange("-p/--port", port, 1, 65535);
        requireRange("-i/--ib-port", ibPort, 1, 255);
        require(gidIndex == -1 || (gidIndex >= 0 && gidIndex <= ConnectionTarget.MAX_GID_INDEX),
                "-x/--gid-index: must be between 0 and " + ConnectionTarget.MAX_GID_INDEX
                        + ", or omitted for automatic choice (got " + gidIndex + ")");
        require(!(loopback && serverHost != null),
                "loopback runs both ends in this process: do not also give a server host (" + serverHost + ")");
    }

    /** The checks of {@link OutputOptions}. */
    static void validateOutput(boolean json, Path jsonFile) {
        require(json == (jsonFile != null), "--out_json_file: a JSON report needs a file name");
    }

    /** The checks of {@link TestParameters} that do not follow from the verb alone. */
    static void validateParameters(TestKind kind, Connection connection, long size, boolean allSizes,
                                   int iterations, int durationSeconds, int numQps, boolean bidirectional,
                                   int txDepth, int postList, int cqModeration, int inlineSize, Integer mtu,
                                   int serviceLevel, int trafficClass, int qpTimeout, boolean rdmaCm, Integer tos) {
        String program = kind.perftestName();
        requireRange("-s/--size", size, 1, TestParameters.MAX_SIZE);
        requireRange("-n/--iters", iterations, TestParameters.MIN_ITERATIONS, TestParameters.MAX_ITERATIONS);
        require(durationSeconds >= 0, "-D/--duration: must be a positive number of seconds (got "
                + durationSeconds + ")");
        require(!(durationSeconds > 0 && allSizes),
                "-D/--duration cannot be combined with -a/--all: duration mode runs a single message size");
        requireRange("-q/--qp", numQps, 1, TestParameters.MAX_QPS);
        require(kind.isBandwidth() || numQps == 1,
                "-q/--qp: multiple QPs are only available in bandwidth tests, " + program + " uses 1");
        require(kind.isBandwidth() || !bidirectional,
                "-b/--bidirectional: only available in bandwidth tests, not in " + program);
        require(kind.isBandwidth() || connection == Connection.RC,
                "-c/--connection: " + program + " supports RC only (UC is available in ib_write_bw)");
        require(kind.verb() != Verb.READ || connection == Connection.RC,
                "-c/--connection: " + program + " supports RC only: UC has no RDMA READ");
        require(kind.verb() != Verb.ATOMIC || connection == Connection.RC,
                "-c/--connection: " + program + " supports RC only: UC has no atomic operations");
        require(kind.verb() != Verb.SEND || connection == Connection.RC,
                "-c/--connection: jperf runs " + program + " over RC only (perftest's UC and UD send tests are"
                        + " not implemented)");
        require(!(rdmaCm && connection == Connection.UC),
                "-c UC cannot be combined with -R/--rdma_cm: librdmacm does not support UC");
        requireRange("-t/--tx-depth", txDepth, 1, TestParameters.MAX_TX_DEPTH);
        require(postList >= 1, "-l/--post_list: must be at least 1 (got " + postList + ")");
        require(kind.isBandwidth() || postList == 1,
                "-l/--post_list: post lists are only available in bandwidth tests, not in " + program);
        require(postList == 1 || durationSeconds > 0 || iterations % postList == 0,
                "-l/--post_list " + postList + ": -n/--iters (" + iterations + ") must be a multiple of it");
        require(postList <= txDepth, "-l/--post_list " + postList + " exceeds -t/--tx-depth " + txDepth
                + ": a post list must fit in the send queue");
        requireRange("-Q/--cq-mod", cqModeration, 1, TestParameters.MAX_CQ_MODERATION);
        require(postList == 1 || postList % cqModeration == 0, "-l/--post_list " + postList
                + " must be a multiple of -Q/--cq-mod " + cqModeration);
        requireRange("-I/--inline_size", inlineSize, 0, TestParameters.MAX_INLINE);
        if (mtu != null && !isIbMtu(mtu)) {
            throw new OptionsException("-m/--mtu: " + mtu + " is not an IB MTU; use 256, 512, 1024, 2048 or 4096");
        }
        requireRange("-S/--sl", serviceLevel, 0, 15);
        requireRange("--tclass", trafficClass, 0, 255);
        requireRange("-u/--qp-timeout", qpTimeout, 0, 31);
        if (tos != null) {
            require(rdmaCm, "-T/--tos: only valid with -R/--rdma_cm (use --tclass without -R)");
            requireRange("-T/--tos", tos, 0, 255);
        }
    }

    /** The {@code -f} margin: only with {@code -D}, at least 0 and less than half of it (or -1: the default). */
    static void validateMargin(int durationSeconds, int margin) {
        if (margin != -1) {
            if (durationSeconds == 0) {
                throw new OptionsException("-f/--margin applies to -D/--duration runs only");
            }
            if (margin < 0 || durationSeconds <= 2L * margin) {
                throw new OptionsException("-f/--margin must be 0 or more and less than half of -D (" + durationSeconds
                        + " s), got " + margin);
            }
        }
    }

    /** The checks that span the parts of a {@link TestOptions}. */
    static void validateCombination(TestParameters params, ConnectionTarget target, OutputOptions output) {
        TestKind kind = params.kind();
        require(output.outputMode().appliesTo(kind), "--output=" + output.outputMode().flagValue()
                + ": not valid for " + kind.perftestName() + "; use "
                + (kind.isBandwidth() ? "bandwidth or message_rate" : "latency"));
        require(!(params.runInfinitely() && target.loopback()),
                "--run_infinitely: jperf does not run --loopback infinitely yet");
    }

    /** The checks that follow from the kind's verb. */
    static void validateVerb(TestKind kind, int inlineSize, boolean inlineSizeExplicit, int outstandingReads) {
        Verb verb = kind.verb();
        require(verb.inlineAllowed() || !inlineSizeExplicit || inlineSize == 0, "-I/--inline_size: "
                + verb.displayName() + " carries no payload to send inline (" + kind.perftestName() + ")");
        require(outstandingReads == 0 || verb.usesOutstandingReads(), "-o/--outs: outstanding reads apply to"
                + " read and atomic tests, not to " + kind.perftestName());
        requireRange("-o/--outs", outstandingReads, 0, MAX_OUTSTANDING_READS);
    }

    /** The checks of verbs with receive queues ({@code -r}; SEND). */
    static void validateReceives(TestKind kind, boolean bidirectional, int rxDepth) {
        if (!kind.verb().usesReceives()) {
            require(rxDepth == 0, "-r/--rx-depth: receive queues are only used by send tests, not by "
                    + kind.perftestName());
            return;
        }
        requireRange("-r/--rx-depth", rxDepth, 1, TestParameters.MAX_RX_DEPTH + 1);
        require(!bidirectional, "-b/--bidirectional: jperf runs " + kind.perftestName()
                + " unidirectional only (the client sends, the server receives); bidirectional SEND is not"
                + " implemented yet");
    }

    /**
     * The checks of atomic tests: one 8-byte message size (perftest refuses any other: "Message size cannot be
     * changed for Atomic tests"), and an operation exactly when the kind is atomic.
     */
    static void validateAtomic(TestKind kind, long size, boolean allSizes, AtomicType atomicType) {
        if (!kind.verb().isAtomic()) {
            require(atomicType == null, "-A/--atomic_type: the atomic operation applies to atomic tests"
                    + " (ib_atomic_bw, ib_atomic_lat), not to " + kind.perftestName());
            return;
        }
        require(atomicType != null, "-A/--atomic_type: " + kind.perftestName() + " needs an atomic operation");
        require(!allSizes, "-a/--all: the message size cannot be changed for atomic tests: " + kind.perftestName()
                + " runs 8-byte messages only");
        require(size == Verb.ATOMIC_SIZE, "-s/--size: the message size cannot be changed for atomic tests: "
                + kind.perftestName() + " runs 8-byte messages only (got " + size + ")");
    }

    /** The largest {@code -o}: the 8-bit {@code max_rd_atomic} of {@code ibv_modify_qp}. */
    static final int MAX_OUTSTANDING_READS = 255;

    private static boolean isIbMtu(int bytes) {
        for (io.jperf.verbs.Mtu m : io.jperf.verbs.Mtu.values()) {
            if (m.bytes() == bytes) {
                return true;
            }
        }
        return false;
    }
}
