package io.jperf.engine;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.MemorySegment;

/**
 * The write-bandwidth hot loop, perftest's {@code run_iter_bw}: per QP, post while
 * {@code posted + postList <= txDepth + completed}; signal every {@code cqMod}-th work request
 * and the last; poll the shared send CQ in batches, crediting each completion with the exact
 * number of work requests it covers (encoded in its wr_id).
 *
 * <p>Works on raw handles (function pointers and {@code ibv_qp*} / {@code ibv_cq*}), so the
 * same loop runs against real devices and against a stub provider. Everything is allocated
 * in the constructor; {@link #runIterations}, {@link #runDuration} and {@link #runInterval} allocate
 * nothing and throw nothing: failures are counted in {@link #errors()} and stop the loop.
 *
 * <p>Threading: confined to one thread.
 */
public final class BandwidthLoop {
    private static final int POLL_BATCH = 16;
    /**
     * Without completions the loop reads the clock once every 64 steps: ~20 ns on hardware, but
     * about 1 us in a guest whose clock source is an emulated HPET.
     */
    private static final long CLOCK_CHECK_MASK = 0x3f;

    private final int numQps;
    /** Per QP, its sending state. */
    private final Sender[] senders;
    private final InlineVerbs.PollCall pollFn;
    private final long cq;
    private final CompletionBatch wcs;
    private final long[] tPosted;
    private final long[] tCompleted;
    private final CompletionErrors errors = new CompletionErrors();
    private final long stallNanos;

    private long iterations;
    private int txDepth;
    private int cqMod;
    private long total;
    private boolean stamp;
    private boolean inSample;
    private long lastProgress;
    private long emptyPolls;
    /** The CQ moderation equals the post list: chains are posted unpatched (see {@link #prepareSignals}). */
    private boolean chainSignals;
    /** A completion arrived since the last clock check (the clock is read only every 64 empty polls). */
    private boolean progressed;
    private long totalPosted;
    private long totalCompleted;
    private long firstPost;
    private long lastCompletion;
    private long sampleStart;
    private long sampleEnd;
    private long sampleCompleted;
    private boolean stalled;

    /**
     * One QP's sending state, in one object: a burst of posts reads it with one array access, not one
     * per array of parallel per-QP arrays (each with its own load and bounds check).
     */
    private static final class Sender {
        final WorkRequestList list;
        /** The provider's post_send bound once: the posts make no check of the function pointer. */
        final InlineVerbs.PostCall post;
        /** The {@code ibv_qp*} as an address (read once: the hot loop makes no interface call for it). */
        final long qp;
        /** Which entries of the list are signalled now (a patch only when one changes). */
        final boolean[] signaled;
        /** Whether the list moves its addresses on after each post ({@link WorkRequestList#stepsPerPost}). */
        boolean steps;
        long posted;
        long completed;
        /** Writes since the last signalled one, and until the next (the moderation's count-down). */
        long sinceSignal;
        long untilSignal;

        Sender(WorkRequestList list, InlineVerbs.PostCall post, long qp) {
            this.list = list;
            this.post = post;
            this.qp = qp;
            this.signaled = new boolean[list.length()];
        }
    }

    /**
     * @param postFns       per QP, the provider's post_send
     * @param qps           per QP, the {@code ibv_qp*}
     * @param lists         per QP, its prebuilt work-request chain (length = post list)
     * @param pollFn        the send CQ's poll_cq
     * @param cq            the send CQ shared by all QPs
     * @param wcs           a completion array of at least 16 entries
     * @param maxTimestamps capacity of the timestamp arrays (iterations x QPs), 0 for none
     * @param stallNanos    give up when no completion arrives for this long
     */
    public BandwidthLoop(MemorySegment[] postFns, MemorySegment[] qps, WorkRequestList[] lists, MemorySegment pollFn,
                         MemorySegment cq, CompletionBatch wcs, int maxTimestamps, long stallNanos) {
        this.numQps = qps.length;
        if (postFns.length != numQps || lists.length != numQps || numQps == 0) {
            throw new IllegalArgumentException("one post function, QP and work-request list per QP");
        }
        if (wcs.capacity() < POLL_BATCH) {
            throw new IllegalArgumentException("the completion batch needs " + POLL_BATCH + " entries");
        }
        this.senders = new Sender[numQps];
        for (int q = 0; q < numQps; q++) {
            senders[q] = new Sender(lists[q], InlineVerbs.bindPostSend(postFns[q]), qps[q].address());
            for (int j = 0; j < lists[q].length(); j++) {
                lists[q].setSignaled(j, false);
            }
        }
        this.pollFn = InlineVerbs.bindPollCq(pollFn);
        this.cq = cq.address();
        this.wcs = wcs;
        this.tPosted = new long[maxTimestamps];
        this.tCompleted = new long[maxTimestamps];
        this.stallNanos = stallNanos;
    }

