package io.jperf.ffi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Libc's huge-page mapping: Linux's flag values, and a refusal that names the call and errno. */
class LibcMmapTest {
    @Test
    void theMappingIsPrivateAnonymousReadWriteHugeTlbWithLinuxValues() {
        // <sys/mman.h> on x86-64 and aarch64: PROT_READ 1, PROT_WRITE 2, MAP_PRIVATE 2, MAP_ANONYMOUS 0x20,
        // MAP_HUGETLB 0x40000
        assertEquals(0x3, Libc.PROT_READ_WRITE);
        assertEquals(0x40022, Libc.MAP_PRIVATE_ANONYMOUS_HUGETLB);
        assertEquals(0, Libc.MAP_PRIVATE_ANONYMOUS_HUGETLB & 0x01, "not MAP_SHARED");
    }

    @Test
    void aMappingNoHostCanGiveFailsNamingMmapAndEnomem() {
        LibcException e = assertThrows(LibcException.class, () -> Libc.mapHugePages(1L << 46));
        assertEquals(12, e.errno(), e.getMessage());
        assertEquals("mmap(" + (1L << 46) + " bytes, MAP_HUGETLB)", e.call());
    }
}
