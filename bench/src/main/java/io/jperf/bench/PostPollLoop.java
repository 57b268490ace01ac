package io.jperf.bench;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The Java side of the post/poll comparison: perftest's write_bw loop (run_iter_bw,
 * iterations mode, one QP) written with jperf's data-path pieces, {@link WorkRequestList},
 * {@link CompletionBatch} and {@link InlineVerbs}. Against a {@link StubProvider} it is the
 * statement-for-statement twin of {@code jperf_stub_c_loop} in {@code src/main/c/stub_c_loop.c},
 * so the ratio of the two measures what Java adds on the data path, not a different algorithm.
 * Against a real QP/CQ ({@link RealDeviceWriteBenchmark}) it moves real RDMA writes.
 *
 * <p>This is a measuring harness, not jperf's engine: it gives the data-path pieces a realistic
 * loop with a C twin. The engines (core, {@code io.jperf.engine}) get their own benchmark
 * classes, driving the same stub.
 *
 * <p>Semantics (perftest's): with {@code postList == 1} every {@code cqMod}-th WR is signaled
 * ({@code -Q}); with {@code postList > 1} the last WR of each list is signaled and the CQ
 * moderation is the post list ({@code -l} without {@code -Q}); at most {@code txDepth} WRs are
 * outstanding; completions are polled {@value #POLL_BATCH} at a time and each one accounts for
 * the moderation's worth of WRs. The wr_id of each signaled WR is its index in the run.
 *
 * <p>Threading: confined to one thread. Lifecycle: the native memory belongs to the arena
 * passed in; the QP and CQ must stay open while {@link #run} is used.
 */
public final class PostPollLoop {
    /** Completions polled per {@code poll_cq}: perftest's {@code CTX_POLL_BATCH}. */
    public static final int POLL_BATCH = 16;

    private final WorkRequestList wrs;
    private final CompletionBatch completions;
    /** The provider's post_send and poll_cq, bound once (InlineVerbs.PostCall): no check of the pointers per call. */
    private final InlineVerbs.PostCall postSendFn;
    private final InlineVerbs.PollCall pollCqFn;
    /** The {@code ibv_qp*} and {@code ibv_cq*} as addresses, as the C loop keeps its pointers. */
    private final long qp;
    private final long cq;
    private final int postList;
    private final int cqMod;
    private final int moderation;
    private final int txDepth;
    private final int last;

    /**
     * @param qp         a {@code struct ibv_qp *} in RTS (or the stub's)
     * @param cq         its send CQ, {@code struct ibv_cq *}
     * @param localAddr  source buffer (in a region registered with {@code lkey})
     * @param remoteAddr destination (in a region registered with {@code rkey})
     * @param size       bytes per write (the SGE length)
     * @param postList   WRs chained per post_send (perftest {@code -l})
     * @param cqMod      signal every cqMod-th WR when {@code postList == 1} (perftest {@code -Q})
     * @param txDepth    maximum outstanding WRs (perftest {@code -t}), at least {@code postList}
     */
    public PostPollLoop(Arena arena, MemorySegment qp, MemorySegment cq, long localAddr, int lkey, long remoteAddr,
                        int rkey, int size, int postList, int cqMod, int txDepth) {
        if (postList < 1 || cqMod < 1 || txDepth < postList) {
            throw new IllegalArgumentException("need postList >= 1, cqMod >= 1, txDepth >= postList; got postList="
                    + postList + ", cqMod=" + cqMod + ", txDepth=" + txDepth);
        }
        this.postList = postList;
        this.cqMod = cqMod;
        this.moderation = moderation(postList, cqMod);
        this.txDepth = txDepth;
        this.last = postList - 1;
        this.wrs = new WorkRequestList(arena, postList, localAddr, size, lkey, remoteAddr, rkey, false);
        if (postList > 1) {
            wrs.setSignaled(last, true);
        }
        this.completions = new CompletionBatch(arena, POLL_BATCH);
        this.qp = qp.address();
        this.cq = cq.address();
        this.postSendFn = InlineVerbs.bindPostSend(InlineVerbs.postSendFn(qp));
        this.pollCqFn = InlineVerbs.bindPollCq(InlineVerbs.pollCqFn(cq));
    }

    /** The loop against the stub provider, with dummy buffers and keys (the stub reads none of them). */
    public static PostPollLoop onStub(Arena arena, StubProvider stub, int size, int postList, int cqMod, int txDepth) {
        MemorySegment local = arena.allocate(64, 64);
        MemorySegment remote = arena.allocate(64, 64);
        return new PostPollLoop(arena, stub.qp(), stub.cq(), local.address(), 0x1234, remote.address(), 0x5678, size,
                postList, cqMod, txDepth);
    }

    /** WRs one completion accounts for: the post list when it is > 1, else {@code cqMod}. */
    public static int moderation(int postList, int cqMod) {
        return postList > 1 ? postList : cqMod;
    }

    /** The moderation this loop uses; see {@link #moderation(int, int)}. */
    public int moderation() {
        return moderation;
    }

    /** The completions of the last poll (for tests: wr_id, status, opcode, byte_len). */
    public CompletionBatch completions() {
        return completions;
    }

    /**
     * Posts {@code iterations} WRs and polls until all of them are accounted for by
     * completions.
     *
     * @param iterations a multiple of the post list and of the moderation
     * @return the WRs the completions accounted for (equal to {@code iterations})
     * @throws IllegalStateException when post_send or poll_cq fails or a completion is not a success
     */
    public long run(long iterations) {
        if (iterations < 1 || iterations % postList != 0 || iterations % moderation != 0) {
            throw new IllegalArgumentException("iterations (" + iterations + ") must be a positive multiple of the post"
                    + " list (" + postList + ") and of the CQ moderation (" + moderation + ")");
        }
        // Locals, as the C loop's: the JIT cannot keep fields in registers across a downcall.
        final int postList = this.postList;
        final int cqMod = this.cqMod;
        final int moderation = this.moderation;
        final int txDepth = this.txDepth;
        final int last = this.last;
        final WorkRequestList wrs = this.wrs;
        final CompletionBatch completions = this.completions;
        final InlineVerbs.PostCall postSendFn = this.postSendFn;
        final InlineVerbs.PollCall pollCqFn = this.pollCqFn;
        final long qp = this.qp;
        final long cq = this.cq;
        long scnt = 0;
        long ccnt = 0;
        while (scnt < iterations || ccnt < iterations) {
            while (scnt < iterations && scnt - ccnt + postList <= txDepth) {
                if (postList == 1) {
                    wrs.setSignaled(0, scnt % cqMod == cqMod - 1);
                }
                wrs.setWrId(last, scnt + postList - 1);
                int rc = wrs.post(postSendFn, qp);
                if (rc != 0) {
                    throw new IllegalStateException("post_send failed with errno " + rc + " at WR " + scnt);
                }
                scnt += postList;
            }
            if (ccnt < iterations) {
                int ne = completions.poll(pollCqFn, cq);
                if (ne < 0) {
                    throw new IllegalStateException("poll_cq failed with " + ne);
                }
                for (int i = 0; i < ne; i++) {
                    if (completions.status(i) != 0) {
                        throw new IllegalStateException("completion of WR " + completions.wrId(i) + " has status "
                                + completions.status(i));
                    }
                    ccnt += moderation;
                }
            }
        }
        return ccnt;
    }
}