    /**
     * Posts {@code iterations} writes on every QP and waits for their completions.
     *
     * @param timestamps record post and completion times for the peak (iterations x QPs must fit)
     * @return true when every write completed successfully
     */
    public boolean runIterations(long iterations, int txDepth, int cqMod, boolean timestamps) {
        reset(cqMod);
        prepareSignals(cqMod);
        this.iterations = iterations;
        this.txDepth = txDepth;
        this.cqMod = cqMod;
        this.total = iterations * numQps;
        this.stamp = timestamps && total <= tPosted.length;
        this.inSample = false;
        this.lastProgress = System.nanoTime();
        while (totalCompleted < total && !errors.any() && step()) {
            // one method call per step, so the JIT compiles the step early
        }
        lastCompletion = System.nanoTime();
        drainAfterFailure();
        return !errors.any() && !stalled;
    }

    /**
     * Posts for {@code warmup + sample + cooldown} nanoseconds, counting only the completions that
     * arrive in the sample window (perftest's -D with its margins).
     */
    public boolean runDuration(long warmupNanos, long sampleNanos, long cooldownNanos, int txDepth, int cqMod) {
        beginTimedRun(txDepth, cqMod);
        long start = lastProgress;
        long sampleFrom = start + warmupNanos;
        long sampleTo = sampleFrom + sampleNanos;
        long end = sampleTo + cooldownNanos;
        long steps = 0;
        while (!errors.any()) {
            if ((++steps & CLOCK_CHECK_MASK) != 1) {
                if (!step()) {
                    break;
                }
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
            if (!step()) {
                break;
            }
        }
        if (sampleEnd == 0) {
            sampleEnd = System.nanoTime();
        }
        return endTimedRun();
    }

    /**
     * Starts perftest's {@code --run_infinitely}: resets the counts; then {@link #runInterval} posts for one
     * interval at a time, carrying the send queues over from one to the next (nothing drains between
     * intervals), until {@link #endInfinite} drains them.
     */
    public void startInfinite(int txDepth, int cqMod) {
        beginTimedRun(txDepth, cqMod);
    }

    /**
     * Posts and polls for {@code nanos}, or until {@code stop} is requested (read with the clock, every 64
     * steps): one interval of {@code --run_infinitely}. {@link #sampleNanos} and {@link #sampleCompleted}
     * then hold the interval's length and the writes completed in it. Allocates nothing, throws nothing.
     *
     * @return true while every write completes successfully and the data path makes progress
     */
    public boolean runInterval(long nanos, StopSignal stop) {
        long start = System.nanoTime();
        long end = start + nanos;
        long before = totalCompleted;
        long steps = 0;
        while (!errors.any()) {
            if ((++steps & CLOCK_CHECK_MASK) != 1) {
                if (!step()) {
                    break;
                }
                continue;
            }
            if (System.nanoTime() >= end || stop.requested()) {
                break;
            }
            if (!step()) {
                break;
            }
        }
        sampleStart = start;
        sampleEnd = System.nanoTime();
        sampleCompleted = totalCompleted - before;
        return !errors.any() && !stalled;
    }

    /** Ends {@code --run_infinitely}: every QP's send queue drained (as after {@code -D}), or after a failure collected. */
    public boolean endInfinite() {
        return endTimedRun();
    }

    /** The counts reset for a run bounded by the clock (-D, --run_infinitely), not by an iteration count. */
    private void beginTimedRun(int txDepth, int cqMod) {
        reset(cqMod);
        prepareSignals(cqMod);
        this.iterations = Long.MAX_VALUE;
        this.txDepth = txDepth;
        this.cqMod = cqMod;
        this.total = Long.MAX_VALUE;
        this.stamp = false;
        this.lastProgress = System.nanoTime();
    }

    /** A timed run's end: every send queue drained, or after a failure what was outstanding collected. */
    private boolean endTimedRun() {
        if (!errors.any() && !stalled) {
            finishTimedRun();
        } else {
            drainOutstanding();
        }
        return !errors.any() && !stalled;
    }

    /**
     * Ends a timed run with every QP's send queue empty: each QP posts up to a common count whose
     * last write is signalled, and the loop waits for those completions (a timed run otherwise ends
     * with unsignalled writes still holding send-queue slots, which the next run would overflow).
     */
    private void finishTimedRun() {
        long target = 0;
        for (int q = 0; q < numQps; q++) {
            target = Math.max(target, senders[q].posted);
        }
        target += senders[0].list.length();
        inSample = false;
        iterations = target;
        total = target * numQps;
        lastProgress = System.nanoTime();
        while (totalCompleted < total && !errors.any() && step()) {
            // drains with the same step as the run
        }
    }

    /** Posts on every QP while there is room, then polls the CQ once. False when the data path stalled. */
    private boolean step() {
        for (int q = 0; q < numQps; q++) {
            postWhileRoom(q, iterations, txDepth, cqMod, stamp);
        }
        int n = wcs.poll(pollFn, cq);
        if (n > 0) {
            progressed = true;
            long now = stamp ? System.nanoTime() : 0;
            long before = totalCompleted;
            long done = before;
            // Completions of one QP arrive in a row: credit its count once per row, not per completion
            // (a read-modify-write of the same counter per completion chains them through memory).
            int rowQp = -1;
            long row = 0;
            // walked by offset, not by index: a loop that is not counted, see CompletionBatch.statusAt
            for (long at = 0, end = n * CompletionBatch.ENTRY_BYTES; at != end; at += CompletionBatch.ENTRY_BYTES) {
                int status = wcs.statusAt(at);
                long wrId = wcs.wrIdAt(at);
                if (status != 0) {
                    errors.completionFailed(status, wcs.vendorError((int) (at / CompletionBatch.ENTRY_BYTES)), wrId);
                    continue;
                }
                int q = (int) (wrId >>> 32);
                if (q != rowQp) {
                    if (rowQp >= 0) {
                        senders[rowQp].completed += row;
                    }
                    rowQp = q;
                    row = 0;
                }
                long covered = wrId & 0xffff_ffffL;
                row += covered;
                done += covered;
                if (stamp) {
                    tCompleted[(int) Math.min(done, total) - 1] = now;
                }
            }
            if (rowQp >= 0) {
                senders[rowQp].completed += row;
            }
            totalCompleted = done;
            if (inSample) {
                sampleCompleted += done - before;
            }
        } else if (n < 0) {
            errors.postFailed(-n);
        } else if ((++emptyPolls & CLOCK_CHECK_MASK) == 0) {
            long now = System.nanoTime();
            if (progressed) {
                progressed = false;
                lastProgress = now;
            } else if (now - lastProgress > stallNanos) {
                stalled = true;
                return false;
            }
        }
        return true;
    }

    /**
     * Posts on QP {@code q} while its send queue has room. The counters live in locals for the
     * length of the burst: the downcall is opaque to the JIT, which would otherwise store and
     * reload every field and array element around each post. A chain that needs no patching and
     * no timestamp (see {@link #prepareSignals}) goes out from a loop that only posts and counts.
     */
    private void postWhileRoom(int q, long iterations, int txDepth, int cqMod, boolean stamp) {
        Sender sender = senders[q];
        WorkRequestList list = sender.list;
        int postList = sender.signaled.length;
        long sent = sender.posted;
        // perftest's condition, sent < iterations && sent + postList <= txDepth + completed, as one bound
        long stop = Math.min(iterations, txDepth + sender.completed - postList + 1);
        if (sent >= stop) {
            return;
        }
        long sentTotal = totalPosted;
        if (sentTotal == 0 && !stamp) {
            firstPost = System.nanoTime();
        }
        InlineVerbs.PostCall postFn = sender.post;
        long qp = sender.qp;
        long from = sent;
        boolean step = sender.steps;
        if (stamp) {
            sent = patchAndPost(q, sender, postFn, qp, sent, stop, cqMod, true, step);
        } else if (chainSignals) {
            sent = postRun(list, postFn, qp, postList, sent, stop, step);
        } else if (postList == 1) {
            sent = postSingles(q, sender, postFn, qp, sent, stop, cqMod, step);
        } else {
            sent = patchAndPost(q, sender, postFn, qp, sent, stop, cqMod, false, step);
        }
        sender.posted = sent;
        totalPosted = sentTotal + (sent - from);
    }

    /**
     * Posts {@code list} unchanged until {@code stop}: the loop all other posting loops reduce to,
     * with nothing live across the downcall but the bound, the count and the call's arguments. With
     * {@code step} (a list of one that walks its addresses, {@link WorkRequestList#stepsPerPost}) each post
     * moves the list on to its next slot.
     *
     * @return the new count of posted work requests (short of {@code stop} only after a failed post)
     */
    private long postRun(WorkRequestList list, InlineVerbs.PostCall postFn, long qp, int postList, long sent, long stop,
                         boolean step) {
        if (postList == 1 && sent < stop) {
            // Single writes as a counted loop (int counter, trip count known on entry): the JIT leaves the
            // safepoint poll out of its back edge, one post = one iteration. Chains keep the plain loop,
            // which needs no division to count its trips.
            int writes = (int) Math.min(stop - sent, Integer.MAX_VALUE);
            for (int i = 0; i < writes; i++) {
                int rc = list.post(postFn, qp);
                if (rc != 0) {
                    errors.postFailed(rc);
                    return sent + i;
                }
                if (step) {
                    list.stepAddresses();
                }
            }
            return sent + writes;
        }
        while (sent < stop) {
            int rc = list.post(postFn, qp);
            if (rc != 0) {
                errors.postFailed(rc);
                break;
            }
            sent += postList;
            if (step) {
                list.stepAddresses();
            }
        }
        return sent;
    }

    /**
     * Post list 1 with CQ moderation ({@code -l 1 -Q N}, perftest's default): the unsignalled writes
     * between two signalled ones go out as runs of the same work request from {@link #postRun}; only
     * the signalled write is patched (its wr_id carries how many writes its completion covers), and
     * unpatched after it. The same writes are signalled as in {@link #patchAndPost}: every
     * {@code cqMod}-th, and the last of the run.
     */
    private long postSingles(int q, Sender sender, InlineVerbs.PostCall postFn, long qp, long sent, long stop,
                             int cqMod, boolean step) {
        WorkRequestList list = sender.list;
        long last = iterations - 1;
        long since = sender.sinceSignal;
        long until = sender.untilSignal;
        boolean[] flags = sender.signaled;
        while (sent < stop) {
            // the next signalled write: the until-th from here, or the last one of the run
            long signalAt = Math.min(sent + until - 1, last);
            if (sent < signalAt) {
                if (flags[0]) {
                    list.setSignaled(0, false);
                    flags[0] = false;
                }
                long from = sent;
                sent = postRun(list, postFn, qp, 1, sent, Math.min(signalAt, stop), step);
                since += sent - from;
                until -= sent - from;
                if (sent < signalAt) {
                    break;
                }
                continue;
            }
            list.setWrId(0, ((long) q << 32) | (since + 1));
            if (!flags[0]) {
                list.setSignaled(0, true);
                flags[0] = true;
            }
            int rc = list.post(postFn, qp);
            if (rc != 0) {
                errors.postFailed(rc);
                break;
            }
            sent++;
            since = 0;
            until = cqMod;
            if (step) {
                list.stepAddresses();
            }
        }
        sender.sinceSignal = since;
        sender.untilSignal = until;
        return sent;
    }

    /**
     * {@link #postWhileRoom}'s loop when signals and work-request ids change from chain to chain
     * ({@code -Q} other than the post list), when each post is timestamped, or when the list walks its
     * addresses through the buffer after each post (perftest's bandwidth cycle, {@code step}).
     *
     * @return the new count of posted work requests of QP {@code q}
     */
    private long patchAndPost(int q, Sender sender, InlineVerbs.PostCall postFn, long qp, long sent, long stop,
                              int cqMod, boolean stamp, boolean step) {
        WorkRequestList list = sender.list;
        boolean[] flags = sender.signaled;
        int postList = flags.length;
        long last = iterations - 1;
        long since = sender.sinceSignal;
        long until = sender.untilSignal;
        long sentTotal = totalPosted;
        long tag = (long) q << 32;
        boolean patch = !chainSignals;
        while (sent < stop) {
            for (int j = 0; patch && j < postList; j++) {
                long covered = ++since;
                boolean signal = --until == 0 || sent + j == last;
                if (signal) {
                    until = cqMod;
                    since = 0;
                    list.setWrId(j, tag | covered);
                }
                if (signal != flags[j]) {
                    list.setSignaled(j, signal);
                    flags[j] = signal;
                }
            }
            if (stamp) {
                tPosted[(int) sentTotal] = System.nanoTime();
            }
            int rc = list.post(postFn, qp);
            if (rc != 0) {
                errors.postFailed(rc);
                break;
            }
            sent += postList;
            sentTotal += postList;
            if (step) {
                list.stepAddresses();
            }
        }
        sender.sinceSignal = since;
        sender.untilSignal = until;
        return sent;
    }

    /**
     * With the CQ moderation equal to the post list (perftest's default with {@code -l}, and
     * {@code -l 1 -Q 1}) every chain's last work request is signalled and covers the chain: signals
     * and work-request ids never change (runs post whole chains, so the last write of a run ends a
     * chain), so they are written once here and {@link #postWhileRoom} posts the chains unpatched.
     */
    private void prepareSignals(int cqMod) {
        chainSignals = cqMod == senders[0].list.length();
        if (!chainSignals) {
            return;
        }
        for (int q = 0; q < numQps; q++) {
            WorkRequestList list = senders[q].list;
            boolean[] signaled = senders[q].signaled;
            int last = list.length() - 1;
            for (int j = 0; j <= last; j++) {
                if (signaled[j] != (j == last)) {
                    list.setSignaled(j, j == last);
                    signaled[j] = j == last;
                }
            }
            list.setWrId(last, ((long) q << 32) | (last + 1));
        }
    }

    /** After a failure the QP flushes what was outstanding; collect it so the counts are complete. */
    private void drainAfterFailure() {
        if (errors.any()) {
            drainOutstanding();
        }
    }

    /**
     * Polls until every write is accounted for, or the CQ has been quiet for 50 ms (unsignalled
     * writes at the end of a timed run never report), or 2 s have passed.
     */
    private void drainOutstanding() {
        long now = System.nanoTime();
        long deadline = now + Math.min(stallNanos, 2_000_000_000L);
        long quietSince = now;
        while (now < deadline && totalCompleted < totalPosted && now - quietSince < 50_000_000L) {
            int n = wcs.poll(pollFn, cq);
            for (int i = 0; i < n; i++) {
                long wrId = wcs.wrId(i);
                if (wcs.status(i) != 0) {
                    errors.completionFailed(wcs.status(i), wcs.vendorError(i), wrId);
                } else {
                    long covered = wrId & 0xffff_ffffL;
                    senders[(int) (wrId >>> 32)].completed += covered;
                    totalCompleted += covered;
                }
            }
            now = System.nanoTime();
            if (n != 0) {
                quietSince = now;
            }
        }
    }

    private void reset(int cqMod) {
        for (Sender sender : senders) {
            sender.posted = 0;
            sender.completed = 0;
            sender.sinceSignal = 0;
            sender.untilSignal = cqMod;
            sender.steps = sender.list.stepsPerPost();
            sender.list.rewindAddresses();
        }
        totalPosted = 0;
        totalCompleted = 0;
        inSample = false;
        firstPost = 0;
        lastCompletion = 0;
        sampleStart = 0;
        sampleEnd = 0;
        sampleCompleted = 0;
        stalled = false;
        progressed = false;
        errors.reset();
    }

    public CompletionErrors errors() {
        return errors;
    }

    /** True when the loop gave up because no completion arrived within the stall limit. */
    public boolean stalled() {
        return stalled;
    }

    public long totalPosted() {
        return totalPosted;
    }

    public long totalCompleted() {
        return totalCompleted;
    }

    /** Post times, one per post call, indexed by the number of writes posted before it. */
    public long[] postTimestamps() {
        return tPosted;
    }

    /** Completion times, indexed by the number of writes completed minus one. */
    public long[] completionTimestamps() {
        return tCompleted;
    }

    /** When the first write of the last run was posted (also recorded without timestamps). */
    public long firstPostNanos() {
        return firstPost != 0 ? firstPost : tPosted.length > 0 ? tPosted[0] : 0;
    }

    /** When the last run saw its last completion (the clock is read as the loop ends, not per poll). */
    public long lastCompletionNanos() {
        return lastCompletion;
    }

    public long sampleNanos() {
        return sampleEnd - sampleStart;
    }

    public long sampleCompleted() {
        return sampleCompleted;
    }
}
