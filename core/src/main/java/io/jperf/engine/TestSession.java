package io.jperf.engine;

import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.EveryReport;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.KeyMessage;
import io.jperf.wire.ParameterNegotiation;
import io.jperf.wire.PerftestHandshake;
import io.jperf.wire.PerftestHandshake.Preamble;
import io.jperf.wire.PerftestVersion;
import io.jperf.path.PathJson;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One connected run: perftest's control exchange around the QP transitions, the jperf extension
 * with a jperf peer, then the bandwidth or latency measurement. Owns the control channel.
 */
final class TestSession {
    private static final int PAGE_SIZE = 4096;
    private static final int CACHE_LINE = 64;
    private static final String PARAM_PREFIX = "param.";
    private static final String WARMUP_FIELD = "latency.warmup_rounds";
    /** This end's {@code --warmup} in ms; a peer that sends it paces its latency warm-up ({@link LatencyWarmup}). */
    private static final String WARMUP_MS_FIELD = "latency.warmup_paced_ms";
    /** "1": this end runs the latency warm-up's last rounds again while a JIT works in them ({@link LatencyWarmup#runUntilSettled}). */
    private static final String WARMUP_SETTLE_FIELD = "latency.warmup_settle";

    private TestOptions options;
    private CmLink cm;
    private Endpoint endpoint;
    private final ControlChannel channel;
    private final TestListener listener;
    private final Duration timeout;
    private final Duration settleDelay;
    private final boolean qosExpected;
    private final RunSettings settings;
    private final ServeOpener opener;
    private RuntimeException openFailure;
    private int latencyWarmupRounds;
    /** The latency warm-up's time bound both ends agreed on; null: the peer runs the fixed rounds. */
    private Duration latencyWarmupBudget;
    /** Both ends settle the latency warm-up's last rounds; false with a jperf peer from before that. */
    private boolean latencyWarmupSettles;
    private final List<String> warnings = new ArrayList<>();

    /**
     * Opens a served session's end once the client said what it wants ({@code jperf serve}).
     * Whatever it opens, the caller closes after the session.
     */
    interface ServeOpener {
        /**
         * @param request the client's extension fields (its {@link ServeRequest})
         * @return the options this end runs with, and its endpoint (TCP exchange) or CM link (-R)
         * @throws ServeRefusedException when this end cannot run the request; the client is told why
         */
        Opened open(Map<String, String> request, ControlChannel channel) throws IOException;

        /**
         * Checks the client's key messages before this end connects its QPs to them.
         *
         * @throws TestFailedException when this end must not send to what they name
         */
        default void checkKeys(List<KeyMessage> remoteKeys, ControlChannel channel) {
        }
    }

    /**
     * What a {@link ServeOpener} opened: an endpoint, or with -R a listening CM link, and fields to add
     * to the answer.
     */
    record Opened(TestOptions options, Endpoint endpoint, CmLink cm, Map<String, String> answer) {
        Opened(TestOptions options, Endpoint endpoint, CmLink cm) {
            this(options, endpoint, cm, Map.of());
        }
    }

    /**
     * @param endpoint the connected-to-be endpoint (TCP exchange), or null with {@code cm}
     * @param cm       the RDMA CM link that creates the endpoint ({@code -R}), or null
     */
    TestSession(TestOptions options, Endpoint endpoint, CmLink cm, ControlChannel channel, RunSettings settings) {
        this(options, endpoint, cm, channel, settings, null);
    }

    /** A served session: {@code opener} opens this end after the client's request arrived. */
    static TestSession served(TestOptions serverOptions, ControlChannel channel, RunSettings settings,
                              ServeOpener opener) {
        return new TestSession(serverOptions, null, null, channel, settings, opener);
    }

    private TestSession(TestOptions options, Endpoint endpoint, CmLink cm, ControlChannel channel,
                        RunSettings settings, ServeOpener opener) {
        this.options = options;
        this.endpoint = endpoint;
        this.cm = cm;
        this.channel = channel;
        this.settings = settings;
        this.opener = opener;
        this.listener = settings.listener();
        this.timeout = settings.timeout();
        this.settleDelay = settings.settleDelay();
        this.qosExpected = settings.qosExpected();
    }

