package io.jperf.engine;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.ReceiveRequestList;
import io.jperf.datapath.WorkRequestList;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The latency loops. The write ping-pong, perftest's {@code run_iter_lat_write}: the server sends first;
 * each side waits until the last byte of its receive buffer shows the peer's next counter,
 * stamps the time, writes its own counter into the last byte of its send buffer and posts one
 * signalled RDMA WRITE of the message (inline when it fits), then polls its completion. The
 * difference between consecutive stamps is one round trip. A requester-only loop (READ, perftest's
 * {@code run_iter_lat} for reads) runs on the client alone: stamp, post one request, poll its
 * completion; consecutive stamps are again one round trip. The send ping-pong, perftest's
 * {@code run_iter_lat_send}: the client sends first; each side waits for a receive completion (and
 * re-posts that receive at once: the receive queue, filled once by {@link #fillReceives}, stays full),
 * stamps, posts one signalled SEND and waits for its completion. Receive and send completions share one
 * CQ and are told apart by their work-request ids ({@link ReceiveRequestList#RECEIVE_TAG}); both are
 * counted across runs, so a message that arrives while this end still finishes the previous run is
 * kept for the next.
 *
 * <p>Everything is allocated in the constructor; the run methods allocate nothing and throw
 * nothing: failures are counted in {@link #errors()}, a peer that stops answering ends the run
 * after the stall limit. Threading: confined to one thread.
 */
public final class LatencyLoop {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    /**
     * Waits read the clock once every 1024 empty polls: reading it costs ~20 ns on hardware but about
     * 1 us in a guest whose clock source is an emulated HPET, and would then slow every wait.
     */
    private static final long CLOCK_CHECK_MASK = 0x3ff;
    /** How long {@link #exerciseWaits} waits in vain: many clock checks, and little next to a run of rounds. */
    static final long VAIN_WAIT_NANOS = 1_000_000;

    /** The provider's post_send and post_recv (null without receives), and poll_cq, bound once: see InlineVerbs.PostCall. */
    private final InlineVerbs.PostCall postFn;
    private final InlineVerbs.PostCall postRecvFn;
    private final ReceiveRequestList receives;
    private final long qp;
    private final WorkRequestList write;
    private final boolean pingPong;
    private final InlineVerbs.PollCall pollFn;
    private final long cq;
    private final CompletionBatch wcs;
    private final MemorySegment sendBuffer;
    private final MemorySegment receiveBuffer;
    private final long[] stamps;
    private final long stallNanos;
    private final CompletionErrors errors = new CompletionErrors();
    private boolean stalled;
    private long rounds;
    private long iterations;
    private boolean server;
    private long lastByte;
    private long sent;
    private long completed;
    private long received;
    private int stamped;
    private long sampleFrom;
    private long sampleTo;
    private long end;
    private long sampleStart;
    private long sampleEnd;
    private long sampleRounds;
    /** Send ping-pong: receive completions seen, receives consumed by rounds, sends posted and completed. */
    private long arrived;
    private long consumed;
    private long sendsPosted;
    private long sendsDone;

    /**
     * @param write         a one-entry list writing from {@code sendBuffer} to the peer's receive buffer
     * @param sendBuffer    our send buffer (its last byte carries our counter)
     * @param receiveBuffer where the peer writes (its last byte carries the peer's counter)
     * @param maxIterations capacity of the timestamp array
     */
    public LatencyLoop(MemorySegment postFn, MemorySegment qp, WorkRequestList write, MemorySegment pollFn,
                       MemorySegment cq, CompletionBatch wcs, MemorySegment sendBuffer, MemorySegment receiveBuffer,
                       int maxIterations, long stallNanos) {
        this(postFn, qp, write, true, pollFn, cq, wcs, sendBuffer, receiveBuffer, maxIterations, stallNanos);
    }

    /**
     * @param request  a one-entry list of the verb measured
     * @param pingPong true for the write ping-pong (both ends run it); false for a requester-only loop, which
     *                 only the client runs and which does not look at the buffers
     */
    public LatencyLoop(MemorySegment postFn, MemorySegment qp, WorkRequestList request, boolean pingPong,
                       MemorySegment pollFn, MemorySegment cq, CompletionBatch wcs, MemorySegment sendBuffer,
                       MemorySegment receiveBuffer, int maxIterations, long stallNanos) {
        this(postFn, null, null, qp, request, pingPong, pollFn, cq, wcs, sendBuffer, receiveBuffer, maxIterations,
                stallNanos);
    }

    /**
     * The send ping-pong.
     *
     * @param postRecvFn the provider's post_recv for {@code qp}
     * @param receives   the QP's receive list (its length is the receive depth)
     * @param send       a one-entry SEND list from {@code sendBuffer}
     * @param wcs        a completion array of at least 2 entries (a send's and a receive's completion may
     *                   arrive together)
     */
    public LatencyLoop(MemorySegment postFn, MemorySegment postRecvFn, ReceiveRequestList receives, MemorySegment qp,
                       WorkRequestList send, MemorySegment pollFn, MemorySegment cq, CompletionBatch wcs,
                       MemorySegment sendBuffer, MemorySegment receiveBuffer, int maxIterations, long stallNanos) {
        this(postFn, java.util.Objects.requireNonNull(postRecvFn, "postRecvFn"),
                java.util.Objects.requireNonNull(receives, "receives"), qp, send, true, pollFn, cq, wcs, sendBuffer,
                receiveBuffer, maxIterations, stallNanos);
        if (wcs.capacity() < 2) {
            throw new IllegalArgumentException("the send ping-pong polls at least 2 completions at a time");
        }
    }

    private LatencyLoop(MemorySegment postFn, MemorySegment postRecvFn, ReceiveRequestList receives, MemorySegment qp,
                        WorkRequestList request, boolean pingPong, MemorySegment pollFn, MemorySegment cq,
                        CompletionBatch wcs, MemorySegment sendBuffer, MemorySegment receiveBuffer, int maxIterations,
                        long stallNanos) {
        WorkRequestList write = request;
        this.postRecvFn = postRecvFn != null ? InlineVerbs.bindPostRecv(postRecvFn) : null;
        this.receives = receives;
        this.pingPong = pingPong;
        if (write.length() != 1) {
            throw new IllegalArgumentException("the latency test posts one work request at a time");
        }
        this.postFn = InlineVerbs.bindPostSend(postFn);
        this.qp = qp.address();
        this.write = write;
        this.pollFn = InlineVerbs.bindPollCq(pollFn);
        this.cq = cq.address();
        this.wcs = wcs;
        this.sendBuffer = sendBuffer;
        this.receiveBuffer = receiveBuffer;
        this.stamps = new long[maxIterations];
        this.stallNanos = stallNanos;
        write.setSignaled(0, true);
    }

    /**
     * Send ping-pong: posts the whole receive list, once, before the peer may send (perftest syncs both
     * ends after it). Returns false, with the errno in {@link #errors()}, when a post failed.
     */
    public boolean fillReceives() {
        if (receives == null) {
            throw new IllegalStateException("only the send ping-pong has receives");
        }
        int rc = receives.postAll(postRecvFn, qp);
        if (rc != 0) {
            errors.postFailed(rc);
            return false;
        }
        return true;
    }

    /**
     * Runs {@code iterations} round trips of {@code size}-byte messages.
     *
     * @param server this end makes the first move (the write ping-pong's server, the send ping-pong's client)
     * @return true when every message completed and the peer kept answering
     */
    public boolean runIterations(long iterations, int size, boolean server) {
        reset(size);
        this.iterations = iterations;
        this.server = server;
        this.end = Long.MAX_VALUE;
        this.lastByte = size - 1;
        sent = 0;
        completed = 0;
        received = 0;
        while (round()) {
            // each round is one method call, so the JIT compiles it after a few hundred rounds
        }
        rounds = sent;
        return !errors.any() && !stalled;
    }

    /**
     * A warm-up aid for a ping-pong on a QP connected to itself, where the message is always there by the time
     * the loop looks for it, so that the JIT never sees the loop wait: runs the waits a real peer makes, through
     * the same round. First a round that waits for a message that does not come, spinning (or polling) and
     * checking the clock until {@link #VAIN_WAIT_NANOS} have passed; then, in the send ping-pong, a round whose
     * message is sent just before it and arrives while it polls. The JIT has then seen the waits run, in its
     * profile or by deoptimising the compiled round here, in the warm-up, and does not deoptimise it at the first
     * wait for a real peer, in the measured rounds (lab, against perftest: a first write-lat round of 5.5 ms, a
     * first send-lat round of 116 ms). Only with nothing in flight: the round's counter is cleared from the
     * receive slice first.
     *
     * @return false when a message came in the first round after all, or a failure
     */
    public boolean exerciseWaits(int size) {
        reset(size);
        iterations = 1;
        server = false;
        lastByte = size - 1;
        sent = 0;
        completed = 0;
        received = 0;
        BYTE.setRelease(receiveBuffer, lastByte, (byte) 0);
        end = System.nanoTime() + VAIN_WAIT_NANOS;
        boolean came = round();
        end = Long.MAX_VALUE;
        rounds = 0;
        if (came || errors.any() || stalled) {
            return false;
        }
        if (receives == null) {
            return true;
        }
        sent = 0;
        completed = 0;
        received = 0;
        int rc = write.post(postFn, qp);
        if (rc != 0) {
            errors.postFailed(rc);
            return false;
        }
        sendsPosted++;
        boolean ok = round() && !round();
        // the round's own message arrives too: consume it, as the next round would
        return ok && awaitReceive() && !errors.any() && !stalled;
    }

    /** One round of the ping-pong; false when the run is over or failed. */
    private boolean round() {
        if (!pingPong) {
            return requesterRound();
        }
        if (sent >= iterations && completed >= iterations && received >= iterations) {
            return false;
        }
        if (received < iterations && !(sent < 1 && server)) {
            received++;
            if (!(receives != null ? awaitReceive() : awaitPeer(lastByte, (byte) received))) {
                return false;
            }
        }
        if (sent < iterations) {
            stamps[(int) sent] = System.nanoTime();
            BYTE.setRelease(sendBuffer, lastByte, (byte) ++sent);
            int rc = write.post(postFn, qp);
            if (rc != 0) {
                errors.postFailed(rc);
                return false;
            }
            sendsPosted++;
        }
        if (completed < iterations) {
            if (!(receives != null ? awaitSend() : awaitCompletion())) {
                return false;
            }
            completed++;
        }
        return true;
    }

    /** One request of a requester-only loop: stamp, post, wait for its completion. */
    private boolean requesterRound() {
        if (sent >= iterations) {
            return false;
        }
        stamps[(int) sent++] = System.nanoTime();
        int rc = write.post(postFn, qp);
        if (rc != 0) {
            errors.postFailed(rc);
            return false;
        }
        if (!awaitCompletion()) {
            return false;
        }
        completed++;
        return true;
    }

    /**
     * Runs round trips for {@code warmup + sample + cooldown} nanoseconds; stamps are taken only in the
     * sample window (at most the timestamp capacity). Both ends must use the same durations.
     */
    public boolean runDuration(long warmupNanos, long sampleNanos, long cooldownNanos, int size, boolean server) {
        reset(size);
        this.server = server;
        this.lastByte = size - 1;
        sent = 0;
        received = 0;
        stamped = 0;
        long start = System.nanoTime();
        sampleFrom = start + warmupNanos;
        sampleTo = sampleFrom + sampleNanos;
        end = sampleTo + cooldownNanos;
        while (timedRound()) {
            // one method call per round, compiled early
        }
        rounds = stamped;
        sampleRounds = stamped;
        return !errors.any() && !stalled;
    }

    private boolean timedRound() {
        if (pingPong && !(sent < 1 && server)) {
            received++;
            if (!(receives != null ? awaitReceive() : awaitPeer(lastByte, (byte) received))) {
                return false;
            }
        }
        long now = System.nanoTime();
        if (now >= end) {
            return false;
        }
        if (now >= sampleFrom && now < sampleTo && stamped < stamps.length) {
            if (stamped == 0) {
                sampleStart = now;
            }
            stamps[stamped++] = now;
            sampleEnd = now;
        }
        if (pingPong) {
            BYTE.setRelease(sendBuffer, lastByte, (byte) ++sent);
        } else {
            sent++;
        }
        int rc = write.post(postFn, qp);
        if (rc != 0) {
            errors.postFailed(rc);
            return false;
        }
        sendsPosted++;
        return receives != null ? awaitSend() : awaitCompletion();
    }

    /** Send ping-pong: waits for the next message not yet consumed by a round (it may have arrived already). */
    private boolean awaitReceive() {
        long since = 0;
        long empty = 0;
        while (arrived <= consumed) {
            int n = pollSendsAndReceives();
            if (n < 0) {
                return false;
            }
            if (n == 0 && (++empty & CLOCK_CHECK_MASK) == 0 && (since = checkClock(since)) < 0) {
                return false;
            }
        }
        consumed++;
        return true;
    }

    /** Send ping-pong: waits until every posted SEND completed. */
    private boolean awaitSend() {
        long since = 0;
        long empty = 0;
        while (sendsDone < sendsPosted) {
            int n = pollSendsAndReceives();
            if (n < 0) {
                return false;
            }
            if (n == 0 && (++empty & CLOCK_CHECK_MASK) == 0 && (since = checkClock(since)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Polls the shared CQ once: counts send completions, re-posts each completed receive and counts it.
     * Returns the completions handled, or -1 after a failure (recorded in {@link #errors}).
     */
    private int pollSendsAndReceives() {
        int n = wcs.poll(pollFn, cq);
        if (n < 0) {
            errors.postFailed(-n);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            long wrId = wcs.wrId(i);
            int status = wcs.status(i);
            if (status != 0) {
                errors.completionFailed(status, wcs.vendorError(i), wrId);
                return -1;
            }
            if (ReceiveRequestList.isReceive(wrId)) {
                int rc = receives.post(postRecvFn, qp, ReceiveRequestList.entry(wrId));
                if (rc != 0) {
                    errors.postFailed(rc);
                    return -1;
                }
                arrived++;
            } else {
                sendsDone++;
            }
        }
        return n;
    }

    /**
     * Spins until the peer's counter arrives. False when it did not: the timed run reached its end
     * ({@link #end}, {@code Long.MAX_VALUE} for counted runs) or the peer stalled.
     */
    private boolean awaitPeer(long lastByte, byte expected) {
        long spins = 0;
        long since = 0;
        while ((byte) BYTE.getAcquire(receiveBuffer, lastByte) != expected) {
            if ((++spins & CLOCK_CHECK_MASK) == 0 && (since = checkClock(since)) < 0) {
                return false;
            }
        }
        return true;
    }

    private boolean awaitCompletion() {
        long since = 0;
        long empty = 0;
        while (true) {
            int n = wcs.poll(pollFn, cq);
            if (n > 0) {
                int status = wcs.status(0);
                if (status != 0) {
                    errors.completionFailed(status, wcs.vendorError(0), wcs.wrId(0));
                    return false;
                }
                return true;
            }
            if (n < 0) {
                errors.postFailed(-n);
                return false;
            }
            if ((++empty & CLOCK_CHECK_MASK) == 0 && (since = checkClock(since)) < 0) {
                return false;
            }
        }
    }

    /**
     * The periodic clock check of a wait: returns when the wait started (set on the first check),
     * or -1 to stop waiting because a timed run reached its end or the peer stalled.
     */
    private long checkClock(long since) {
        long now = System.nanoTime();
        if (now >= end) {
            return -1;
        }
        if (since == 0) {
            return now;
        }
        if (now - since > stallNanos) {
            stalled = true;
            return -1;
        }
        return since;
    }

    private void reset(int size) {
        errors.reset();
        stalled = false;
        rounds = 0;
        sampleStart = 0;
        sampleEnd = 0;
        sampleRounds = 0;
        write.setLength(0, size);
        sendBuffer.fill((byte) 0);
    }

    public CompletionErrors errors() {
        return errors;
    }

    public boolean stalled() {
        return stalled;
    }

    /** The timestamps of the last run: one per write posted (or sampled, for a timed run). */
    public long[] timestamps() {
        return stamps;
    }

    /** How many writes the last run posted (iterations), or sampled (timed run). */
    public long rounds() {
        return rounds;
    }

    public long sampleNanos() {
        return sampleEnd - sampleStart;
    }

    public long sampleRounds() {
        return sampleRounds;
    }
}
