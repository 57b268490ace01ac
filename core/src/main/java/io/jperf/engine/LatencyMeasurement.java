package io.jperf.engine;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.ReceiveRequestList;
import io.jperf.datapath.WorkRequestList;
import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import io.jperf.options.Verb;
import io.jperf.report.LatencyHistogramLog;
import io.jperf.report.RunInfo;
import io.jperf.result.LatencyResult;
import io.jperf.stats.LatencySamples;
import io.jperf.stats.LatencyStats;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.QueuePair;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.KeyMessage;
import io.jperf.wire.PerftestHandshake;
import io.jperf.wire.ProtocolException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The latency measurement. ib_write_lat: both ends run the {@link LatencyLoop} ping-pong for each
 * message size (no exchange between sizes, as perftest); ib_read_lat: only the client runs its reads
 * while the server waits in the closing exchange; ib_send_lat: both ends fill their receive queue once,
 * then per size sync (the handshake's {@link PerftestHandshake#beforeMeasurement}) and run the send
 * ping-pong, the client first. The statistics are computed off the loop.
 */
final class LatencyMeasurement implements Measurement {
    static final long DURATION_STAMPS_PER_SECOND = 500_000;
    static final int MAX_DURATION_STAMPS = 20_000_000;
    /** The probe's time in ns, in the exchange of {@link #slowerPace}. */
    private static final String PROBE_FIELD = "latency.warmup_probe_ns";
    /** The time in ns from the warm-up's start to the probe's end, in the exchange of {@link #slowerPace}. */
    private static final String ELAPSED_FIELD = "latency.warmup_elapsed_ns";
    /** Whether this end's JIT worked during the warm-up's last rounds, in the exchanges of {@link #eitherJitWorked}. */
    private static final String JIT_WORKED_FIELD = "latency.warmup_jit_worked";
    /** The rounds of one run of a warm-up alone ({@link #beforeLastExchange}): whole cycles of the counter byte. */
    static final int SOLO_WARMUP_RUN = 256;

    private final TestOptions options;
    /** {@code options.params()}: the test both ends run. */
    private final TestParameters params;
    private final Endpoint endpoint;
    private final List<KeyMessage> remote;
    private final PerftestHandshake handshake;
    private final TestListener listener;
    private final Duration timeout;
    private final int warmupRounds;
    private final Duration warmupBudget;
    private final boolean peerSettles;
    private final Duration soloWarmup;
    /**
     * The measured loop, its request and the histogram log, built before the last exchange ({@link #prepare}):
     * after that exchange a perftest peer measures at once, and code that runs for the first time there (and
     * the compiles it sets off) would run in its first rounds. Null until prepared; closed by {@link #close}.
     */
    private Arena arena;
    private WorkRequestList write;
    private LatencyLoop loop;
    private LatencyHistogramLog hlog;

    /**
     * @param warmupRounds unmeasured rounds before the first size; both ends must use the same number
     * @param warmupBudget the longest the warm-up may take, agreed by both ends ({@link LatencyWarmup});
     *                     null: the peer does not pace, both run all {@code warmupRounds}
     * @param peerSettles  the jperf peer runs the warm-up's last rounds again while a JIT works in them
     *                     ({@link LatencyWarmup#runUntilSettled}); false: both run them once
     * @param soloWarmup   with a peer that takes no part in a warm-up (perftest): the least time this end warms
     *                     its loop up alone before the first size ({@link #beforeLastExchange}); zero: none
     */
    LatencyMeasurement(TestOptions options, Endpoint endpoint, List<KeyMessage> remote, PerftestHandshake handshake,
                       TestListener listener, Duration timeout, int warmupRounds, Duration warmupBudget,
                       boolean peerSettles, Duration soloWarmup) {
        this.warmupRounds = warmupRounds;
        this.warmupBudget = warmupBudget;
        this.peerSettles = peerSettles;
        this.soloWarmup = soloWarmup;
        this.options = options;
        this.params = options.params();
        this.endpoint = endpoint;
        this.remote = remote;
        this.handshake = handshake;
        this.listener = listener;
        this.timeout = timeout;
    }

    @Override
    public Outcome run() throws IOException {
        Verb verb = params.kind().verb();
        if (!verb.latencyIsPingPong() && options.isServer()) {
            handshake.finish(null, requesterWait());
            return new Outcome(List.of(), List.of());
        }
        List<LatencyResult> results = new ArrayList<>();
        try {
            prepare();
            // the write ping-pong's server moves first, the send ping-pong's client
            boolean first = options.isServer() != verb.clientStartsPingPong();
            List<Long> sizes = params.messageSizes();
            if (warmupRounds > 0) {
                if (verb.usesReceives()) {
                    handshake.beforeMeasurement(); // both jperf ends: receives posted before the warm-up sends
                }
                warmUp(loop, write, (int) (long) sizes.getFirst(), first);
            }
            for (int i = 0; i < sizes.size(); i++) {
                int size = (int) (long) sizes.get(i);
                write.setInline(0, size <= endpoint.inlineSize());
                handshake.beforeMeasurement();
                listener.measuring(size);
                boolean ok;
                Instant start = Instant.now();
                if (options.isDuration()) {
                    long margin = Duration.ofSeconds(params.marginSeconds()).toNanos();
                    long sample = Duration.ofSeconds(params.durationSeconds()).toNanos() - 2 * margin;
                    ok = loop.runDuration(margin, sample, margin, size, first);
                } else {
                    ok = loop.runIterations(params.iterations(), size, first);
                }
                Instant end = Instant.now();
                if (!ok) {
                    throw Measurement.failure(what(verb) + " of " + size + " bytes", loop.errors(),
                            loop.stalled(), timeout);
                }
                int rttFactor = verb.latencyIsPingPong() ? 2 : 1;
                LatencyStats stats = LatencyStats.fromTimestamps(loop.timestamps(), (int) loop.rounds(), rttFactor);
                if (!options.isDuration()) {
                    listener.latencySamples(size, new LatencySamples(loop.timestamps(), (int) loop.rounds(), rttFactor));
                }
                LatencyResult result = stats.toResult(size, options.isDuration() ? loop.rounds() : params.iterations());
                results.add(result);
                hlog.add(size, start, end, stats.histogram());
                listener.latency(result);
                listener.progress(i + 1, sizes.size());
            }
        } finally {
            close();
        }
        handshake.finish(null, verb.usesReceives() ? requesterWait() : timeout);
        if (options.output().hlogFile() != null) {
            hlog.write(options.output().hlogFile());
        }
        return new Outcome(List.of(), results);
    }

    /**
     * Builds the measured loop on the test's QP (and, for the send ping-pong, posts its receives) and the
     * histogram log, once; nothing for the server of a requester loop, which runs none.
     */
    private void prepare() {
        Verb verb = params.kind().verb();
        if (arena != null || (!verb.latencyIsPingPong() && options.isServer())) {
            return;
        }
        Measurement.requireAtomicAlignment(options, remote);
        arena = Arena.ofConfined();
        KeyMessage peer = remote.getFirst();
        write = request(arena, peer.vaddr(), peer.rkey(), (int) params.size());
        int capacity = options.isDuration()
                ? (int) Math.min(MAX_DURATION_STAMPS, DURATION_STAMPS_PER_SECOND * params.durationSeconds())
                : Math.max(SOLO_WARMUP_RUN, Math.max(params.iterations(), warmupRounds));
        loop = newLoop(arena, endpoint.qps().getFirst(), endpoint.cq(), write, capacity);
        if (verb.usesReceives() && !loop.fillReceives()) {
            throw Measurement.failure("posting " + endpoint.receiveDepth() + " receives (ibv_post_recv)",
                    loop.errors(), false, timeout);
        }
        hlog = new LatencyHistogramLog(Instant.now(), "jperf " + params.kind().commandName()
                + (verb.latencyIsPingPong() ? ": half round-trip latency" : ": round-trip latency"),
                List.of(RunInfo.embedded().line()));
    }

    /** Frees the measured loop's native memory; idempotent. */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
            loop = null;
            write = null;
        }
    }

    /**
     * The warm-up rounds, in parts. With a time bound ({@link LatencyWarmup}): a lead of rounds that
     * gets the round compiled, a pause for the JIT, then a probe whose pace (of compiled code) sets
     * how many more rounds fit; a ping-pong's two ends exchange their probe and elapsed times to
     * agree on the count. Then the rest, in two parts: after the first the JIT may compile in peace
     * again, the last rounds then run the code it compiled, right before the measured ones, and run
     * again while either end's JIT worked in them ({@link LatencyWarmup#runUntilSettled}). Every
     * pause sleeps until this end's compiler threads are quiet ({@link JitWarmup#awaitQuiet}). All
     * parts are multiples of 256 rounds, so the peer sees the same counter bytes as in one run of all
     * the rounds: a peer that does not pause just waits for this end's next answer meanwhile.
     */
    private void warmUp(LatencyLoop loop, WorkRequestList write, int size, boolean first) throws IOException {
        write.setInline(0, size <= endpoint.inlineSize());
        int total = warmupRounds;
        int done = 0;
        long probeNanos = 0;
        if (warmupBudget != null && warmupRounds >= LatencyWarmup.PROBE_ROUNDS) {
            long start = System.nanoTime();
            int lead = LatencyWarmup.leadRounds(warmupRounds);
            warmUpRounds(loop, lead, size, first);
            if (lead > 0) {
                pauseForJit();
            }
            long probeStart = System.nanoTime();
            warmUpRounds(loop, LatencyWarmup.PROBE_ROUNDS, size, first);
            long end = System.nanoTime();
            long[] slower = slowerPace(end - probeStart, end - start);
            probeNanos = slower[0];
            done = lead + LatencyWarmup.PROBE_ROUNDS;
            total = LatencyWarmup.totalRounds(warmupRounds, done, slower[0], slower[1], warmupBudget);
        }
        int tail = Math.min(RunSettings.latencyWarmupTail(total), total - done);
        warmUpRounds(loop, total - tail - done, size, first);
        if (tail > 0) {
            pauseForJit();
        }
        if (!peerSettles) {
            warmUpRounds(loop, tail, size, first);
            return;
        }
        // the first run is the tail, where the time bound left room for one; every run after it is settleRounds long
        int settleRounds = LatencyWarmup.settleRounds(warmupRounds, probeNanos, warmupBudget);
        LatencyWarmup.runUntilSettled(new LatencyWarmup.SettleSteps() {
            @Override
            public void runLastRounds(int run) {
                warmUpRounds(loop, run == 1 && tail > 0 ? tail : settleRounds, size, first);
            }

            @Override
            public boolean eitherWorked(boolean oursWorked) throws IOException {
                return eitherJitWorked(oursWorked);
            }

            @Override
            public void pauseForJit() {
                LatencyMeasurement.this.pauseForJit();
            }
        }, JitWarmup.jitClock());
    }

    /** Whether this end's or, in a ping-pong (where both ends run the rounds), the peer's JIT worked. */
    private boolean eitherJitWorked(boolean oursWorked) throws IOException {
        if (!params.kind().verb().latencyIsPingPong()) {
            return oursWorked;
        }
        Map<String, String> theirs = JperfExtension.exchange(handshake.channel(),
                Map.of(JIT_WORKED_FIELD, oursWorked ? "1" : "0"), "latency warm-up settling");
        return oursWorked || "1".equals(theirs.get(JIT_WORKED_FIELD));
    }

    private void pauseForJit() {
        new JitWarmup(Duration.ZERO, timeout, JitWarmup.jitClock()).awaitQuiet(RunSettings.maxJitPause(timeout).toNanos());
    }

    /**
     * The slower end's probe and elapsed times, {@code {probeNanos, elapsedNanos}}: exchanged in a
     * ping-pong, where both ends run the rounds; else nobody else runs them.
     */
    private long[] slowerPace(long probeNanos, long elapsedNanos) throws IOException {
        if (!params.kind().verb().latencyIsPingPong()) {
            return new long[] {probeNanos, elapsedNanos};
        }
        Map<String, String> theirs = JperfExtension.exchange(handshake.channel(),
                Map.of(PROBE_FIELD, Long.toString(probeNanos), ELAPSED_FIELD, Long.toString(elapsedNanos)),
                "latency warm-up pace");
        try {
            return new long[] {Math.max(probeNanos, Long.parseLong(theirs.getOrDefault(PROBE_FIELD, ""))),
                    Math.max(elapsedNanos, Long.parseLong(theirs.getOrDefault(ELAPSED_FIELD, "")))};
        } catch (NumberFormatException e) {
            throw new ProtocolException("the jperf peer's latency warm-up pace is not a number: " + theirs);
        }
    }

    /**
     * With a peer that takes no part in a warm-up (perftest measures from its first round, right after the last
     * exchange) this end warms its loop up alone, before that exchange, while the peer waits in it: a requester
     * loop (READ, atomics) on the test's QP against the peer's buffer, which the peer's device serves without its
     * program; a ping-pong on a QP connected to itself ({@link #warmUpOnSelf}). The server of a requester loop
     * runs no loop. Without it the measured rounds ran while the JIT compiled them: in one lab boot jperf
     * against ib_write_lat measured t_typical 38-101 us, perftest against itself 18-50.
     */
    @Override
    public void beforeLastExchange() {
        if (warmupRounds > 0 || soloWarmup.isZero()) {
            return;
        }
        prepare();
        int size = (int) (long) params.messageSizes().getFirst();
        if (params.kind().verb().latencyIsPingPong()) {
            try (Arena selfArena = Arena.ofConfined()) {
                warmUpOnSelf(selfArena, size);
            }
        } else if (!options.isServer()) {
            warmUpOnPeer(size);
        } else {
            return;
        }
        // the warm-up's last compiles, and those of preparing the measured loop, finish before the peer measures
        pauseForJit();
    }

    /**
     * A requester loop's warm-up on the test's own QP. A failure here fails the test: the QP is then in the error
     * state, and the measured rounds would fail the same way.
     */
    private void warmUpOnPeer(int size) {
        write.setInline(0, size <= endpoint.inlineSize());
        if (!warmUpAlone(loop, size, false)) {
            throw Measurement.failure(what(params.kind().verb()) + " warm-up", loop.errors(), loop.stalled(), timeout);
        }
    }

    /**
     * A ping-pong's warm-up on a QP connected to itself: the same loop writes (or sends) this end's counter from
     * its send slice into its own receive slice and waits for it there. Then both slices are zeroed, as a fresh
     * buffer, where the peer's first message finds them. A failure only costs the warm-up: a warning.
     */
    private void warmUpOnSelf(Arena arena, int size) {
        SelfConnectedQps opened;
        try {
            opened = SelfConnectedQps.open(endpoint, params, options.target().ibPort());
        } catch (io.jperf.verbs.RdmaException e) {
            listener.warning("no warm-up: a QP connected to itself could not be set up (" + e.getMessage()
                    + "); the first rounds are measured while the JIT compiles the loop");
            return;
        }
        try (SelfConnectedQps self = opened) {
            QueuePair qp = self.qps().getFirst();
            WorkRequestList toSelf = request(arena, endpoint.receiveAddress(0), endpoint.rkey(0), size);
            LatencyLoop selfLoop = newLoop(arena, qp, self.cq(), toSelf, SOLO_WARMUP_RUN);
            boolean ready = !params.kind().verb().usesReceives() || selfLoop.fillReceives();
            if (!ready || !warmUpAlone(selfLoop, size, true)) {
                listener.warning("the warm-up on a QP connected to itself stopped ("
                        + Measurement.failure(what(params.kind().verb()), selfLoop.errors(), selfLoop.stalled(), timeout)
                        .getMessage() + "); the first rounds are measured while the JIT compiles the loop");
            }
        } finally {
            endpoint.receiveBuffer(0).fill((byte) 0);
            endpoint.sendBuffer(0).fill((byte) 0);
        }
    }

    /**
     * Runs the loop, this end moving first, in runs of 256 rounds until the warm-up's least time has passed and
     * the JIT has gone quiet ({@link JitWarmup}, at most 10x that time); false when a run failed. A ping-pong on
     * itself also runs the waits a real peer makes after each run ({@link LatencyLoop#exerciseWaits}).
     */
    private boolean warmUpAlone(LatencyLoop solo, int size, boolean onSelf) {
        JitWarmup plan = JitWarmup.of(soloWarmup, timeout);
        return plan.run(() -> {
            long sliceStart = System.nanoTime();
            do {
                if (!solo.runIterations(SOLO_WARMUP_RUN, size, true) || (onSelf && !solo.exerciseWaits(size))) {
                    return false;
                }
            } while (System.nanoTime() - sliceStart < plan.sliceNanos());
            return true;
        });
    }

    /** One request of the test's verb from this end's send slice to a remote buffer, inline when it fits. */
    private WorkRequestList request(Arena arena, long remoteAddress, int rkey, int size) {
        WorkRequestList request = new WorkRequestList(arena, Measurement.opcode(options), 1, endpoint.sendAddress(0),
                size, endpoint.lkey(0), remoteAddress, rkey, false);
        request.setInline(0, size <= endpoint.inlineSize());
        return request;
    }

    /**
     * The test's loop on {@code qp}, whose completions go to {@code cq}: the send ping-pong with the QP's receive
     * list (filled by {@link LatencyLoop#fillReceives}) into this end's receive slice, else the write ping-pong
     * or the requester loop.
     */
    private LatencyLoop newLoop(Arena arena, QueuePair qp, CompletionQueue cq, WorkRequestList request, int capacity) {
        Verb verb = params.kind().verb();
        if (verb.usesReceives()) {
            ReceiveRequestList receives = new ReceiveRequestList(arena, 0, endpoint.receiveDepth(),
                    endpoint.receiveAddress(0), (int) endpoint.sliceSize(), endpoint.lkey(0));
            return new LatencyLoop(qp.postSendFunction(), qp.postRecvFunction(), receives, qp.handle(), request,
                    cq.pollFunction(), cq.handle(), new CompletionBatch(arena, 4), endpoint.sendBuffer(0),
                    endpoint.receiveBuffer(0), capacity, timeout.toNanos());
        }
        return new LatencyLoop(qp.postSendFunction(), qp.handle(), request, verb.latencyIsPingPong(),
                cq.pollFunction(), cq.handle(), new CompletionBatch(arena, 1), endpoint.sendBuffer(0),
                endpoint.receiveBuffer(0), capacity, timeout.toNanos());
    }

    private void warmUpRounds(LatencyLoop loop, int rounds, int size, boolean first) {
        if (rounds > 0 && !loop.runIterations(rounds, size, first)) {
            throw Measurement.failure(what(params.kind().verb()) + " warm-up", loop.errors(), loop.stalled(), timeout);
        }
    }

    private static String what(Verb verb) {
        return verb.latencyIsPingPong() ? verb.displayName() + " ping-pong" : verb.displayName() + " latency";
    }

    /** How long a server that does not take part in the loop waits for the client's closing exchange. */
    private Duration requesterWait() {
        if (options.isDuration()) {
            return timeout.plusSeconds(2L * params.durationSeconds());
        }
        // a floor of 1 ms per request, far below any working path
        long requests = (long) params.iterations() * params.messageSizes().size() + warmupRounds;
        return timeout.plusMillis(requests);
    }

}