    PerfTestResult run() throws IOException {
        ThreadPlacement placement;
        try {
            placement = ThreadPlacement.forTestThread(settings.cpu());
        } catch (io.jperf.ffi.LibcException e) {
            throw new TestFailedException("cannot pin the test thread to CPU " + settings.cpu() + ": " + e.getMessage()
                    + " (see `nproc` and the process's allowed CPUs in /proc/self/status)", e);
        }
        try (placement) {
            return runPlaced();
        }
    }

    private PerfTestResult runPlaced() throws IOException {
        channel.setReadTimeout(timeout);
        PerftestHandshake handshake = opener != null ? agreeAsServed() : agree();
        try (handshake) {
            Mtu localMtu = cm != null
                    ? (options.params().mtu() != null ? Mtu.fromBytes(options.params().mtu()) : Mtu.MTU_4096)
                    : endpoint.localMtu();
            if (cm == null && localMtu.bytes() > endpoint.port().activeMtu().bytes()) {
                warn("-m " + localMtu.bytes() + " is above the port's active MTU " + endpoint.port().activeMtu().bytes()
                        + " (on RoCE it follows the netdev MTU); the QP may refuse it");
            }
            if (cm == null && options.target().gidIndex() < 0) {
                endpoint.gid().filter(g -> g.gid().isLinkLocal()).ifPresent(g -> warn("no IPv4-mapped RoCE v2 GID on "
                        + endpoint.context().deviceName() + " port " + endpoint.port().number() + ": using link-local GID "
                        + g.index() + " as perftest would; give " + g.netdev().orElse("the RoCE netdev")
                        + " an IPv4 address, or choose a GID with -x (`jperf devices -v`)"));
            }
            Preamble preamble = handshake.preamble(PAGE_SIZE, CACHE_LINE, localMtu.nativeValue());
            String peerVersion = preamble.remoteVersion().text();
            boolean jperfPeer = preamble.remoteVersion().isJperf();
            if (ParameterNegotiation.sentBy(preamble.remoteVersion())) {
                negotiate(preamble.remoteVersion());
            }
            Mtu pathMtu = Mtu.fromNative(preamble.ibvMtu());
            if (cm != null) {
                if (channel.overRdmaCm()) {
                    channel.sync("synchronisation before connecting the test QPs with RDMA CM");
                }
                List<String> cmWarnings = new ArrayList<>();
                endpoint = cm.establish(timeout, cmWarnings);
                cmWarnings.forEach(this::warn);
                pathMtu = pathMtu.min(endpoint.port().activeMtu());
                if (channel.overRdmaCm()) {
                    channel.sync("synchronisation after connecting the test QPs with RDMA CM");
                }
            }
            channel.keyGidIndex(endpoint.gid().map(GidEntry::index).orElse(-1));
            List<KeyMessage> localKeys = endpoint.localKeys();
            List<KeyMessage> remoteKeys = handshake.exchangeQpKeys(localKeys);
            if (cm == null) {
                checkGids(remoteKeys);
                endpoint.connect(remoteKeys, pathMtu);
            }
            remoteKeys = handshake.confirmQpKeys(localKeys);
            Optional<PathReport> path = PathStage.run(endpoint, remoteKeys.getFirst(), options.params().trafficClass(), jperfPeer,
                    channel, qosExpected);
            path.ifPresent(listener::path);
            int gidIndex = endpoint.gid().map(GidEntry::index).orElse(-1);
            TestHeader header = TestHeader.of(options, endpoint.context().deviceName(), pathMtu.bytes(),
                    endpoint.port().linkLayer() == LinkLayer.ETHERNET ? LinkType.ETHERNET : LinkType.IB, gidIndex,
                    endpoint.inlineSize(), "OFF", false, endpoint.outstandingReads());
            List<EndpointInfo> local = localKeys.stream().map(k -> k.toEndpointInfo(gidIndex)).toList();
            List<EndpointInfo> remote = remoteKeys.stream().map(k -> k.toEndpointInfo(-1)).toList();
            // before the last exchange, as perftest prints them: after it a perftest peer measures at once
            listener.connected(header, local, remote);

            Measurement.Outcome outcome;
            try (Measurement measurement = options.params().kind().isBandwidth()
                    ? new BandwidthMeasurement(options, endpoint, remoteKeys, handshake, listener, timeout,
                            settings.warmup(), settings.stop())
                    : new LatencyMeasurement(options, endpoint, remoteKeys, handshake, listener, timeout,
                            latencyWarmupRounds, latencyWarmupBudget, latencyWarmupSettles,
                            jperfPeer ? Duration.ZERO : settings.warmup())) {
                measurement.beforeLastExchange();
                handshake.barrier();
                outcome = measurement.run();
            } catch (TestFailedException e) {
                throw withVerdicts(e, path);
            }
            return new PerfTestResult(options, header, local, remote, peerVersion, outcome.bandwidth(),
                    outcome.latency(), path, cm != null ? cm.paths() : List.of(), warnings);
        }
    }

