package io.jperf.ffi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * Copies bytes between Java arrays and native memory without creating a heap memory segment.
 *
 * <p>{@code MemorySegment.toArray}, {@code MemorySegment.ofArray} and
 * {@code SegmentAllocator.allocateFrom(JAVA_BYTE, byte[])} wrap the array in a heap segment, and the
 * first one loads the JDK's heap segment class. From then on the segment accessors the data path
 * runs on every access ({@code unsafeGetOffset}, {@code unsafeGetBase}, {@code maxAlignMask},
 * {@code isNative}) have two implementations, and C1, which inlines a virtual call only when the
 * class hierarchy shows a single one, compiles each into a call. In the lab, where jperf runs on
 * C1 only, those calls were a third of the write-latency spin loop's samples. jperf's code
 * therefore copies through {@code MemorySegment.copy} between a native segment and an array, which
 * needs no heap segment; {@code NativeBytesTest} keeps the JVM free of the class.
 *
 * <p>Stateless and thread-safe.
 */
public final class NativeBytes {
    private NativeBytes() {
    }

    /** The whole of {@code segment} (native memory) as a new array. */
    public static byte[] toArray(MemorySegment segment) {
        byte[] bytes = new byte[Math.toIntExact(segment.byteSize())];
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 0, bytes, 0, bytes.length);
        return bytes;
    }

    /** A new segment from {@code allocator} holding a copy of {@code bytes}. */
    public static MemorySegment allocateFrom(SegmentAllocator allocator, byte[] bytes) {
        MemorySegment segment = allocator.allocate(bytes.length);
        MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return segment;
    }
}
