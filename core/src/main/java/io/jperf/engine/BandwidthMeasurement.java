package io.jperf.engine;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.ReceiveRequestList;
import io.jperf.datapath.WorkRequestList;
import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import io.jperf.result.BandwidthResult;
import io.jperf.stats.BandwidthStats;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.RdmaException;
import io.jperf.wire.BwReport;
import io.jperf.wire.KeyMessage;
import io.jperf.wire.PerftestHandshake;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bandwidth measurement of every verb: the client (and both ends with -b) runs the
 * {@link BandwidthLoop} for each message size. The server of a unidirectional test does what the verb
 * asks of it: for WRITE and READ it waits for the client's report (its CPU takes no part); for SEND it
 * fills its receive queues once and runs the {@link ReceiveLoop} for each size, reporting what it received.
 */
final class BandwidthMeasurement implements Measurement {
    /** The slowest rate a peer is assumed to sustain when bounding how long a server waits. */
    private static final double FLOOR_BYTES_PER_SECOND = 10e6;

    private final TestOptions options;
    /** {@code options.params()}: the test both ends run. */
    private final TestParameters params;
    private final Endpoint endpoint;
    private final List<KeyMessage> remote;
    private final PerftestHandshake handshake;
    private final TestListener listener;
    private final Duration timeout;
    private final BandwidthResult.Unit unit;
    private final Duration warmup;
    private final StopSignal stop;

    BandwidthMeasurement(TestOptions options, Endpoint endpoint, List<KeyMessage> remote, PerftestHandshake handshake,
                         TestListener listener, Duration timeout, Duration warmup, StopSignal stop) {
        this.stop = stop;
        this.warmup = warmup;
        this.options = options;
        this.params = options.params();
        this.endpoint = endpoint;
        this.remote = remote;
        this.handshake = handshake;
        this.listener = listener;
        this.timeout = timeout;
        this.unit = params.reportGbits() ? BandwidthResult.Unit.GBIT_PER_SEC : BandwidthResult.Unit.MIB_PER_SEC;
    }