    /** Version and jperf extension as the client or a one-test server; returns the handshake to go on with. */
    private PerftestHandshake agree() throws IOException {
        boolean versionKnown = channel.remoteVersion() != null;
        PerftestHandshake handshake = versionKnown ? PerftestHandshake.afterVersion(channel, options.params())
                : new PerftestHandshake(channel, options.params(), settleDelay);
        try {
            PerftestVersion remote = versionKnown ? channel.remoteVersion() : handshake.exchangeVersion();
            String servePeer = settings.servePeerAddress();
            if (remote.isJperf()) {
                Map<String, String> ours = extensionFields();
                if (!options.isServer()) {
                    ours.putAll(ServeRequest.fields(options, servePeer,
                            endpoint == null ? null : endpoint.gid().map(g -> g.gid().bytes()).orElse(null)));
                }
                Map<String, String> theirs = JperfExtension.exchange(channel, ours, "jperf parameter exchange");
                theirs = ServeAuth.respond(channel, theirs, settings.authSecret());
                if (theirs.containsKey(ServeRequest.ERROR)) {
                    throw refusal(theirs);
                }
                if (servePeer != null && !theirs.containsKey(ServeRequest.SERVED)) {
                    warn("the peer is a one-test jperf server, not `jperf serve`: it uses its own device,"
                            + " whatever " + servePeer + " asks");
                }
                checkParameters(theirs);
                agreeWarmup(theirs);
                if ("1".equals(theirs.get(EveryReport.FIELD))) {
                    handshake.shareEveryReport();
                }
            } else if (options.params().rdmaCm() != channel.overRdmaCm()) {
                throw modeMismatch(remote);
            } else if (servePeer != null) {
                warn("the peer is perftest " + remote.text() + ": it uses its own device, whatever " + servePeer + " asks");
            }
            return handshake;
        } catch (IOException | RuntimeException e) {
            handshake.close();
            throw e;
        }
    }

