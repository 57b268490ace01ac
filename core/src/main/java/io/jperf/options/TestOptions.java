package io.jperf.options;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One perftest-compatible test as this side runs it, validated: the {@link TestParameters} both ends must agree
 * on, the {@link ConnectionTarget} (where to connect, which local device, port and GID) and the
 * {@link OutputOptions} (how this side reports). Build with {@link #builder(TestKind)}: unset values take
 * perftest 6.06's defaults for the kind and the derived values are applied as perftest does (TX depth capped
 * at the iteration count, CQ moderation forced to 1 above 8192 bytes unless {@code -Q} was given, CQ
 * moderation capped at the TX depth, a post list sets CQ moderation to its length unless {@code -Q} was
 * given). Each part checks its own invariants; the canonical constructor checks those that span them (an
 * {@code --output} mode must suit the kind, {@code --run_infinitely} does not run {@code --loopback}), so an
 * instance is always valid. Immutable and thread-safe.
 *
 * @param params the test both ends run
 * @param target where this side connects, or serves, and on which local device, port and GID
 * @param output how this side reports the results
 */
public record TestOptions(TestParameters params, ConnectionTarget target, OutputOptions output) {

    /** Checks the invariants that span the parts; see {@link Builder#build()} for the messages. */
    public TestOptions {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(output, "output");
        OptionsValidator.validateCombination(params, target, output);
    }

    /** A builder with every value at perftest's default for {@code kind}. */
    public static Builder builder(TestKind kind) {
        return new Builder(kind);
    }

    /** A builder holding this instance's explicit choices, for deriving a variant. */
    public Builder toBuilder() {
        TestParameters p = params;
        ConnectionTarget t = target;
        OutputOptions o = output;
        Builder b = new Builder(p.kind())
                .connection(p.connection()).size(p.size()).allSizes(p.allSizes()).iterations(p.iterations())
                .durationSeconds(p.durationSeconds()).numQps(p.numQps()).bidirectional(p.bidirectional())
                .postList(p.postList()).mtu(p.mtu()).serviceLevel(p.serviceLevel())
                .trafficClass(p.trafficClass()).qpTimeout(p.qpTimeout()).rdmaCm(p.rdmaCm()).tos(p.tos())
                .reportGbits(p.reportGbits()).outstandingReads(p.outstandingReads()).noPeak(p.noPeak())
                .margin(p.margin()).atomicType(p.atomicType()).runInfinitely(p.runInfinitely())
                .hugePages(p.buffers().hugePages()).mrPerQp(p.buffers().mrPerQp())
                .serverHost(t.serverHost()).port(t.port()).device(t.device()).ibPort(t.ibPort())
                .gidIndex(t.gidIndex()).bindSourceIp(t.bindSourceIp()).loopback(t.loopback())
                .outputMode(o.outputMode()).csvFile(o.csvFile()).hlogFile(o.hlogFile());
        b.txDepth = p.txDepth();
        if (p.rxDepth() > 0) {
            b.rxDepth = p.rxDepth();
        }
        if (p.cqModerationExplicit()) {
            b.cqModeration(p.cqModeration());
        }
        if (p.inlineSizeExplicit()) {
            b.inlineSize(p.inlineSize());
        }
        if (o.json()) {
            b.jsonFile(o.jsonFile());
        }
        return b;
    }

    /** Whether this side is the server (no host was given): {@link ConnectionTarget#isServer()}. */
    public boolean isServer() {
        return target.isServer();
    }

    /** Whether this is a {@code -D} run: {@link TestParameters#isDuration()}. */
    public boolean isDuration() {
        return params.isDuration();
    }

    /**
     * Collects test parameters. Unset values take the kind's perftest defaults at {@link #build()}.
     * Not thread-safe; build once and share the immutable result.
     */
    public static final class Builder {
        private final TestKind kind;
        private Connection connection = Connection.RC;
        private String serverHost;
        private int port = ConnectionTarget.DEFAULT_PORT;
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
        private int qpTimeout = TestParameters.DEFAULT_QP_TIMEOUT;
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
         * {@code --out_json}: enables the JSON report, to {@link OutputOptions#DEFAULT_JSON_FILE} unless a file
         * is set.
         */
        public Builder json(boolean v) {
            if (!v) {
                jsonFile = null;
            } else if (jsonFile == null) {
                jsonFile = OutputOptions.DEFAULT_JSON_FILE;
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
            OptionsValidator.requireRange("-n/--iters", effIters, TestParameters.MIN_ITERATIONS,
                    TestParameters.MAX_ITERATIONS);
            OptionsValidator.requireRange("-t/--tx-depth", effTx, 1, TestParameters.MAX_TX_DEPTH);
            if (cqModeration != null) {
                OptionsValidator.requireRange("-Q/--cq-mod", cqModeration, 1, TestParameters.MAX_CQ_MODERATION);
            }
            if (durationSeconds == 0) {
                effTx = Math.min(effTx, effIters);
            }
            boolean cqExplicit = cqModeration != null;
            int effCq = cqExplicit ? cqModeration : TestParameters.DEFAULT_CQ_MODERATION;
            if (!cqExplicit && effSize > TestParameters.CQ_MODERATION_SIZE_LIMIT && !allSizes) {
                effCq = 1;
            }
            effCq = Math.min(effCq, effTx);
            if (postList > 1 && !cqExplicit) {
                effCq = postList;
            }
            int effRx = 0;
            if (kind.verb().usesReceives()) {
                effRx = rxDepth != null ? rxDepth : kind.defaultRxDepth();
                OptionsValidator.requireRange("-r/--rx-depth", effRx, 1, TestParameters.MAX_RX_DEPTH);
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
                effDuration = durationSeconds > 0 ? durationSeconds : TestParameters.DEFAULT_INFINITE_INTERVAL;
                effNoPeak = true;
            }
            if (mrPerQp && !kind.isBandwidth()) {
                throw new OptionsException("--mr_per_qp: bandwidth tests only, as perftest (not "
                        + kind.perftestName() + ")");
            }
            boolean inlineExplicit = inlineSize != null;
            int effInline = inlineExplicit ? inlineSize : kind.defaultInlineSize();
            ConnectionTarget target = new ConnectionTarget(serverHost, port, device, ibPort, gidIndex, bindSourceIp,
                    loopback);
            TestParameters params = new TestParameters(kind, connection, effSize, allSizes, effIters, effDuration,
                    numQps, bidirectional, effTx, postList, effCq, cqExplicit, effInline, inlineExplicit, mtu,
                    serviceLevel, trafficClass, qpTimeout, rdmaCm, tos, reportGbits, outstandingReads, effRx,
                    effNoPeak, margin, effAtomic, runInfinitely, new BufferOptions(hugePages, mrPerQp));
            OutputOptions output = new OutputOptions(outputMode, jsonFile != null, jsonFile, csvFile, hlogFile);
            return new TestOptions(params, target, output);
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