    @Override
    public Outcome run() throws IOException {
        if (options.isServer() && !params.bidirectional() && params.kind().verb().usesReceives()) {
            return receive();
        }
        if (options.isServer() && !params.bidirectional() && params.runInfinitely()) {
            BwReport client = handshake.finishWithEvery(List.of(), peerWait());
            // perftest's client sends no report of an infinite run (its report struct is never filled in);
            // a jperf client sends its whole run's
            BandwidthResult whole = handshake.sharesEveryReport() && client.size() > 0 && client.iterations() > 0
                    ? toResult(client) : null;
            listener.runStopped(whole, 0, null);
            return new Outcome(whole == null ? List.of() : List.of(whole), List.of());
        }
        if (options.isServer() && !params.bidirectional()) {
            BwReport client = handshake.finishWithEvery(List.of(), peerWait());
            BandwidthResult result = toResult(client);
            listener.bandwidth(result);
            // perftest's server prints the client's last size only; a jperf client also sent every size's
            // report (-a), which the server's result (and so its files) keeps
            List<BandwidthResult> every = handshake.peerReports().stream().map(this::toResult).toList();
            return new Outcome(every.size() > 1 ? every : List.of(result), List.of());
        }
        Measurement.requireAtomicAlignment(options, remote);
        List<BandwidthResult> results = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            int numQps = endpoint.qps().size();
            WorkRequestList[] lists = new WorkRequestList[numQps];
            for (int q = 0; q < numQps; q++) {
                lists[q] = new WorkRequestList(arena, Measurement.opcode(options), params.postList(),
                        endpoint.sendAddress(q), (int) params.size(), endpoint.lkey(q), remote.get(q).vaddr(),
                        remote.get(q).rkey(), false);
            }
            BandwidthLoop loop = bandwidthLoop(arena, endpoint.qps(), endpoint.cq(), lists);
            List<Long> sizes = params.messageSizes();
            if (!warmup.isZero() && params.kind().verb().usesReceives()) {
                warmUpOnSelf(arena, sizes.getFirst());
            } else if (!warmup.isZero()) {
                setSize(lists, sizes.getFirst());
                warmUp(loop, JitWarmup.of(warmup, timeout));
            }
            if (params.runInfinitely()) {
                setSize(lists, params.size());
                handshake.beforeMeasurement();
                listener.measuring(params.size());
                BandwidthResult whole = runInfinitely(loop, params.size());
                handshake.finishWithEvery(List.of(new BwReport(whole.sizeBytes(), whole.iterations(), whole.peak(),
                        whole.average(), whole.messageRateMpps())), peerWait());
                return new Outcome(List.of(whole), List.of());
            }
            List<BwReport> reports = new ArrayList<>(sizes.size());
            for (int i = 0; i < sizes.size(); i++) {
                long size = sizes.get(i);
                setSize(lists, size);
                handshake.beforeMeasurement();
                listener.measuring(size);
                BandwidthResult result = measure(loop, size, numQps);
                BwReport ours = new BwReport(size, result.iterations(), result.peak(), result.average(),
                        result.messageRateMpps());
                reports.add(ours);
                BwReport peer = handshake.afterMeasurement(ours);
                if (peer != null) {
                    BandwidthResult remoteResult = toResult(peer);
                    listener.bandwidthParts(result, remoteResult);
                    result = result.plus(remoteResult);
                }
                results.add(result);
                listener.bandwidth(result);
                listener.progress(i + 1, sizes.size());
            }
            handshake.finishWithEvery(reports, peerWait());
        }
        return new Outcome(results, List.of());
    }

    /**
     * perftest's {@code --run_infinitely}: one row per {@code -D} interval, the send queues carried from
     * one interval to the next, until the stop signal; then the queues drain and the whole run is reported
     * (the interval cut short by the stop counts in the whole run, not as a row).
     */
    private BandwidthResult runInfinitely(BandwidthLoop loop, long size) {
        long interval = Duration.ofSeconds(params.durationSeconds()).toNanos();
        String what = params.kind().verb().displayName() + " of " + size + " bytes (--run_infinitely)";
        loop.startInfinite(params.txDepth(), params.cqModeration());
        long nanos = 0;
        long completed = 0;
        while (!stop.requested()) {
            if (!loop.runInterval(interval, stop)) {
                loop.endInfinite();
                throw Measurement.failure(what, loop.errors(), loop.stalled(), timeout);
            }
            nanos += loop.sampleNanos();
            completed += loop.sampleCompleted();
            if (!stop.requested() && loop.sampleCompleted() > 0) {
                listener.bandwidth(BandwidthStats.fromElapsed(loop.sampleNanos(), loop.sampleCompleted(), size, unit));
            }
        }
        if (!loop.endInfinite()) {
            throw Measurement.failure(what, loop.errors(), loop.stalled(), timeout);
        }
        BandwidthResult whole = BandwidthStats.fromElapsed(Math.max(1, nanos), completed, size, unit);
        listener.runStopped(whole, nanos, stop.reason());
        return whole;
    }

    /** The receiving server of a SEND test: fill the receive queues, then per size sync, receive, report. */
    private Outcome receive() throws IOException {
        List<BandwidthResult> results = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            int numQps = endpoint.qps().size();
            MemorySegment[] postRecvFns = new MemorySegment[numQps];
            MemorySegment[] qps = new MemorySegment[numQps];
            ReceiveRequestList[] lists = new ReceiveRequestList[numQps];
            for (int q = 0; q < numQps; q++) {
                QueuePair qp = endpoint.qps().get(q);
                postRecvFns[q] = qp.postRecvFunction();
                qps[q] = qp.handle();
                lists[q] = new ReceiveRequestList(arena, q, endpoint.receiveDepth(), endpoint.receiveAddress(q),
                        (int) endpoint.sliceSize(), endpoint.lkey(q));
            }
            ReceiveLoop loop = new ReceiveLoop(postRecvFns, qps, lists, endpoint.cq().pollFunction(),
                    endpoint.cq().handle(), new CompletionBatch(arena, 16), timeout.toNanos());
            if (!loop.fill()) {
                throw Measurement.failure("posting " + endpoint.receiveDepth() + " receives per QP (ibv_post_recv)",
                        loop.errors(), false, timeout);
            }
            List<Long> sizes = params.messageSizes();
            for (int i = 0; i < sizes.size(); i++) {
                long size = sizes.get(i);
                handshake.beforeMeasurement();
                listener.measuring(size);
                BandwidthResult result = receiveOne(loop, size, numQps);
                handshake.afterMeasurement(new BwReport(size, result.iterations(), result.peak(), result.average(),
                        result.messageRateMpps()));
                results.add(result);
                listener.bandwidth(result);
                listener.progress(i + 1, sizes.size());
            }
        }
        handshake.finish(null, peerWait());
        return new Outcome(results, List.of());
    }

    private BandwidthResult receiveOne(ReceiveLoop loop, long size, int numQps) {
        String what = "receiving " + params.kind().verb().displayName() + "s of " + size + " bytes";
        if (options.isDuration()) {
            long margin = Duration.ofSeconds(params.marginSeconds()).toNanos();
            long sample = Duration.ofSeconds(params.durationSeconds()).toNanos() - 2 * margin;
            if (!loop.runDuration(margin, sample, margin)) {
                throw Measurement.failure(what, loop.errors(), loop.stalled(), timeout);
            }
            return BandwidthStats.fromElapsed(loop.sampleNanos(), loop.sampleReceived(), size, unit);
        }
        if (!loop.runIterations((long) params.iterations() * numQps)) {
            throw Measurement.failure(what, loop.errors(), loop.stalled(), timeout);
        }
        return BandwidthStats.fromElapsed(Math.max(1, loop.lastReceiveNanos() - loop.firstReceiveNanos()),
                loop.received(), size, unit);
    }

    /**
     * A SEND test's sender warms up on {@link SelfConnectedQps}: the receiver counts every message (perftest's
     * too), so no warm-up message may reach it. The same loop writes, for the same time as any warm-up, from
     * each QP's send slice into its own receive slice, with the test's post list, depth and moderation.
     */
    private void warmUpOnSelf(Arena arena, long size) {
        SelfConnectedQps opened;
        try {
            opened = SelfConnectedQps.open(endpoint, params, options.target().ibPort());
        } catch (RdmaException e) {
            // the warm-up only lets the JIT compile the loop first: the test itself can still run
            listener.warning("no warm-up: QPs connected to themselves could not be set up (" + e.getMessage()
                    + "); the first messages are measured while the JIT compiles the loop");
            return;
        }
        try (SelfConnectedQps self = opened) {
            WorkRequestList[] lists = new WorkRequestList[params.numQps()];
            for (int q = 0; q < lists.length; q++) {
                lists[q] = new WorkRequestList(arena, WorkRequestList.Opcode.RDMA_WRITE, params.postList(),
                        endpoint.sendAddress(q), (int) size, endpoint.lkey(q), endpoint.receiveAddress(q),
                        endpoint.rkey(q), false);
            }
            BandwidthLoop loop = bandwidthLoop(arena, self.qps(), self.cq(), lists);
            setSize(lists, size);
            warmUp(loop, JitWarmup.of(warmup, timeout));
        }
    }

    /**
     * The bandwidth loop over {@code qps}, one list each, polling {@code cq}; with room for a timestamp per
     * request when the peak is measured.
     */
    private BandwidthLoop bandwidthLoop(Arena arena, List<QueuePair> qps, CompletionQueue cq, WorkRequestList[] lists) {
        MemorySegment[] postFns = new MemorySegment[qps.size()];
        MemorySegment[] handles = new MemorySegment[qps.size()];
        for (int q = 0; q < qps.size(); q++) {
            postFns[q] = qps.get(q).postSendFunction();
            handles[q] = qps.get(q).handle();
        }
        int stamps = params.peakEnabled() ? params.iterations() * qps.size() : 0;
        return new BandwidthLoop(postFns, handles, lists, cq.pollFunction(), cq.handle(), new CompletionBatch(arena, 16),
                stamps, timeout.toNanos());
    }

    /**
     * Writes until the warm-up's minimum has passed and the JIT has gone quiet, pausing while it
     * compiles (see {@link JitWarmup}).
     */
    private void warmUp(BandwidthLoop loop, JitWarmup plan) {
        if (!plan.run(() -> loop.runDuration(0, plan.sliceNanos(), 0, params.txDepth(), params.cqModeration()))) {
            throw Measurement.failure(params.kind().verb().displayName() + " warm-up", loop.errors(), loop.stalled(), timeout);
        }
    }

    /**
     * Sets every request's length and inline flag for {@code size}, and its address cycle: perftest's
     * bandwidth tests walk both buffers a cache line (or the size rounded up to lines) per request through a
     * page for messages up to half a page (write, read and atomic the peer's and the local buffer; send the
     * local one, the remote address being unused), larger ones stay at the base. Both ends' slices hold at
     * least a page ({@link BufferLayout}).
     */
    private void setSize(WorkRequestList[] lists, long size) {
        for (WorkRequestList list : lists) {
            list.cycleAddressesAsPerftest((int) size);
            for (int j = 0; j < list.length(); j++) {
                list.setLength(j, (int) size);
                list.setInline(j, size <= endpoint.inlineSize());
            }
        }
    }

    private BandwidthResult measure(BandwidthLoop loop, long size, int numQps) {
        if (options.isDuration()) {
            long margin = Duration.ofSeconds(params.marginSeconds()).toNanos();
            long sample = Duration.ofSeconds(params.durationSeconds()).toNanos() - 2 * margin;
            if (!loop.runDuration(margin, sample, margin, params.txDepth(), params.cqModeration())) {
                throw Measurement.failure(params.kind().verb().displayName() + " of " + size + " bytes", loop.errors(), loop.stalled(), timeout);
            }
            return BandwidthStats.fromElapsed(loop.sampleNanos(), loop.sampleCompleted(), size, unit);
        }
        boolean peak = params.peakEnabled();
        if (!loop.runIterations(params.iterations(), params.txDepth(), params.cqModeration(), peak)) {
            throw Measurement.failure(params.kind().verb().displayName() + " of " + size + " bytes", loop.errors(), loop.stalled(), timeout);
        }
        if (peak) {
            return BandwidthStats.compute(loop.postTimestamps(), loop.completionTimestamps(), params.iterations(),
                    numQps, size, params.cqModeration(), params.postList(), unit);
        }
        long first = loop.firstPostNanos();
        return BandwidthStats.fromElapsed(loop.lastCompletionNanos() - first, loop.totalCompleted(), size, unit);
    }

    private BandwidthResult toResult(BwReport report) {
        return new BandwidthResult(report.size(), report.iterations(), report.peak(), report.average(),
                report.messageRate(), unit);
    }

    /**
     * How long a server may wait for the client to finish measuring: generous, but bounded. An infinite
     * run's server waits until its client stops (at most about 24 days, the longest socket timeout).
     */
    private Duration peerWait() {
        if (params.runInfinitely()) {
            return Duration.ofMillis(Integer.MAX_VALUE);
        }
        if (options.isDuration()) {
            return timeout.plusSeconds(2L * params.durationSeconds());
        }
        double bytes = 0;
        for (long size : params.messageSizes()) {
            bytes += (double) size * params.iterations() * params.numQps();
        }
        return timeout.plusSeconds((long) Math.ceil(bytes / FLOOR_BYTES_PER_SECOND));
    }
}