    /** Version and jperf extension as {@code jperf serve}: the client's request decides this end's options. */
    private PerftestHandshake agreeAsServed() throws IOException {
        PerftestVersion remote = channel.exchangeVersion(PerftestVersion.ADVERTISED);
        if (!remote.isJperf()) {
            throw new TestFailedException("`jperf serve` runs tests for jperf clients, which send their parameters;"
                    + " the client is perftest " + remote.text() + ": for perftest clients run `jperf write-bw` or"
                    + " `jperf write-lat` without a host (a one-test server with the same options)");
        }
        Map<String, String> theirs;
        try {
            theirs = JperfExtension.respond(channel, this::answerRequest, "jperf parameter exchange");
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        if (openFailure != null) {
            throw openFailure;
        }
        checkParameters(theirs);
        agreeWarmup(theirs);
        PerftestHandshake handshake = PerftestHandshake.afterVersion(channel, options.params());
        if ("1".equals(theirs.get(EveryReport.FIELD))) {
            handshake.shareEveryReport();
        }
        return handshake;
    }

    private Map<String, String> answerRequest(Map<String, String> request) {
        try {
            return answerRequestOrFail(request);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Map<String, String> answerRequestOrFail(Map<String, String> request) throws IOException {
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put(ServeRequest.SERVED, "true");
        if (!ServeRequest.present(request)) {
            openFailure = new TestFailedException("the jperf client sent no test request (an older jperf?);"
                    + " `jperf serve` needs one");
            answer.put(ServeRequest.ERROR, "this `jperf serve` needs the client's test request, which this jperf"
                    + " client does not send: run a one-test server (`jperf write-bw` without a host) instead");
            return answer;
        }
        try {
            Opened opened = opener.open(request, channel);
            options = opened.options();
            endpoint = opened.endpoint();
            cm = opened.cm();
            answer.putAll(opened.answer());
        } catch (ServeRefusedException e) {
            openFailure = e;
            answer.put(ServeRequest.ERROR, ServeRequest.escape(e.getMessage()));
            e.pathRecord().ifPresent(r -> answer.put(ServeRequest.PATH, PathJson.toJson(r).replace('\n', ' ').strip()));
            return answer;
        }
        answer.putAll(extensionFields());
        return answer;
    }

    /** A perftest peer that meets this end over the other control transport: name it and its mode. */
    private TestFailedException modeMismatch(PerftestVersion remote) {
        String theirs = channel.overRdmaCm() ? "RDMA CM (-R)" : "TCP (without -R)";
        String ours = options.params().rdmaCm() ? "-R" : "without -R";
        String who = options.isServer() ? "a perftest " + remote.text() + " client connected with " + theirs
                : "the server is perftest " + remote.text() + " using " + theirs;
        return new TestFailedException(who + ", but this end runs " + ours + ": run both ends with -R, or both without");
    }

    /**
     * perftest 6.28 sends its parameter negotiation to every peer: answer it with this end's values and
     * refuse a mismatch, as 6.28 does (it names the mismatch on its side too).
     */
    private void negotiate(PerftestVersion remote) throws IOException {
        int maxReads;
        if (endpoint != null) {
            maxReads = endpoint.context().maxOutstandingReads();
        } else {
            try (io.jperf.verbs.Context device = io.jperf.verbs.Rdma.open(options.target().device())) {
                maxReads = device.maxOutstandingReads();
            }
        }
        ParameterNegotiation ours = ParameterNegotiation.of(options.params(), maxReads);
        List<String> mismatches = ours.mismatches(channel.exchangeNegotiation(ours));
        if (!mismatches.isEmpty()) {
            throw new TestFailedException("the peer (perftest " + remote.text() + ") runs with different parameters;"
                    + " these must be equal on both ends: " + String.join("; ", mismatches));
        }
    }

    /** The serve peer could not run the test: its reason, and what its path record says about its own end. */
    private static TestFailedException refusal(Map<String, String> theirs) {
        List<io.jperf.path.Verdict> verdicts = List.of();
        String json = theirs.get(ServeRequest.PATH);
        if (json != null) {
            try {
                verdicts = io.jperf.path.Verdicts.endState(PathJson.read(json), "peer");
            } catch (IllegalArgumentException e) {
                // an unreadable record only costs the verdicts; the reason below still says what failed
            }
        }
        StringBuilder sb = new StringBuilder("the `jperf serve` peer cannot run this test: ")
                .append(ServeRequest.unescape(theirs.get(ServeRequest.ERROR)));
        verdicts.forEach(v -> sb.append("\n  ").append(v).append(" Fix: ").append(v.fixHint()));
        return new TestFailedException(sb.toString(), null, verdicts);
    }

    /** A failed test is often explained by its path: name the findings in the failure. */
    private static TestFailedException withVerdicts(TestFailedException e, Optional<PathReport> path) {
        if (path.isEmpty() || path.get().verdicts().isEmpty()) {
            return e;
        }
        StringBuilder sb = new StringBuilder(e.getMessage()).append("\nThe path has problems that may explain it:");
        path.get().verdicts().forEach(v -> sb.append("\n  ").append(v).append(" Fix: ").append(v.fixHint()));
        return new TestFailedException(sb.toString(), e, path.get().verdicts());
    }

    /** The latency warm-up both jperf ends run: the fewer rounds, and the shorter time bound if the peer paces too. */
    private void agreeWarmup(Map<String, String> theirs) {
        latencyWarmupRounds = Math.min(ourWarmupRounds(), parseRounds(theirs.get(WARMUP_FIELD)));
        long theirMillis = parseMillis(theirs.get(WARMUP_MS_FIELD));
        latencyWarmupBudget = latencyWarmupRounds < LatencyWarmup.PROBE_ROUNDS || theirMillis < 0 ? null
                : LatencyWarmup.budget(Duration.ofMillis(Math.min(settings.warmup().toMillis(), theirMillis)));
        latencyWarmupSettles = latencyWarmupBudget != null && "1".equals(theirs.get(WARMUP_SETTLE_FIELD));
    }

    private static long parseMillis(String text) {
        try {
            return text == null ? -1 : Math.max(-1, Long.parseLong(text));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private int ourWarmupRounds() {
        return settings.warmup().isZero() ? 0 : RunSettings.LATENCY_WARMUP_ROUNDS;
    }

    private static int parseRounds(String text) {
        try {
            int rounds = text == null ? 0 : Integer.parseInt(text);
            return rounds >= 0 && rounds % 256 == 0 ? rounds : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private Map<String, String> extensionFields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(WARMUP_FIELD, Integer.toString(ourWarmupRounds()));
        fields.put(WARMUP_MS_FIELD, Long.toString(settings.warmup().toMillis()));
        fields.put(WARMUP_SETTLE_FIELD, "1");
        fields.put(EveryReport.FIELD, "1");
        options.params().symmetricParameters().forEach((k, v) -> fields.put(PARAM_PREFIX + k, v));
        return fields;
    }

    private void checkParameters(Map<String, String> theirs) {
        Map<String, String> peerParams = new LinkedHashMap<>();
        theirs.forEach((k, v) -> {
            if (k.startsWith(PARAM_PREFIX)) {
                peerParams.put(k.substring(PARAM_PREFIX.length()), v);
            }
        });
        List<String> mismatches = TestParameters.symmetricMismatches(options.params().symmetricParameters(),
                peerParams);
        if (!mismatches.isEmpty()) {
            throw new TestFailedException("the peer runs with different parameters; these must be equal on both"
                    + " ends: " + String.join("; ", mismatches));
        }
    }

    private void checkGids(List<KeyMessage> remoteKeys) {
        if (opener != null) {
            opener.checkKeys(remoteKeys, channel);
        }
        if (endpoint.gid().isEmpty()) {
            return;
        }
        Gid ours = endpoint.gid().get().gid();
        for (KeyMessage key : remoteKeys) {
            if (!key.hasGid()) {
                continue;
            }
            Gid theirs = Gid.of(key.gid());
            if (ours.isIpv4Mapped() != theirs.isIpv4Mapped()) {
                throw new TestFailedException("GID mismatch: ours " + ours + " is " + (ours.isIpv4Mapped() ? "" : "not ")
                        + "IPv4-mapped, the peer's " + theirs + " is " + (theirs.isIpv4Mapped() ? "" : "not ")
                        + "IPv4-mapped; choose GIDs of the same kind on both ends with -x (`jperf devices -v`"
                        + " lists them; prefer the RoCE v2 GID of the IPv4 address)",
                        null, PathStage.localVerdicts(endpoint, theirs, options.params().trafficClass(), qosExpected));
            }
        }
    }

    private void warn(String message) {
        warnings.add(message);
        listener.warning(message);
    }
}
