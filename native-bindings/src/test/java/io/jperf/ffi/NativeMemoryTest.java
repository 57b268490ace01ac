package io.jperf.ffi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link NativeMemory}: a raw pointer (a zero-length segment, as native code returns it) becomes usable. */
class NativeMemoryTest {

    @Test
    void givesARawPointerTheSizeOfItsLayoutOrALength() {
        try (Arena arena = Arena.ofConfined()) {
            MemoryLayout pair = MemoryLayout.structLayout(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT);
            MemorySegment memory = arena.allocate(pair);
            memory.set(ValueLayout.JAVA_INT, 8, 42);
            MemorySegment raw = MemorySegment.ofAddress(memory.address());
            assertEquals(0, raw.byteSize());

            MemorySegment struct = NativeMemory.ofLayout(raw, pair);
            assertEquals(pair.byteSize(), struct.byteSize());
            assertEquals(42, struct.get(ValueLayout.JAVA_INT, 8));
            MemorySegment bytes = NativeMemory.ofSize(raw, 12);
            assertEquals(12, bytes.byteSize());
            assertThrows(IndexOutOfBoundsException.class, () -> bytes.get(ValueLayout.JAVA_INT, 12));
            assertThrows(IllegalArgumentException.class, () -> NativeMemory.ofSize(raw, -1));
        }
    }

    @Test
    void theAddressSpaceIsOneConstantSegmentWhereAnAddressIsItsOffset() {
        assertSame(NativeMemory.addressSpace(), NativeMemory.addressSpace());
        assertEquals(0, NativeMemory.addressSpace().address());
        assertEquals(Long.MAX_VALUE, NativeMemory.addressSpace().byteSize());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(ValueLayout.JAVA_LONG);
            NativeMemory.addressSpace().set(ValueLayout.JAVA_LONG_UNALIGNED, memory.address(), 0x1234_5678_9abcL);
            assertEquals(0x1234_5678_9abcL, memory.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void aSegmentBoundToAnArenaRunsItsCleanupOnceWhenTheArenaCloses() {
        AtomicLong cleaned = new AtomicLong();
        MemorySegment bound;
        try (Arena owner = Arena.ofConfined(); Arena arena = Arena.ofConfined()) {
            MemorySegment memory = owner.allocate(64);
            bound = NativeMemory.ofSize(MemorySegment.ofAddress(memory.address()), 64, arena,
                    segment -> cleaned.set(segment.address() == memory.address() ? cleaned.get() + 1 : -1));
            bound.set(ValueLayout.JAVA_BYTE, 63, (byte) 7);
            assertEquals(7, memory.get(ValueLayout.JAVA_BYTE, 63));
            assertTrue(bound.scope().isAlive());
            assertEquals(0, cleaned.get());
        }
        assertEquals(1, cleaned.get());
        assertFalse(bound.scope().isAlive());
    }

    @Test
    void readsACStringUpToItsNulAndRefusesNullOrAnUnterminatedOne() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocateFrom("rxe0");
            MemorySegment raw = MemorySegment.ofAddress(text.address());
            assertEquals("rxe0", NativeMemory.cString(raw, 64));
            assertEquals("rxe0", NativeMemory.cString(raw, 5));
            IllegalArgumentException unterminated = assertThrows(IllegalArgumentException.class,
                    () -> NativeMemory.cString(raw, 4));
            assertTrue(unterminated.getMessage().contains("no NUL within 4 bytes"), unterminated.getMessage());
            IllegalArgumentException nul = assertThrows(IllegalArgumentException.class,
                    () -> NativeMemory.cString(MemorySegment.NULL, 64));
            assertTrue(nul.getMessage().contains("NULL"), nul.getMessage());
        }
    }
}
