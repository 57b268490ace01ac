package io.jperf.datapath;

import io.jperf.ffi.NativeMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads and writes the data path's own native structures (work requests, completions) by
 * address, through one segment that spans the address space.
 *
 * <p>An access through the structure's own segment checks, every time, the segment's class, its
 * bounds, alignment and read-only flag, and its arena's owner thread and liveness; around a
 * downcall the JIT cannot keep any of that, so a loop of a few nanoseconds per work request pays
 * for it on every post. Through {@link #ALL}, a constant of the global scope, only a bounds check
 * against a constant remains. The callers check their indexes against the structure's length
 * instead, and own the arena: an access after the arena is closed is not detected here.
 *
 * <p>Stateless and thread-safe.
 */
final class RawMemory {
    /** Address 0 up to {@code Long.MAX_VALUE}, global scope: an address is its own offset. */
    private static final MemorySegment ALL = NativeMemory.addressSpace();

    private RawMemory() {
    }

    static long getLong(long address) {
        return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, address);
    }

    static int getInt(long address) {
        return ALL.get(ValueLayout.JAVA_INT_UNALIGNED, address);
    }

    static void putLong(long address, long value) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, value);
    }

    static void putInt(long address, int value) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, address, value);
    }
}
