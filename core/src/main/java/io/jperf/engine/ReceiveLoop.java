package io.jperf.engine;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.ReceiveRequestList;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.MemorySegment;

/**
 * The receiving end of a SEND bandwidth test, perftest's {@code run_iter_bw_server}: every QP's receive
 * queue is filled once ({@link #fill}, {@code -r} receives per QP); the loop polls the CQ in batches and
 * re-posts each completed receive at once, so the queue stays full; the time runs from the first receive
 * to the last (the receiver cannot see when the sender posted).
 *
 * <p>Works on raw handles (function pointers, {@code ibv_qp*} and {@code ibv_cq*}), so the same loop runs
 * against real devices and against a stub provider. Everything is allocated in the constructor;
 * {@link #runIterations} and {@link #runDuration} allocate nothing and throw nothing: failures are counted
 * in {@link #errors()} and stop the loop, a sender that stops sending ends it after the stall limit.
 *
 * <p>Threading: confined to one thread (the one that posts to the QPs' receive queues).
 */
public final class ReceiveLoop {
    private static final int POLL_BATCH = 16;
    private static final long CLOCK_CHECK_MASK = 0x3f;

    /** Per QP, the provider's post_recv, and the CQ's poll_cq, bound once: see InlineVerbs.PostCall. */
    private final InlineVerbs.PostCall[] postRecvFns;
    private final long[] qps;
    private final ReceiveRequestList[] lists;
    private final InlineVerbs.PollCall pollFn;
    private final long cq;
    private final CompletionBatch wcs;
    private final long stallNanos;
    private final CompletionErrors errors = new CompletionErrors();

    private long received;
    private long firstReceive;
    private long lastReceive;
    private long sampleReceived;
    private long sampleStart;
    private long sampleEnd;
    private boolean stalled;
    private boolean filled;

    /**
     * @param postRecvFns per QP, the provider's post_recv
     * @param qps         per QP, the {@code ibv_qp*}
     * @param lists       per QP, its receive list (its length is the receive depth)
     * @param pollFn      the CQ's poll_cq
     * @param cq          the CQ the QPs' receive completions go to
     * @param wcs         a completion array of at least 16 entries
     * @param stallNanos  give up when no message arrives for this long
     */
    public ReceiveLoop(MemorySegment[] postRecvFns, MemorySegment[] qps, ReceiveRequestList[] lists,
                       MemorySegment pollFn, MemorySegment cq, CompletionBatch wcs, long stallNanos) {
        int numQps = qps.length;
        if (postRecvFns.length != numQps || lists.length != numQps || numQps == 0) {
            throw new IllegalArgumentException("one post_recv function, QP and receive list per QP");
        }
        if (wcs.capacity() < POLL_BATCH) {
            throw new IllegalArgumentException("the completion batch needs " + POLL_BATCH + " entries");
        }
        this.postRecvFns = new InlineVerbs.PostCall[numQps];
        for (int q = 0; q < numQps; q++) {
            this.postRecvFns[q] = InlineVerbs.bindPostRecv(postRecvFns[q]);
        }
        this.qps = new long[numQps];
        for (int q = 0; q < numQps; q++) {
            this.qps[q] = qps[q].address();
        }
        this.lists = lists.clone();
        this.pollFn = InlineVerbs.bindPollCq(pollFn);
        this.cq = cq.address();
        this.wcs = wcs;
        this.stallNanos = stallNanos;
    }

    /**
     * Posts every QP's whole receive list (once, before the sender is told to start). Returns false, with
     * the errno in {@link #errors()}, when a post failed.
     */
    public boolean fill() {
        if (filled) {
            return true;
        }
        for (int q = 0; q < qps.length; q++) {
            int rc = lists[q].postAll(postRecvFns[q], qps[q]);
            if (rc != 0) {
                errors.postFailed(rc);
                return false;
            }
        }
        filled = true;
        return true;
    }

