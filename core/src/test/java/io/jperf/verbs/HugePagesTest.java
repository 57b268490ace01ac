package io.jperf.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

/** --use_hugepages' mapping: its flags and rounding in isolation, the failure as the user sees it. */
class HugePagesTest {
    private static final long MIB2 = 2L << 20;

    @Test
    void sizesRoundUpToWholeHugePagesAsPerftestsTwoMebibyteRounding() {
        assertEquals(MIB2, HugePages.roundUp(1, MIB2));
        assertEquals(MIB2, HugePages.roundUp(MIB2, MIB2));
        assertEquals(2 * MIB2, HugePages.roundUp(MIB2 + 1, MIB2));
        assertEquals(3 * MIB2, HugePages.roundUp(65536 * 2 * 32 + 4096, MIB2), "4 MiB and a page: three pages");
        assertEquals(1L << 30, HugePages.roundUp(5, 1L << 30), "a 1 GiB default huge page size");
        assertThrows(IllegalArgumentException.class, () -> HugePages.roundUp(0, MIB2));
        assertThrows(IllegalArgumentException.class, () -> HugePages.roundUp(10, 3 << 20));
    }

    @Test
    void thePageSizeIsAPowerOfTwoFromMeminfoOrPerftestsTwoMebibytes() {
        long size = HugePages.pageSize();
        assertEquals(1, Long.bitCount(size));
        assertEquals(HugePages.meminfoKib("Hugepagesize:").map(k -> k * 1024).orElse(MIB2), size);
    }

    @Test
    void tooFewFreeHugePagesFailNamingMmapItsErrnoAndTheHint() {
        // 64 TiB of huge pages: more than any host has free, with or without vm.nr_hugepages set
        long size = 1L << 46;
        try (Arena arena = Arena.ofConfined()) {
            RdmaException e = assertThrows(RdmaException.class, () -> HugePages.map(size, arena));
            assertEquals(12, e.errno(), e.getMessage());
            String m = e.getMessage();
            assertTrue(m.startsWith("mmap(" + HugePages.roundUp(size, HugePages.pageSize())
                    + " bytes, MAP_HUGETLB) for --use_hugepages failed: errno 12 ENOMEM ("), m);
            assertTrue(m.contains("sysctl -w vm.nr_hugepages=" + size / HugePages.pageSize()), m);
            assertTrue(m.contains("HugePages_Free in /proc/meminfo"), m);
            assertTrue(m.contains("run without --use_hugepages"), m);
        }
    }

    @Test
    void withAFreeHugePageTheMappingIsZeroedWritableAndWhole() {
        assumeTrue(HugePages.meminfoKib("HugePages_Free:").orElse(0L) > 0, "no free huge page on this host");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = HugePages.map(100, arena);
            assertEquals(HugePages.pageSize(), s.byteSize());
            assertEquals(0, s.address() % HugePages.pageSize(), "huge page aligned");
            assertEquals(0L, s.get(ValueLayout.JAVA_LONG, s.byteSize() - 8));
            s.set(ValueLayout.JAVA_LONG, s.byteSize() - 8, 42L);
            assertEquals(42L, s.get(ValueLayout.JAVA_LONG, s.byteSize() - 8));
        }
    }
}
