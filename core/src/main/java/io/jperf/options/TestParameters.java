package io.jperf.options;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The test itself, as both ends run it: what perftest marks SYMMETRIC and exchanges or compares (kind,
 * {@code -c -a -s -n -D -q -b -m -R --report_gbits -A --run_infinitely}, see {@link #symmetricParameters()}),
 * and the values that shape the test's QPs and work requests on each side ({@code -t -l -Q -I -S --tclass -u
 * -T -o -r -N -f} and the buffer flags). perftest does not compare the latter, but they define the test that
 * is run and the usual way to run it is to give both ends the same ones; they depend on the kind and on each
 * other (the effective TX depth, CQ moderation and RX depth are derived from the size and the iterations), so
 * they are validated here together. Where to connect is a {@link ConnectionTarget}, how results are written an
 * {@link OutputOptions}.
 *
 * <p>Values are effective ones: {@link TestOptions.Builder#build()} applies perftest's defaults and derived
 * values. The canonical constructor checks every invariant of these values, so an instance is always valid.
 * Immutable and thread-safe.
 *
 * @param kind which perftest program this mirrors
 * @param connection {@code -c}: RC or UC (UC for bandwidth only)
 * @param size {@code -s}: message size in bytes (ignored for the size list when {@code allSizes})
 * @param allSizes {@code -a}: run every size 2^1 .. 2^23
 * @param iterations {@code -n}: iterations per QP and size
 * @param durationSeconds {@code -D}: run for this many seconds instead of iterations; 0 = off
 * @param numQps {@code -q}: number of QPs (1 for latency)
 * @param bidirectional {@code -b}: both sides send (bandwidth only)
 * @param txDepth {@code -t}: send queue depth, after capping at the iteration count
 * @param postList {@code -l}: work requests per post call (bandwidth only)
 * @param cqModeration {@code -Q}: signal one completion every this many work requests (effective value)
 * @param cqModerationExplicit whether {@code -Q} was given
 * @param inlineSize {@code -I}: maximum inline size in bytes
 * @param inlineSizeExplicit whether {@code -I} was given (perftest uses 220 for latency only on NICs it
 *     recognises and 0 otherwise; a runtime may lower an implicit value to what the device supports)
 * @param mtu {@code -m}: path MTU in bytes; null means the port's active MTU
 * @param serviceLevel {@code -S}: IB service level
 * @param trafficClass {@code --tclass}: GRH traffic class
 * @param qpTimeout {@code -u}: QP local ACK timeout exponent (4.096 us * 2^n)
 * @param rdmaCm {@code -R}: connect the test QPs with rdma_cm
 * @param tos {@code -T}: rdma_cm type of service; null means not set (only with {@code -R})
 * @param reportGbits {@code --report_gbits}: report Gb/s (10^9 bit) instead of MiB/s; perftest marks it
 *     symmetric and 6.28 refuses a peer whose report format differs
 * @param outstandingReads {@code -o}: outstanding RDMA READs per QP (read tests); 0 means the device's
 *     {@code max_qp_rd_atom}, as perftest
 * @param rxDepth {@code -r/--rx-depth}: receive work requests kept posted per QP (send tests, effective value:
 *     perftest's 512 capped at the iteration count and made even); 0 for verbs without receives
 * @param noPeak {@code -N}: do not measure the peak bandwidth (bandwidth tests)
 * @param margin {@code -f}: the {@code -D} warm-up and cool-down margin in seconds; -1 (perftest's default)
 *     means a quarter of the duration
 * @param atomicType {@code -A/--atomic_type}: the operation of an atomic test (perftest's default
 *     {@link AtomicType#FETCH_AND_ADD}); null for the other kinds
 * @param runInfinitely {@code --run_infinitely}: a bandwidth client writes until it is stopped, one row per
 *     {@code -D} interval (perftest's default 5 s), no peak; its server waits for it
 * @param buffers perftest's {@code --use_hugepages} and {@code --mr_per_qp}
 */
public record TestParameters(
        TestKind kind,
        Connection connection,
        long size,
        boolean allSizes,
        int iterations,
        int durationSeconds,
        int numQps,
        boolean bidirectional,
        int txDepth,
        int postList,
        int cqModeration,
        boolean cqModerationExplicit,
        int inlineSize,
        boolean inlineSizeExplicit,
        Integer mtu,
        int serviceLevel,
        int trafficClass,
        int qpTimeout,
        boolean rdmaCm,
        Integer tos,
        boolean reportGbits,
        int outstandingReads,
        int rxDepth,
        boolean noPeak,
        int margin,
        AtomicType atomicType,
        boolean runInfinitely,
        BufferOptions buffers) {

    /** perftest's default QP timeout exponent. */
    public static final int DEFAULT_QP_TIMEOUT = 14;
    /** perftest's default CQ moderation. */
    public static final int DEFAULT_CQ_MODERATION = 100;
    /** Above this message size perftest disables CQ moderation unless {@code -Q} is given. */
    public static final long CQ_MODERATION_SIZE_LIMIT = 8192;
    /** Above this iteration count perftest stops computing the peak bandwidth. */
    public static final int PEAK_ITERATION_LIMIT = 20000;
    /** Largest size of {@code -a}: 2^23. */
    public static final long MAX_ALL_SIZE = 1L << 23;
    /** perftest's {@code -D} default, the interval of {@code --run_infinitely} when no {@code -D} is given. */
    public static final int DEFAULT_INFINITE_INTERVAL = 5;

    static final int MIN_ITERATIONS = 5;
    static final int MAX_ITERATIONS = 100_000_000;
    static final int MAX_QPS = 16384;
    static final int MAX_TX_DEPTH = 15000;
    static final int MAX_CQ_MODERATION = 1024;
    static final int MAX_INLINE = 912;
    static final long MAX_SIZE = Integer.MAX_VALUE;
    static final int MAX_RX_DEPTH = 16384;

    /** Checks every invariant; see {@link TestOptions.Builder#build()} for the messages. */
    public TestParameters {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(buffers, "buffers");
        OptionsValidator.validateParameters(kind, connection, size, allSizes, iterations, durationSeconds, numQps,
                bidirectional, txDepth, postList, cqModeration, inlineSize, mtu, serviceLevel, trafficClass,
                qpTimeout, rdmaCm, tos);
        OptionsValidator.validateVerb(kind, inlineSize, inlineSizeExplicit, outstandingReads);
        OptionsValidator.validateReceives(kind, bidirectional, rxDepth);
        OptionsValidator.validateAtomic(kind, size, allSizes, atomicType);
        OptionsValidator.validateMargin(durationSeconds, margin);
    }

    /** Whether this is a {@code -D} run. */
    public boolean isDuration() {
        return durationSeconds > 0;
    }

    /**
     * The message sizes to run, in order: the single {@link #size()}, or 2, 4, ... 2^23 with {@code -a}.
     */
    public List<Long> messageSizes() {
        if (!allSizes) {
            return List.of(size);
        }
        List<Long> sizes = new ArrayList<>(23);
        for (int shift = 1; shift <= 23; shift++) {
            sizes.add(1L << shift);
        }
        return List.copyOf(sizes);
    }

    /** The largest message size of the run, which the buffers must hold. */
    public long maxMessageSize() {
        return allSizes ? MAX_ALL_SIZE : size;
    }

    /**
     * Whether perftest reports a peak bandwidth: not with {@code -D} and not above 20000 iterations
     * (the peak column then prints 0). Always false for latency tests.
     */
    public boolean peakEnabled() {
        return kind.isBandwidth() && !isDuration() && iterations <= PEAK_ITERATION_LIMIT && !noPeak;
    }

    /**
     * perftest's {@code -D} warm-up and cool-down margin in whole seconds: {@code -f}, else a quarter of the
     * duration.
     */
    public int marginSeconds() {
        return margin >= 0 ? margin : durationSeconds / 4;
    }

    /**
     * The parameters perftest marks SYMMETRIC (both sides must use the same {@code -a -b -c -D -m -n -q -s
     * -R --report_gbits}), by flag, as text; what one side exchanges with a jperf peer.
     */
    public Map<String, String> symmetricParameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("test", kind.perftestName());
        p.put("-a/--all", Boolean.toString(allSizes));
        p.put("-b/--bidirectional", Boolean.toString(bidirectional));
        p.put("-c/--connection", connection.name());
        p.put("-D/--duration", durationText(durationSeconds));
        p.put("-m/--mtu", mtuText(mtu));
        p.put("-n/--iters", isDuration() ? "timed (-D)" : Integer.toString(iterations));
        p.put("-q/--qp", Integer.toString(numQps));
        p.put("-s/--size", allSizes ? "all (-a)" : Long.toString(size));
        p.put("-R/--rdma_cm", Boolean.toString(rdmaCm));
        p.put("--report_gbits", Boolean.toString(reportGbits));
        if (atomicType != null) {
            p.put("-A/--atomic_type", atomicType.name());
        }
        if (runInfinitely) {
            p.put("--run_infinitely", "true");
        }
        return p;
    }

    /**
     * Compares the parameters perftest marks SYMMETRIC with the peer's.
     *
     * @return one line per difference, e.g. {@code "-s/--size: local 65536, remote 4096"}; empty if none
     */
    public List<String> symmetricMismatches(TestParameters peer) {
        Objects.requireNonNull(peer, "peer");
        return symmetricMismatches(symmetricParameters(), peer.symmetricParameters());
    }

    /** Compares two {@link #symmetricParameters()} maps, e.g. ours and a jperf peer's. */
    public static List<String> symmetricMismatches(Map<String, String> local, Map<String, String> remote) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : local.entrySet()) {
            String theirs = remote.get(e.getKey());
            if (!e.getValue().equals(theirs)) {
                out.add(e.getKey() + ": local " + e.getValue() + ", remote " + (theirs == null ? "not sent" : theirs));
            }
        }
        return List.copyOf(out);
    }

    private static String durationText(int seconds) {
        return seconds == 0 ? "off" : seconds + "s";
    }

    private static String mtuText(Integer mtu) {
        return mtu == null ? "port active MTU" : mtu.toString();
    }
}
