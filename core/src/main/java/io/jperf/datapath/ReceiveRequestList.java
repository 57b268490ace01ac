package io.jperf.datapath;

import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.generated.ibv_recv_wr;
import io.jperf.ffi.generated.ibv_sge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * One QP's receive work requests ({@code struct ibv_recv_wr}, one SGE each, unchained) built once in
 * native memory: the receive queue of a SEND test. Every entry receives into the same buffer (its bytes are
 * overwritten by each message, as perftest's) and carries a work-request id that names it, so that its
 * completion can re-post exactly that entry: {@link #RECEIVE_TAG} | QP index &lt;&lt; 32 | entry index.
 * {@link #postAll} fills the receive queue to the list's length (perftest's {@code -r/--rx-depth}),
 * {@link #post} re-posts one entry as its completion arrives. Nothing is allocated after construction.
 *
 * <p>Lifecycle: the memory belongs to the arena passed in; the list must not be used once that arena is
 * closed, and the arena must outlive every posted entry's completion (or the QP). Threading: confined to
 * the thread that posts to the QP.
 */
public final class ReceiveRequestList {
    /** Set in the work-request id of every receive: tells a receive completion from a send completion. */
    public static final long RECEIVE_TAG = 1L << 63;

    private static final long WR_SIZE = ibv_recv_wr.sizeof();
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long WR_ID = ibv_recv_wr.wr_id$offset();
    private static final long NEXT = ibv_recv_wr.next$offset();
    private static final long SG_LIST = ibv_recv_wr.sg_list$offset();
    private static final long NUM_SGE = ibv_recv_wr.num_sge$offset();
    private static final long SGE_ADDR = ibv_sge.addr$offset();
    private static final long SGE_LENGTH = ibv_sge.length$offset();
    private static final long SGE_LKEY = ibv_sge.lkey$offset();

    private final long wrsAddress;
    private final long badWrAddress;
    private final int length;

    /**
     * @param arena   owns the native memory of the list
     * @param qpIndex the QP's index in the test, carried in every work-request id
     * @param length  how many receives the list keeps posted (the receive queue depth)
     * @param addr    where each message lands, in a registered region
     * @param size    the bytes a receive accepts (at least the largest message)
     * @param lkey    the region's key
     */
    public ReceiveRequestList(Arena arena, int qpIndex, int length, long addr, int size, int lkey) {
        if (length < 1) {
            throw new IllegalArgumentException("a receive list needs at least one entry");
        }
        if (qpIndex < 0) {
            throw new IllegalArgumentException("negative QP index " + qpIndex);
        }
        this.length = length;
        MemorySegment wrs = arena.allocate(WR_SIZE * length, 8);
        MemorySegment sges = arena.allocate(SGE_SIZE * length, 8);
        MemorySegment badWr = arena.allocate(ValueLayout.ADDRESS);
        this.wrsAddress = wrs.address();
        this.badWrAddress = badWr.address();
        for (int i = 0; i < length; i++) {
            long wr = WR_SIZE * i;
            long sge = SGE_SIZE * i;
            sges.set(ValueLayout.JAVA_LONG, sge + SGE_ADDR, addr);
            sges.set(ValueLayout.JAVA_INT, sge + SGE_LENGTH, size);
            sges.set(ValueLayout.JAVA_INT, sge + SGE_LKEY, lkey);
            wrs.set(ValueLayout.JAVA_LONG, wr + WR_ID, wrId(qpIndex, i));
            wrs.set(ValueLayout.ADDRESS, wr + NEXT, MemorySegment.NULL);
            wrs.set(ValueLayout.ADDRESS, wr + SG_LIST, sges.asSlice(sge));
            wrs.set(ValueLayout.JAVA_INT, wr + NUM_SGE, 1);
        }
    }

    /** The work-request id of entry {@code index} of QP {@code qpIndex}'s list. */
    public static long wrId(int qpIndex, int index) {
        return RECEIVE_TAG | ((long) qpIndex << 32) | (index & 0xffff_ffffL);
    }

    /** Whether a completion's work-request id is a receive's. */
    public static boolean isReceive(long wrId) {
        return (wrId & RECEIVE_TAG) != 0;
    }

    /** The QP index a receive's work-request id carries. */
    public static int qpIndex(long wrId) {
        return (int) ((wrId >>> 32) & 0x7fff_ffffL);
    }

    /** The entry a receive's work-request id names. */
    public static int entry(long wrId) {
        return (int) wrId;
    }

    public int length() {
        return length;
    }

    /**
     * Posts entry {@code i} alone: {@code ibv_post_recv(qp, &wr[i], &bad_wr)} through the provider's
     * function pointer; the QP (its address) must outlive the call. Returns 0 or the provider's errno.
     */
    public int post(MemorySegment postRecvFn, long qpAddress, int i) {
        return InlineVerbs.postRecvRaw(postRecvFn, qpAddress, wrsAddress + WR_SIZE * Objects.checkIndex(i, length),
                badWrAddress);
    }

    /**
     * {@link #post(MemorySegment, long, int)} through the provider's {@code post_recv} bound once
     * ({@link InlineVerbs#bindPostRecv}): the hot loops' repost, with no check of the function pointer per call.
     */
    public int post(InlineVerbs.PostCall postRecv, long qpAddress, int i) {
        return postRecv.invoke(qpAddress, wrsAddress + WR_SIZE * Objects.checkIndex(i, length), badWrAddress);
    }

    /** Posts every entry (fills the receive queue). Returns 0, or the first errno, after which it stops. */
    public int postAll(MemorySegment postRecvFn, long qpAddress) {
        for (int i = 0; i < length; i++) {
            int rc = post(postRecvFn, qpAddress, i);
            if (rc != 0) {
                return rc;
            }
        }
        return 0;
    }

    /** {@link #postAll(MemorySegment, long)} through a bound {@code post_recv}. */
    public int postAll(InlineVerbs.PostCall postRecv, long qpAddress) {
        for (int i = 0; i < length; i++) {
            int rc = post(postRecv, qpAddress, i);
            if (rc != 0) {
                return rc;
            }
        }
        return 0;
    }
}
