package io.jperf.datapath;

import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.generated.ibv_send_wr;
import io.jperf.ffi.generated.ibv_sge;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A chain of send-queue work requests ({@code struct ibv_send_wr}, one SGE each, all of one
 * {@link Opcode}) built once in native memory; the hot loop only patches fields ({@link #setSignaled}, {@link #setWrId},
 * {@link #setRemoteAddress}, ...) and posts the whole chain with {@link #post}. A chain of
 * length N is perftest's post list ({@code -l N}). {@link #cycleAddresses} walks the addresses through a
 * buffer as perftest's bandwidth tests do ({@link #stepAddresses} after each post: two stores, no allocation).
 *
 * <p>Lifecycle: the memory belongs to the arena passed in; the list must not be used once that
 * arena is closed (the setters and {@link #post} reach the memory by address, see
 * {@link RawMemory}). Threading: confined to the posting thread.
 */
public final class WorkRequestList {
    private static final long WR_SIZE = ibv_send_wr.sizeof();
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long WR_ID = ibv_send_wr.wr_id$offset();
    private static final long NEXT = ibv_send_wr.next$offset();
    private static final long SG_LIST = ibv_send_wr.sg_list$offset();
    private static final long NUM_SGE = ibv_send_wr.num_sge$offset();
    private static final long OPCODE = ibv_send_wr.opcode$offset();
    private static final long SEND_FLAGS = ibv_send_wr.send_flags$offset();
    private static final long REMOTE_ADDR = ibv_send_wr.wr$offset() + ibv_send_wr.wr.rdma$offset()
            + ibv_send_wr.wr.rdma.remote_addr$offset();
    private static final long RKEY = ibv_send_wr.wr$offset() + ibv_send_wr.wr.rdma$offset()
            + ibv_send_wr.wr.rdma.rkey$offset();
    /** The atomic member of the union: remote_addr at the same offset as RDMA's, rkey after the operands. */
    private static final long ATOMIC_RKEY = ibv_send_wr.wr$offset() + ibv_send_wr.wr.atomic$offset()
            + ibv_send_wr.wr.atomic.rkey$offset();
    private static final long COMPARE_ADD = ibv_send_wr.wr$offset() + ibv_send_wr.wr.atomic$offset()
            + ibv_send_wr.wr.atomic.compare_add$offset();
    private static final long SWAP = ibv_send_wr.wr$offset() + ibv_send_wr.wr.atomic$offset()
            + ibv_send_wr.wr.atomic.swap$offset();
    private static final long SGE_ADDR = ibv_sge.addr$offset();
    private static final long SGE_LENGTH = ibv_sge.length$offset();
    private static final long SGE_LKEY = ibv_sge.lkey$offset();
    private static final int SIGNALED = rdma_h.IBV_SEND_SIGNALED();
    private static final int INLINE = rdma_h.IBV_SEND_INLINE();

    /** The verbs a list can carry; each names where the SGE's bytes go. */
    public enum Opcode {
        /** RDMA WRITE: the SGE is the source, the remote address the destination. */
        RDMA_WRITE(rdma_h.IBV_WR_RDMA_WRITE()),
        /** RDMA READ: the remote address is the source, the SGE the destination. */
        RDMA_READ(rdma_h.IBV_WR_RDMA_READ()),
        /** SEND: the SGE is the source; the bytes land in the buffer of the peer's next posted receive. */
        SEND(rdma_h.IBV_WR_SEND()),
        /**
         * Atomic fetch-and-add on the aligned 64-bit word at the remote address ({@code wr.atomic}'s
         * compare_add is the addend); the word's original value lands in the SGE (8 bytes).
         */
        ATOMIC_FETCH_AND_ADD(rdma_h.IBV_WR_ATOMIC_FETCH_AND_ADD()),
        /**
         * Atomic compare-and-swap on the aligned 64-bit word at the remote address: if it equals compare_add it
         * becomes swap; the word's original value lands in the SGE (8 bytes).
         */
        ATOMIC_CMP_AND_SWP(rdma_h.IBV_WR_ATOMIC_CMP_AND_SWP());

        private final int nativeValue;

        Opcode(int nativeValue) {
            this.nativeValue = nativeValue;
        }

        /** Whether the request is an atomic operation ({@code wr.atomic} instead of {@code wr.rdma}). */
        public boolean isAtomic() {
            return this == ATOMIC_FETCH_AND_ADD || this == ATOMIC_CMP_AND_SWP;
        }
    }

    /** The size of an atomic operation's word and of its SGE. */
    public static final int ATOMIC_SIZE = 8;

    /** perftest's addend ({@code ATOMIC_ADD_VALUE}). */
    private static final long PERFTEST_ADD_VALUE = 1;
    /** perftest's swap value ({@code ATOMIC_SWAP_VALUE}); its compare value is 0. */
    private static final long PERFTEST_SWAP_VALUE = 0;

    private final MemorySegment wrs;
    /** {@code wrs}, {@code sges} and {@code badWr} as addresses: the setters and {@link #post} use them directly. */
    private final long wrsAddress;
    private final long sgesAddress;
    private final long badWrAddress;
    private final int length;
    private final Opcode opcode;
    /** Where the address cycle starts (entry 0's addresses when {@link #cycleAddresses} was called). */
    private long remoteBase;
    private long localBase;
    /** Bytes between two slots of the cycle, and how many slots before it wraps; 0 when not cycling. */
    private int stride;
    private int slots;
    /** The slot the single entry of a cycling list points at ({@link #stepAddresses}). */
    private int slot;

    /** perftest's default cache line ({@code DEF_CACHE_LINE_SIZE}): the smallest step of its address cycle. */
    public static final int PERFTEST_CACHE_LINE = 64;
    /** perftest's cycle buffer: the page ({@code sysconf(_SC_PAGESIZE)}, 4096 on x86-64 and the lab). */
    public static final int PERFTEST_CYCLE_BUFFER = 4096;

    /**
     * An RDMA WRITE list.
     *
     * @param arena      owns the native memory of the list
     * @param length     how many work requests are chained (the post list)
     * @param localAddr  source address in a registered region
     * @param size       bytes per write
     * @param lkey       the local region's key
     * @param remoteAddr destination address at the peer
     * @param rkey       the peer region's key
     * @param inline     send the payload inline (only when size <= the QP's max inline data)
     */
    public WorkRequestList(Arena arena, int length, long localAddr, int size, int lkey, long remoteAddr, int rkey,
                           boolean inline) {
        this(arena, Opcode.RDMA_WRITE, length, localAddr, size, lkey, remoteAddr, rkey, inline);
    }

    /**
     * A list of {@code opcode} requests; the other parameters as for an RDMA WRITE list ({@code localAddr} is
     * where a READ's bytes land, {@code remoteAddr} where they are read from). An atomic list's requests
     * start with perftest's operands (fetch-and-add adds 1; compare-and-swap compares with 0 and swaps in 0;
     * {@link #setCompareAdd} and {@link #setSwap} patch them), its {@code localAddr} receives the original
     * value and {@code remoteAddr} must be 8-byte aligned.
     *
     * @throws IllegalArgumentException for an inline READ or atomic (no payload to send), an atomic of other
     *     than 8 bytes or at an unaligned remote address
     */
    public WorkRequestList(Arena arena, Opcode opcode, int length, long localAddr, int size, int lkey, long remoteAddr,
                           int rkey, boolean inline) {
        if (inline && opcode == Opcode.RDMA_READ) {
            throw new IllegalArgumentException("an RDMA READ cannot be inline");
        }
        if (opcode.isAtomic()) {
            if (inline) {
                throw new IllegalArgumentException("an atomic operation cannot be inline");
            }
            if (size != ATOMIC_SIZE) {
                throw new IllegalArgumentException("an atomic operation is 8 bytes (got " + size + ")");
            }
            if (remoteAddr % ATOMIC_SIZE != 0) {
                throw new IllegalArgumentException("an atomic operation needs an 8-byte aligned remote address (got 0x"
                        + Long.toHexString(remoteAddr) + ")");
            }
        }
        if (length < 1) {
            throw new IllegalArgumentException("a work request list needs at least one entry");
        }
        this.length = length;
        this.opcode = opcode;
        this.wrs = arena.allocate(WR_SIZE * length, 8);
        MemorySegment sges = arena.allocate(SGE_SIZE * length, 8);
        MemorySegment badWr = arena.allocate(ValueLayout.ADDRESS);
        this.wrsAddress = wrs.address();
        this.sgesAddress = sges.address();
        this.badWrAddress = badWr.address();
        for (int i = 0; i < length; i++) {
            long wr = WR_SIZE * i;
            long sge = SGE_SIZE * i;
            sges.set(ValueLayout.JAVA_LONG, sge + SGE_ADDR, localAddr);
            sges.set(ValueLayout.JAVA_INT, sge + SGE_LENGTH, size);
            sges.set(ValueLayout.JAVA_INT, sge + SGE_LKEY, lkey);
            wrs.set(ValueLayout.JAVA_LONG, wr + WR_ID, i);
            wrs.set(ValueLayout.ADDRESS, wr + NEXT, i + 1 < length ? wrs.asSlice(WR_SIZE * (i + 1)) : MemorySegment.NULL);
            wrs.set(ValueLayout.ADDRESS, wr + SG_LIST, sges.asSlice(sge));
            wrs.set(ValueLayout.JAVA_INT, wr + NUM_SGE, 1);
            wrs.set(ValueLayout.JAVA_INT, wr + OPCODE, opcode.nativeValue);
            wrs.set(ValueLayout.JAVA_INT, wr + SEND_FLAGS, inline ? INLINE : 0);
            wrs.set(ValueLayout.JAVA_LONG, wr + REMOTE_ADDR, remoteAddr);
            if (opcode.isAtomic()) {
                wrs.set(ValueLayout.JAVA_INT, wr + ATOMIC_RKEY, rkey);
                wrs.set(ValueLayout.JAVA_LONG, wr + COMPARE_ADD,
                        opcode == Opcode.ATOMIC_FETCH_AND_ADD ? PERFTEST_ADD_VALUE : 0);
                wrs.set(ValueLayout.JAVA_LONG, wr + SWAP, PERFTEST_SWAP_VALUE);
            } else {
                wrs.set(ValueLayout.JAVA_INT, wr + RKEY, rkey);
            }
        }
    }

    public int length() {
        return length;
    }

    /**
     * Walks the remote and local addresses through a buffer as perftest's bandwidth tests do
     * ({@code increase_rem_addr} / {@code increase_loc_addr}): slot {@code k} is {@code base + k * stride},
     * for {@code slots} slots, then back to the base. Entry {@code j} of the list points at slot
     * {@code j % slots} from now on; a list of one entry (perftest's {@code -l 1}) also moves on one slot per
     * post when the loop calls {@link #stepAddresses} (perftest steps only post lists of one). The bases are
     * entry 0's current addresses. Called once while building; 0 slots or a stride of 0 are refused.
     *
     * @throws IllegalArgumentException for a stride or slot count below 1, or an atomic list whose stride
     *     would leave the 8-byte alignment
     */
    public void cycleAddresses(int stride, int slots) {
        if (stride < 1 || slots < 1) {
            throw new IllegalArgumentException("an address cycle needs a stride and slots of at least 1 (got "
                    + stride + " x " + slots + ")");
        }
        if (stride % ATOMIC_SIZE != 0 && opcode.isAtomic()) {
            throw new IllegalArgumentException("an atomic address cycle needs a stride of whole 8-byte words (got "
                    + stride + ")");
        }
        stopCycling();
        this.remoteBase = RawMemory.getLong(wr(0) + REMOTE_ADDR);
        this.localBase = RawMemory.getLong(sge(0) + SGE_ADDR);
        this.stride = stride;
        this.slots = slots;
        for (int j = 0; j < length; j++) {
            long offset = (long) (j % slots) * stride;
            RawMemory.putLong(wr(j) + REMOTE_ADDR, remoteBase + offset);
            RawMemory.putLong(sge(j) + SGE_ADDR, localBase + offset);
        }
        this.slot = 0;
    }

    /**
     * perftest's cycle for {@code size}-byte messages: a stride of {@code INC(size, cache line)} (the size
     * rounded up to {@link #PERFTEST_CACHE_LINE}, at least one line) through {@link #PERFTEST_CYCLE_BUFFER}
     * bytes; for 8-byte atomics 64 slots 64 bytes apart. perftest cycles only messages of at most half the
     * cycle buffer: larger ones go to the cycle's base, every entry alike. Called again for another size
     * (a {@code -a} run), the list starts over from the same base.
     */
    public void cycleAddressesAsPerftest(int size) {
        if (size > PERFTEST_CYCLE_BUFFER / 2) {
            stopCycling();
            return;
        }
        int stride = Math.max(PERFTEST_CACHE_LINE,
                (size + PERFTEST_CACHE_LINE - 1) / PERFTEST_CACHE_LINE * PERFTEST_CACHE_LINE);
        cycleAddresses(stride, PERFTEST_CYCLE_BUFFER / stride);
    }

    /** Points every entry back at the cycle's base and ends the cycle (nothing to do when not cycling). */
    private void stopCycling() {
        if (slots == 0) {
            return;
        }
        for (int j = 0; j < length; j++) {
            RawMemory.putLong(wr(j) + REMOTE_ADDR, remoteBase);
            RawMemory.putLong(sge(j) + SGE_ADDR, localBase);
        }
        stride = 0;
        slots = 0;
        slot = 0;
    }

    /** Whether the loop moves this list on after each post ({@link #stepAddresses}): a cycling list of one entry. */
    public boolean stepsPerPost() {
        return length == 1 && slots > 1;
    }

    /** Points a stepping list back at the cycle's first slot (a new run starts there, as perftest's). */
    public void rewindAddresses() {
        if (stepsPerPost()) {
            slot = 0;
            RawMemory.putLong(wrsAddress + REMOTE_ADDR, remoteBase);
            RawMemory.putLong(sgesAddress + SGE_ADDR, localBase);
        }
    }

    /**
     * Moves a stepping list's entry to the next slot of its cycle, wrapping to the first after the last
     * (two stores; nothing allocated). A list that does not step is left unchanged.
     */
    public void stepAddresses() {
        if (!stepsPerPost()) {
            return;
        }
        int next = slot + 1 == slots ? 0 : slot + 1;
        slot = next;
        long offset = (long) next * stride;
        RawMemory.putLong(wrsAddress + REMOTE_ADDR, remoteBase + offset);
        RawMemory.putLong(sgesAddress + SGE_ADDR, localBase + offset);
    }

    public void setWrId(int i, long wrId) {
        RawMemory.putLong(wr(i) + WR_ID, wrId);
    }

    public void setSignaled(int i, boolean signaled) {
        long at = wr(i) + SEND_FLAGS;
        int flags = RawMemory.getInt(at);
        RawMemory.putInt(at, signaled ? flags | SIGNALED : flags & ~SIGNALED);
    }

    /** Sends entry {@code i}'s payload inline (copied at post time; only up to the QP's max inline data). */
    public void setInline(int i, boolean inline) {
        long at = wr(i) + SEND_FLAGS;
        int flags = RawMemory.getInt(at);
        RawMemory.putInt(at, inline ? flags | INLINE : flags & ~INLINE);
    }

    public void setRemoteAddress(int i, long remoteAddr) {
        RawMemory.putLong(wr(i) + REMOTE_ADDR, remoteAddr);
    }

    /** Entry {@code i}'s compare_add operand: the addend of a fetch-and-add, the compare value of a compare-and-swap. */
    public void setCompareAdd(int i, long value) {
        RawMemory.putLong(wr(i) + COMPARE_ADD, value);
    }

    /** Entry {@code i}'s swap operand (compare-and-swap). */
    public void setSwap(int i, long value) {
        RawMemory.putLong(wr(i) + SWAP, value);
    }

    /** Entry {@code i}'s remote address as it would be posted now. */
    public long remoteAddress(int i) {
        return RawMemory.getLong(wr(i) + REMOTE_ADDR);
    }

    /** Entry {@code i}'s local (SGE) address as it would be posted now. */
    public long localAddress(int i) {
        return RawMemory.getLong(sge(i) + SGE_ADDR);
    }

    public void setLocalAddress(int i, long localAddr) {
        RawMemory.putLong(sge(i) + SGE_ADDR, localAddr);
    }

    public void setLength(int i, int size) {
        RawMemory.putInt(sge(i) + SGE_LENGTH, size);
    }

    private long wr(int i) {
        return wrsAddress + WR_SIZE * Objects.checkIndex(i, length);
    }

    private long sge(int i) {
        return sgesAddress + SGE_SIZE * Objects.checkIndex(i, length);
    }

    /** The first work request, as passed to {@code post_send}. */
    public MemorySegment head() {
        return wrs;
    }

    /**
     * Posts the whole chain: {@code ibv_post_send(qp, head, &bad_wr)} through the provider's
     * function pointer. Returns 0 or the errno the provider returned.
     */
    public int post(MemorySegment postSendFn, MemorySegment qp) {
        return post(postSendFn, qp.address());
    }

    /**
     * {@link #post(MemorySegment, MemorySegment)} for the hot loops, with the {@code ibv_qp*} as the
     * address the loop read once; the QP must outlive the call.
     */
    public int post(MemorySegment postSendFn, long qpAddress) {
        return InlineVerbs.postSendRaw(postSendFn, qpAddress, wrsAddress, badWrAddress);
    }

    /**
     * {@link #post(MemorySegment, long)} through the provider's {@code post_send} bound once
     * ({@link InlineVerbs#bindPostSend}): the hot loops' post, with no check of the function pointer per call.
     */
    public int post(InlineVerbs.PostCall postSend, long qpAddress) {
        return postSend.invoke(qpAddress, wrsAddress, badWrAddress);
    }
}
