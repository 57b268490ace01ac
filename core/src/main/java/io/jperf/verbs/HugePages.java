package io.jperf.verbs;

import io.jperf.ffi.Libc;
import io.jperf.ffi.LibcException;
import io.jperf.ffi.NativeMemory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Test buffers backed by huge pages (perftest's {@code --use_hugepages}): an anonymous private
 * {@code mmap} with {@code MAP_HUGETLB} of the size rounded up to whole huge pages, as perftest rounds
 * its {@code shmget(SHM_HUGETLB)} segment up to 2 MiB. The mapping belongs to the arena it was made in:
 * closing the arena unmaps it ({@code munmap}), so a {@link MemoryRegion} that owns the arena keeps it
 * mapped until it is deregistered. The calls themselves are {@link Libc#mapHugePages} and
 * {@link Libc#unmap}.
 *
 * <p>Stateless and thread-safe.
 */
public final class HugePages {
    /** perftest's huge page size, used when /proc/meminfo has no {@code Hugepagesize}. */
    public static final long DEFAULT_PAGE_SIZE = 2L << 20;

    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private HugePages() {
    }

    /** {@code size} rounded up to whole pages of {@code pageSize} (a power of two), at least one page. */
    static long roundUp(long size, long pageSize) {
        if (size <= 0 || pageSize <= 0 || Long.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("size " + size + " and page size " + pageSize
                    + ": both must be positive, the page size a power of two");
        }
        return (size + pageSize - 1) & -pageSize;
    }

    /** The system's default huge page size ({@code Hugepagesize} in /proc/meminfo), else 2 MiB. */
    public static long pageSize() {
        return meminfoKib("Hugepagesize:").map(k -> k * 1024).filter(b -> Long.bitCount(b) == 1)
                .orElse(DEFAULT_PAGE_SIZE);
    }

    /** A /proc/meminfo value (the number after {@code key}), if the file and key exist. */
    static Optional<Long> meminfoKib(String key) {
        try {
            List<String> lines = Files.readAllLines(MEMINFO);
            for (String line : lines) {
                if (line.startsWith(key)) {
                    return Optional.of(Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The hint of a failed huge page mapping of {@code bytes} in pages of {@code pageSize}. */
    static String hint(long bytes, long pageSize) {
        long pages = bytes / pageSize;
        String free = meminfoKib("HugePages_Free:").map(n -> n + " free now").orElse("none readable");
        return "--use_hugepages needs " + pages + " free huge page(s) of " + (pageSize >> 10) + " KiB (" + free
                + ", HugePages_Free in /proc/meminfo): reserve them as root, e.g. `sysctl -w vm.nr_hugepages="
                + pages + "` (more when other programs use huge pages), or run without --use_hugepages";
    }

    /**
     * Maps {@code size} bytes (rounded up to whole huge pages) of zeroed memory bound to {@code arena}:
     * closing the arena unmaps it.
     *
     * @throws RdmaException naming {@code mmap}, its errno and a hint (no free huge pages, typically ENOMEM)
     */
    public static MemorySegment map(long size, Arena arena) {
        long pageSize = pageSize();
        long length = roundUp(size, pageSize);
        MemorySegment mapped;
        try {
            mapped = Libc.mapHugePages(length);
        } catch (LibcException e) {
            throw RdmaException.of("mmap(" + length + " bytes, MAP_HUGETLB) for --use_hugepages", e.errno(),
                    hint(length, pageSize));
        }
        return NativeMemory.ofSize(mapped, length, arena, segment -> unmap(segment, length));
    }

    private static void unmap(MemorySegment segment, long length) {
        try {
            Libc.unmap(segment, length);
        } catch (LibcException e) {
            throw new AssertionError("munmap of a mapping this class made failed: " + e.getMessage(), e);
        }
    }
}
