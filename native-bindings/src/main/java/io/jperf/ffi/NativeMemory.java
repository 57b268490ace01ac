package io.jperf.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * Turns raw native pointers into sized segments: the one place outside the generated bindings
 * where jperf calls the restricted {@link MemorySegment#reinterpret} methods.
 *
 * <p>A pointer a downcall returns, or one read from a native structure, is a zero-length segment:
 * C knows what it points at, Java does not. Giving it a size (and, for memory jperf maps itself, a
 * lifetime) is a restricted operation, because a wrong size reads or writes memory the pointer does
 * not own and can crash the JVM. The JVM therefore allows it only to modules granted native access.
 * jperf grants it to {@code io.jperf.ffi} alone ({@code --enable-native-access=io.jperf.ffi} on the
 * module path; the class path is {@code ALL-UNNAMED}): {@code io.jperf.core} calls these methods and
 * the generated bindings, never a restricted method itself ({@code NoRestrictedCallsTest} in core
 * checks its classes). The module exports this package to {@code io.jperf.core} only, so granting
 * native access to {@code io.jperf.ffi} hands these capabilities to jperf's own code and nobody else.
 *
 * <p>The methods are exactly as unsafe as {@code reinterpret}: the caller vouches that the pointer
 * points at (at least) the given number of bytes for as long as it uses the result. The result has
 * the pointer's scope (the global scope, for pointers native code returned) unless an arena is given.
 *
 * <p>Each method is static and small; none allocates more than the one segment
 * {@code reinterpret} itself makes ({@link #addressSpace()} allocates nothing), so they fit where
 * the replaced code ran, the data path included. Stateless and thread-safe.
 */
@SuppressWarnings("restricted")
public final class NativeMemory {
    /** Address 0 up to {@code Long.MAX_VALUE}, global scope: an address is its own offset. */
    private static final MemorySegment ADDRESS_SPACE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private NativeMemory() {
    }

    /**
     * One segment spanning the whole address space (address 0 up to {@code Long.MAX_VALUE}, global
     * scope): an address is its own offset. For code that reads and writes its own native structures by
     * address and checks its offsets itself; an access through it checks bounds against a constant only.
     * Always the same instance, so a {@code static final} copy of it is a constant to the JIT.
     */
    public static MemorySegment addressSpace() {
        return ADDRESS_SPACE;
    }

    /**
     * {@code pointer} as a segment of {@code byteSize} bytes with the pointer's scope, e.g. a buffer of
     * known length whose address a native structure holds.
     *
     * @throws IllegalArgumentException if {@code byteSize} is negative
     */
    public static MemorySegment ofSize(MemorySegment pointer, long byteSize) {
        return pointer.reinterpret(byteSize);
    }

    /**
     * {@code pointer} as a segment the size of {@code layout}, e.g. {@code ofLayout(qp, ibv_qp.layout())}
     * for a {@code struct ibv_qp *} a verbs call returned, to read its fields with the generated accessors.
     */
    public static MemorySegment ofLayout(MemorySegment pointer, MemoryLayout layout) {
        return pointer.reinterpret(layout.byteSize());
    }

    /**
     * {@code pointer} as a segment of {@code byteSize} bytes that belongs to {@code arena}: when the arena
     * closes, {@code cleanup} runs with a zero-length segment of the same address (to release memory
     * jperf mapped itself, e.g. {@code munmap}).
     *
     * @param cleanup run once when the arena closes, or null
     * @throws IllegalArgumentException if {@code byteSize} is negative
     * @throws IllegalStateException if {@code arena} is already closed
     */
    public static MemorySegment ofSize(MemorySegment pointer, long byteSize, Arena arena,
                                       Consumer<MemorySegment> cleanup) {
        return pointer.reinterpret(byteSize, arena, cleanup);
    }

    /**
     * The NUL-terminated UTF-8 string at {@code pointer}, read from at most {@code maxBytes} bytes
     * (e.g. {@code ibv_get_device_name}, {@code ibv_wc_status_str}).
     *
     * @throws IllegalArgumentException if {@code pointer} is NULL, or no NUL is within {@code maxBytes}
     */
    public static String cString(MemorySegment pointer, long maxBytes) {
        if (pointer.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("NULL C string pointer");
        }
        try {
            return pointer.reinterpret(maxBytes).getString(0);
        } catch (IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("no NUL within " + maxBytes + " bytes of the C string at 0x"
                    + Long.toHexString(pointer.address()), e);
        }
    }
}