    /**
     * Receives {@code messages} messages (over all QPs).
     *
     * @return true when all arrived without error
     */
    public boolean runIterations(long messages) {
        reset();
        long lastProgress = System.nanoTime();
        boolean progressed = false;
        long empty = 0;
        while (received < messages) {
            int n = wcs.poll(pollFn, cq);
            if (n > 0) {
                if (!consume(n, false)) {
                    return false;
                }
                progressed = true;
            } else if (n < 0) {
                errors.postFailed(-n);
                return false;
            } else if ((++empty & CLOCK_CHECK_MASK) == 0) {
                long now = System.nanoTime();
                if (progressed) {
                    progressed = false;
                    lastProgress = now;
                } else if (now - lastProgress > stallNanos) {
                    stalled = true;
                    return false;
                }
            }
        }
        lastReceive = System.nanoTime();
        return true;
    }

    /**
     * Receives for {@code warmup + sample + cooldown} nanoseconds from the first message on (perftest's
     * server starts its -D clock at the first receive), counting the messages of the sample window.
     */
    public boolean runDuration(long warmupNanos, long sampleNanos, long cooldownNanos) {
        reset();
        long start = System.nanoTime();
        long empty = 0;
        while (received == 0) {
            int n = wcs.poll(pollFn, cq);
            if (n > 0) {
                if (!consume(n, false)) {
                    return false;
                }
            } else if (n < 0) {
                errors.postFailed(-n);
                return false;
            } else if ((++empty & CLOCK_CHECK_MASK) == 0 && System.nanoTime() - start > stallNanos) {
                stalled = true;
                return false;
            }
        }
        long first = firstReceive;
        long sampleFrom = first + warmupNanos;
        long sampleTo = sampleFrom + sampleNanos;
        long end = sampleTo + cooldownNanos;
        long lastProgress = first;
        long before = received;
        boolean inSample = false;
        while (true) {
            int n = wcs.poll(pollFn, cq);
            if (n > 0 && !consume(n, inSample)) {
                return false;
            }
            if (n < 0) {
                errors.postFailed(-n);
                return false;
            }
            if ((++empty & CLOCK_CHECK_MASK) != 0) {
                continue;
            }
            long now = System.nanoTime();
            if (now >= end) {
                break;
            }
            if (!inSample && sampleStart == 0 && now >= sampleFrom) {
                inSample = true;
                sampleStart = now;
            } else if (inSample && now >= sampleTo) {
                inSample = false;
                sampleEnd = now;
            }
            if (received != before) {
                before = received;
                lastProgress = now;
            } else if (now - lastProgress > stallNanos) {
                stalled = true;
                return false;
            }
        }
        if (sampleEnd == 0) {
            sampleEnd = System.nanoTime();
        }
        lastReceive = System.nanoTime();
        return true;
    }

    /** Handles {@code n} polled completions: checks each, re-posts its receive, counts it. */
    private boolean consume(int n, boolean inSample) {
        for (int i = 0; i < n; i++) {
            int status = wcs.status(i);
            long wrId = wcs.wrId(i);
            if (status != 0) {
                errors.completionFailed(status, wcs.vendorError(i), wrId);
                return false;
            }
            if (!ReceiveRequestList.isReceive(wrId)) {
                continue;
            }
            int q = ReceiveRequestList.qpIndex(wrId);
            int rc = lists[q].post(postRecvFns[q], qps[q], ReceiveRequestList.entry(wrId));
            if (rc != 0) {
                errors.postFailed(rc);
                return false;
            }
            if (received++ == 0) {
                firstReceive = System.nanoTime();
            }
            if (inSample) {
                sampleReceived++;
            }
        }
        return true;
    }

    private void reset() {
        errors.reset();
        stalled = false;
        received = 0;
        firstReceive = 0;
        lastReceive = 0;
        sampleReceived = 0;
        sampleStart = 0;
        sampleEnd = 0;
    }

    public CompletionErrors errors() {
        return errors;
    }

    /** True when the loop gave up because no message arrived within the stall limit. */
    public boolean stalled() {
        return stalled;
    }

    /** Messages received in the last run. */
    public long received() {
        return received;
    }

    /** The time of the first message of the last run. */
    public long firstReceiveNanos() {
        return firstReceive;
    }

    /** When the last run ended (its last message arrived, or its duration was over). */
    public long lastReceiveNanos() {
        return lastReceive;
    }

    public long sampleNanos() {
        return sampleEnd - sampleStart;
    }

    public long sampleReceived() {
        return sampleReceived;
    }
}
