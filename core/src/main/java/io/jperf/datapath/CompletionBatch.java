package io.jperf.datapath;

import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.generated.ibv_wc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A preallocated array of work completions ({@code struct ibv_wc[capacity]}) that
 * {@link #poll} fills; the accessors read entry {@code i} of the last poll without allocating.
 *
 * <p>Lifecycle: the memory belongs to the arena passed in; the batch must not be used once that
 * arena is closed (its accessors read the memory by address, see {@link RawMemory}). Threading:
 * confined to the polling thread.
 */
public final class CompletionBatch {
    private static final long WC_SIZE = ibv_wc.sizeof();
    private static final long WR_ID = ibv_wc.wr_id$offset();
    private static final long STATUS = ibv_wc.status$offset();
    private static final long OPCODE = ibv_wc.opcode$offset();
    private static final long VENDOR_ERR = ibv_wc.vendor_err$offset();
    private static final long QP_NUM = ibv_wc.qp_num$offset();
    private static final long BYTE_LEN = ibv_wc.byte_len$offset();

    /** The {@code struct ibv_wc} array's address: the poll and the accessors use it directly. */
    private final long wcsAddress;
    private final int capacity;

    public CompletionBatch(Arena arena, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a completion batch needs room for at least one completion");
        }
        this.capacity = capacity;
        this.wcsAddress = arena.allocate(WC_SIZE * capacity, 8).address();
    }

    public int capacity() {
        return capacity;
    }

    /** Polls up to {@link #capacity()} completions; returns how many, or a negative value on error. */
    public int poll(MemorySegment pollCqFn, MemorySegment cq) {
        return poll(pollCqFn, cq.address());
    }

    /** {@link #poll(MemorySegment, MemorySegment)} for the hot loops, with the {@code ibv_cq*} as an address. */
    public int poll(MemorySegment pollCqFn, long cqAddress) {
        return InlineVerbs.pollCqRaw(pollCqFn, cqAddress, capacity, wcsAddress);
    }

    /** {@link #poll(MemorySegment, long)} through the CQ's {@code poll_cq} bound once ({@link InlineVerbs#bindPollCq}). */
    public int poll(InlineVerbs.PollCall pollCq, long cqAddress) {
        return pollCq.invoke(cqAddress, capacity, wcsAddress);
    }

    /**
     * The bytes between two entries: entry {@code i} is at offset {@code i * ENTRY_BYTES}, for the
     * offset-based accessors ({@link #statusAt}, {@link #wrIdAt}).
     */
    public static final long ENTRY_BYTES = WC_SIZE;

    /**
     * {@link #status} of the entry at byte offset {@code offset} ({@code i * ENTRY_BYTES}). For the hot
     * loops: a loop that walks the entries by offset, {@code for (long o = 0; o != n * ENTRY_BYTES; o +=
     * ENTRY_BYTES)}, is not a counted loop, so the JIT keeps one compare per access instead of preparing
     * range-check elimination and unrolling, which costs more than the 1 to 16 entries of a poll.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= offset <= (capacity - 1) * ENTRY_BYTES} (the
     *     whole entry read lies in the array)
     */
    public int statusAt(long offset) {
        return RawMemory.getInt(entryAt(offset) + STATUS);
    }

    /** {@link #wrId} of the entry at byte offset {@code offset}; see {@link #statusAt}. */
    public long wrIdAt(long offset) {
        return RawMemory.getLong(entryAt(offset) + WR_ID);
    }

    public long wrId(int i) {
        return RawMemory.getLong(entry(i) + WR_ID);
    }

    /** The {@code enum ibv_wc_status}; 0 is success, see {@link CompletionStatus}. */
    public int status(int i) {
        return RawMemory.getInt(entry(i) + STATUS);
    }

    public int opcode(int i) {
        return RawMemory.getInt(entry(i) + OPCODE);
    }

    public int vendorError(int i) {
        return RawMemory.getInt(entry(i) + VENDOR_ERR);
    }

    public int qpNumber(int i) {
        return RawMemory.getInt(entry(i) + QP_NUM);
    }

    public int byteLength(int i) {
        return RawMemory.getInt(entry(i) + BYTE_LEN);
    }

    private long entryAt(long offset) {
        return wcsAddress + Objects.checkIndex(offset, (capacity - 1) * WC_SIZE + 1);
    }

    private long entry(int i) {
        return wcsAddress + WC_SIZE * Objects.checkIndex(i, capacity);
    }
}
