package io.jperf.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The parameters of one perftest-compatible test, validated. Build with {@link #builder(TestKind)}: unset
 * values take perftest 6.06's defaults for the kind and the derived values are applied as perftest does
 * (TX depth capped at the iteration count, CQ moderation forced to 1 above 8192 bytes unless {@code -Q}
 * was given, CQ moderation capped at the TX depth, a post list sets CQ moderation to its length unless
 * {@code -Q} was given). The canonical constructor checks every invariant, so an instance is always valid.
 * Immutable and thread-safe.
 *
 * @param kind which perftest program this mirrors
 * @param connection {@code -c}: RC or UC (UC for bandwidth only)
 * @param serverHost the positional host argument; null means this side is the server
 * @param port {@code -p}: TCP control port (and rdma_cm port)
 * @param device {@code -d}: RDMA device name; null means the first device found
 * @param ibPort {@code -i}: port number on the device
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
 * @param gidIndex {@code -x}: GID index; -1 means no GRH on IB and automatic choice on Ethernet
 * @param serviceLevel {@code -S}: IB service level
 * @param trafficClass {@code --tclass}: GRH traffic class
 * @param qpTimeout {@code -u}: QP local ACK timeout exponent (4.096 us * 2^n)
 * @param rdmaCm {@code -R}: connect the test QPs with rdma_cm
 * @param tos {@code -T}: rdma_cm type of service; null means not set (only with {@code -R})
 * @param reportGbits {@code --report_gbits}: report Gb/s (10^9 bit) instead of MiB/s
 * @param outputMode {@code --output}: print only one number
 * @param json {@code --out_json}: write a JSON report
 * @param jsonFile {@code --out_json_file}: where to write it (non-null when {@code json})
 * @param csvFile where to write a CSV report; null = none
 * @param hlogFile where to write an HdrHistogram log of latency samples; null = none
 * @param bindSourceIp {@code --bind_source_ip}: local address for the control socket; null = any
 * @param loopback run both ends in this process
 * @param outstandingReads {@code -o}: outstanding RDMA READs per QP (read tests); 0 means the device's
 *     {@code max_qp_rd_atom}, as perftest
 * @param rxDepth {@code -r/--rx-depth}: receive work requests kept posted per QP (send tests, effective value:
 *     perftest's 512 capped at the iteration count and made even); 0 for verbs without receives
 * @param noPeak {@code -N}: do not measure the peak bandwidth (bandwidth tests)
 * @param margin {@code -f}: the {@code -D} warm-up and cool-down margin in seconds; -1 (perftest's default)
 *     means a quarter of the duration
 * @param atomicType {@code -A/--atomic_type}: the operation of an atomic test (perftest's default
 *     {@link AtomicType#FETCH_AND_ADD}); null for the other kinds
 * @param buffers perftest's {@code --use_hugepages} and {@code --mr_per_qp}
 * @param runInfinitely {@code --run_infinitely}: a bandwidth client writes until it is stopped, one row per
 *     {@code -D} interval (perftest's default 5 s), no peak; its server waits for it
 */
public record TestOptions(
        TestKind kind,
        Connection connection,
        String serverHost,
        int port,
        String device,
        int ibPort,
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
        int gidIndex,
        int serviceLevel,
        int trafficClass,
        int qpTimeout,
        boolean rdmaCm,
        Integer tos,
        boolean reportGbits,
        OutputMode outputMode,
        boolean json,
        Path jsonFile,
        Path csvFile,
        Path hlogFile,
        String bindSourceIp,
        boolean loopback,
        int outstandingReads,
        int rxDepth,
        boolean noPeak,
        int margin,
        AtomicType atomicType,
        boolean runInfinitely,
        BufferOptions buffers) {

    /** perftest's default control port. */
    public static final int DEFAULT_PORT = 18515;
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
    /** perftest's default JSON file name. */
    public static final Path DEFAULT_JSON_FILE = Path.of("perftest_out.json");

    static final int MIN_ITERATIONS = 5;
    static final int MAX_ITERATIONS = 100_000_000;
    static final int MAX_QPS = 16384;
    static final int MAX_TX_DEPTH = 15000;
    static final int MAX_CQ_MODERATION = 1024;
    static final int MAX_INLINE = 912;
    static final long MAX_SIZE = Integer.MAX_VALUE;
    static final int MAX_GID_INDEX = 255;
    static final int MAX_RX_DEPTH = 16384;

    /** Checks every invariant; see {@link Builder#build()} for the messages. */
    public TestOptions {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(outputMode, "outputMode");
        Objects.requireNonNull(buffers, "buffers");
        OptionsValidator.validate(kind, connection, serverHost, port, device, ibPort, size, allSizes,
                iterations, durationSeconds, numQps, bidirectional, txDepth, postList, cqModeration,
                inlineSize, mtu, gidIndex, serviceLevel, trafficClass, qpTimeout, rdmaCm, tos,
                outputMode, json, jsonFile, bindSourceIp, loopback);
        OptionsValidator.validateVerb(kind, inlineSize, inlineSizeExplicit, outstandingReads);
        OptionsValidator.validateReceives(kind, bidirectional, rxDepth);
        OptionsValidator.validateAtomic(kind, size, allSizes, atomicType);
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

    /** A builder with every value at perftest's default for {@code kind}. */
    public static Builder builder(TestKind kind) {
        return new Builder(kind);
    }

    /** A builder holding this instance's explicit choices, for deriving a variant. */
    public Builder toBuilder() {
        Builder b = new Builder(kind)
                .connection(connection).serverHost(serverHost).port(port).device(device).ibPort(ibPort)
                .size(size).allSizes(allSizes).iterations(iterations).durationSeconds(durationSeconds)
                .numQps(numQps).bidirectional(bidirectional).postList(postList).mtu(mtu)
                .gidIndex(gidIndex).serviceLevel(serviceLevel).trafficClass(trafficClass)
                .qpTimeout(qpTimeout).rdmaCm(rdmaCm).tos(tos).reportGbits(reportGbits)
                .outputMode(outputMode).csvFile(csvFile).hlogFile(hlogFile).bindSourceIp(bindSourceIp)
                .loopback(loopback).outstandingReads(outstandingReads).noPeak(noPeak).margin(margin)
                .atomicType(atomicType).runInfinitely(runInfinitely)
                .hugePages(buffers.hugePages()).mrPerQp(buffers.mrPerQp());
        b.txDepth = txDepth;
        if (rxDepth > 0) {
            b.rxDepth = rxDepth;
        }
        if (cqModerationExplicit) {
            b.cqModeration(cqModeration);
        }
        if (inlineSizeExplicit) {
            b.inlineSize(inlineSize);
        }
        if (json) {
            b.jsonFile(jsonFile);
        }
        return b;
    }

    /** Whether this side is the server (no host was given). */
    public boolean isServer() {
        return serverHost == null;
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
    public List<String> symmetricMismatches(TestOptions peer) {
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

    /**
     * Collects test parameters. Unset values take the kind's perftest defaults at {@link #build()}.
     * Not thread-safe; build once and share the immutable result.
     */
    public static final class Builder {
        private final TestKind kind;
        private Connection connection = Connection.RC;
        private String serverHost;
        private int port = DEFAULT_PORT;
        private String device;
        private int ibPort = 1;
        private Long size;
        private boolean allSizes;
        private Integer iterations;
        private int durationSeconds;
        private int numQps = 1;
        private boolean bidirectional;
        private Integer txDepth;
        private int postList = 1;
        private Integer cqModeration;
        private Integer inlineSize;
        private Integer mtu;
        private int gidIndex = -1;
        private int serviceLevel;
        private int trafficClass;
        private int qpTimeout = DEFAULT_QP_TIMEOUT;
        private boolean rdmaCm;
        private Integer tos;
        private boolean reportGbits;
        private OutputMode outputMode = OutputMode.NONE;
        private Path jsonFile;
        private Path csvFile;
        private Path hlogFile;
        private String bindSourceIp;
        private boolean loopback;
        private int outstandingReads;
        private Integer rxDepth;
        private boolean noPeak;
        private int margin = -1;
        private AtomicType atomicType;
        private boolean runInfinitely;
        private boolean hugePages;
        private boolean mrPerQp;

        private Builder(TestKind kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
        }

        public Builder connection(Connection v) {
            connection = Objects.requireNonNull(v, "connection");
            return this;
        }

        /** The server to connect to; null (the default) makes this side the server. */
        public Builder serverHost(String v) {
            serverHost = v;
            return this;
        }

        public Builder port(int v) {
            port = v;
            return this;
        }

        /** Device name; null (the default) means the first device found. */
        public Builder device(String v) {
            device = v;
            return this;
        }

        public Builder ibPort(int v) {
            ibPort = v;
            return this;
        }

        public Builder size(long v) {
            size = v;
            return this;
        }

        /** Parses {@code -s} text such as {@code "64K"}. */
        public Builder size(String text) {
            size = SizeParser.parse(text);
            return this;
        }

        public Builder allSizes(boolean v) {
            allSizes = v;
            return this;
        }

        public Builder iterations(int v) {
            iterations = v;
            return this;
        }

        public Builder durationSeconds(int v) {
            durationSeconds = v;
            return this;
        }

        public Builder numQps(int v) {
            numQps = v;
            return this;
        }

        public Builder bidirectional(boolean v) {
            bidirectional = v;
            return this;
        }

        public Builder txDepth(int v) {
            txDepth = v;
            return this;
        }

        public Builder postList(int v) {
            postList = v;
            return this;
        }

        /** Sets {@code -Q}: the value is then kept even above 8192-byte messages or with a post list. */
        public Builder cqModeration(int v) {
            cqModeration = v;
            return this;
        }

        public Builder inlineSize(int v) {
            inlineSize = v;
            return this;
        }

        /** Path MTU in bytes; null (the default) means the port's active MTU. */
        public Builder mtu(Integer v) {
            mtu = v;
            return this;
        }

        public Builder gidIndex(int v) {
            gidIndex = v;
            return this;
        }

        public Builder serviceLevel(int v) {
            serviceLevel = v;
            return this;
        }

        public Builder trafficClass(int v) {
            trafficClass = v;
            return this;
        }

        public Builder qpTimeout(int v) {
            qpTimeout = v;
            return this;
        }

        public Builder rdmaCm(boolean v) {
            rdmaCm = v;
            return this;
        }

        /** rdma_cm type of service; null (the default) leaves it unset. */
        public Builder tos(Integer v) {
            tos = v;
            return this;
        }

        public Builder reportGbits(boolean v) {
            reportGbits = v;
            return this;
        }

        public Builder outputMode(OutputMode v) {
            outputMode = Objects.requireNonNull(v, "outputMode");
            return this;
        }

        /**
         * {@code --out_json}: enables the JSON report, to {@link TestOptions#DEFAULT_JSON_FILE} unless a file
         * is set.
         */
        public Builder json(boolean v) {
            if (!v) {
                jsonFile = null;
            } else if (jsonFile == null) {
                jsonFile = DEFAULT_JSON_FILE;
            }
            return this;
        }

        /** {@code --out_json_file}: enables the JSON report to this file (null disables it). */
        public Builder jsonFile(Path v) {
            jsonFile = v;
            return this;
        }

        public Builder csvFile(Path v) {
            csvFile = v;
            return this;
        }

        public Builder hlogFile(Path v) {
            hlogFile = v;
            return this;
        }

        public Builder bindSourceIp(String v) {
            bindSourceIp = v;
            return this;
        }

        public Builder loopback(boolean v) {
            loopback = v;
            return this;
        }

        /** {@code -o}: outstanding RDMA READs per QP; 0 (the default) means the device's maximum. */
        public Builder outstandingReads(int v) {
            outstandingReads = v;
            return this;
        }

        /** {@code -N}: no peak bandwidth (the peak column prints 0, as perftest's). */
        public Builder noPeak(boolean v) {
            noPeak = v;
            return this;
        }

        /** {@code -f}: the {@code -D} margin in seconds; -1 (the default) means a quarter of the duration. */
        public Builder margin(int v) {
            margin = v;
            return this;
        }

        /**
         * {@code -A/--atomic_type}: the operation of an atomic test; null (the default) means perftest's
         * {@link AtomicType#FETCH_AND_ADD} for atomic kinds, and the other kinds refuse any other value.
         */
        public Builder atomicType(AtomicType v) {
            atomicType = v;
            return this;
        }

        /**
         * {@code --run_infinitely}: write until stopped, printing a row every {@code -D} seconds (perftest's
         * default 5 when no {@code -D} is given); implies {@code -N}, as perftest. Bandwidth tests only;
         * jperf does not run it with {@code -a}, {@code -b} or a send test yet.
         */
        public Builder runInfinitely(boolean v) {
            runInfinitely = v;
            return this;
        }

        /** {@code --use_hugepages}: the test buffers come from huge pages ({@link BufferOptions#hugePages}). */
        public Builder hugePages(boolean v) {
            hugePages = v;
            return this;
        }

        /** {@code --mr_per_qp}: one memory region per QP, bandwidth tests only ({@link BufferOptions#mrPerQp}). */
        public Builder mrPerQp(boolean v) {
            mrPerQp = v;
            return this;
        }

        /**
         * {@code -r/--rx-depth}: receive work requests kept posted per QP (send tests; perftest's 512 by
         * default, capped at {@code -n} and rounded up to even as perftest does).
         */
        public Builder rxDepth(int v) {
            rxDepth = v;
            return this;
        }

        /**
         * Applies defaults and perftest's derived values, then validates.
         *
         * @throws OptionsException naming the option (by its perftest flag) and its valid range, or the
         *     conflicting combination
         */
        public TestOptions build() {
            long effSize = size != null ? size : kind.defaultSize();
            int effIters = iterations != null ? iterations : kind.defaultIterations();
            int effTx = txDepth != null ? txDepth : kind.defaultTxDepth();
            OptionsValidator.requireRange("-n/--iters", effIters, MIN_ITERATIONS, MAX_ITERATIONS);
            OptionsValidator.requireRange("-t/--tx-depth", effTx, 1, MAX_TX_DEPTH);
            if (cqModeration != null) {
                OptionsValidator.requireRange("-Q/--cq-mod", cqModeration, 1, MAX_CQ_MODERATION);
            }
            if (durationSeconds == 0) {
                effTx = Math.min(effTx, effIters);
            }
            boolean cqExplicit = cqModeration != null;
            int effCq = cqExplicit ? cqModeration : DEFAULT_CQ_MODERATION;
            if (!cqExplicit && effSize > CQ_MODERATION_SIZE_LIMIT && !allSizes) {
                effCq = 1;
            }
            effCq = Math.min(effCq, effTx);
            if (postList > 1 && !cqExplicit) {
                effCq = postList;
            }
            int effRx = 0;
            if (kind.verb().usesReceives()) {
                effRx = rxDepth != null ? rxDepth : kind.defaultRxDepth();
                OptionsValidator.requireRange("-r/--rx-depth", effRx, 1, MAX_RX_DEPTH);
                if (durationSeconds == 0) {
                    effRx = Math.min(effRx, effIters);
                }
                if (effRx % 2 == 1 && !allSizes) {
                    effRx++; // perftest's work-around for odd receive depths in send tests
                }
            } else if (rxDepth != null) {
                throw new OptionsException("-r/--rx-depth: receive queues are only used by send tests, not by "
                        + kind.perftestName());
            }
            AtomicType effAtomic = atomicType;
            if (kind.verb().isAtomic()) {
                effAtomic = atomicType != null ? atomicType : AtomicType.FETCH_AND_ADD;
            } else if (atomicType != null) {
                throw new OptionsException("-A/--atomic_type: the atomic operation applies to atomic tests"
                        + " (ib_atomic_bw, ib_atomic_lat), not to " + kind.perftestName());
            }
            int effDuration = durationSeconds;
            boolean effNoPeak = noPeak;
            if (runInfinitely) {
                requireInfinitelyApplies();
                effDuration = durationSeconds > 0 ? durationSeconds : DEFAULT_INFINITE_INTERVAL;
                effNoPeak = true;
            }
            if (mrPerQp && !kind.isBandwidth()) {
                throw new OptionsException("--mr_per_qp: bandwidth tests only, as perftest (not "
                        + kind.perftestName() + ")");
            }
            boolean inlineExplicit = inlineSize != null;
            int effInline = inlineExplicit ? inlineSize : kind.defaultInlineSize();
            return new TestOptions(kind, connection, serverHost, port, device, ibPort, effSize, allSizes,
                    effIters, effDuration, numQps, bidirectional, effTx, postList, effCq, cqExplicit,
                    effInline, inlineExplicit, mtu, gidIndex, serviceLevel, trafficClass, qpTimeout, rdmaCm,
                    tos, reportGbits, outputMode, jsonFile != null, jsonFile, csvFile, hlogFile, bindSourceIp,
                    loopback, outstandingReads, effRx, effNoPeak, margin, effAtomic, runInfinitely,
                    new BufferOptions(hugePages, mrPerQp));
        }

        private void requireInfinitelyApplies() {
            if (!kind.isBandwidth()) {
                throw new OptionsException("--run_infinitely: bandwidth tests only, as perftest (not "
                        + kind.perftestName() + ")");
            }
            String not = kind.verb().usesReceives() ? "a send test (" + kind.perftestName() + ")"
                    : bidirectional ? "-b/--bidirectional" : allSizes ? "-a/--all" : loopback ? "--loopback" : null;
            if (not != null) {
                throw new OptionsException("--run_infinitely: jperf does not run " + not + " infinitely yet");
            }
        }
    }
}
