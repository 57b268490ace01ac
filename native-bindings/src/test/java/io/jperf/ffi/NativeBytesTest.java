package io.jperf.ffi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NativeBytes}: the copies are exact, and (in a fresh JVM, so that no other test's segments
 * count) they load no heap segment class, while the JDK's {@code toArray} does.
 */
class NativeBytesTest {
    private static final String HEAP_SEGMENT = "jdk.internal.foreign.HeapMemorySegmentImpl";

    @Test
    void copiesBothWaysExactly() {
        byte[] bytes = {1, -2, 3, 127, -128, 0, 42};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = NativeBytes.allocateFrom(arena, bytes);
            assertEquals(bytes.length, segment.byteSize());
            assertEquals((byte) -128, segment.get(ValueLayout.JAVA_BYTE, 4));
            assertArrayEquals(bytes, NativeBytes.toArray(segment));
            assertArrayEquals(new byte[] {3, 127}, NativeBytes.toArray(segment.asSlice(2, 2)));
            assertEquals(0, NativeBytes.allocateFrom(arena, new byte[0]).byteSize());
        }
    }

    @Test
    void loadsNoHeapSegmentClassWhereTheJdksToArrayDoes() throws Exception {
        String ours = classLoadLog("native-bytes");
        assertTrue(ours.contains("copied 7 bytes"), ours);
        assertFalse(ours.contains(HEAP_SEGMENT), "NativeBytes loaded a heap segment class");
        String jdks = classLoadLog("jdk-to-array");
        assertTrue(jdks.contains("copied 7 bytes"), jdks);
        assertTrue(jdks.contains(HEAP_SEGMENT), "the control (MemorySegment.toArray) should load it");
    }

    private static String classLoadLog(String mode) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), Child.class.getName(), mode)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not end");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** The child JVM: copies 7 bytes out of native memory one way or the other. */
    public static final class Child {
        public static void main(String[] args) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment segment = NativeBytes.allocateFrom(arena, new byte[] {1, 2, 3, 4, 5, 6, 7});
                byte[] copy = args[0].equals("native-bytes") ? NativeBytes.toArray(segment)
                        : segment.toArray(ValueLayout.JAVA_BYTE);
                System.out.println("copied " + copy.length + " bytes");
            }
        }
    }
}
