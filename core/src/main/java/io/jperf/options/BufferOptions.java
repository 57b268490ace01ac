package io.jperf.options;

/**
 * How a test allocates and registers its buffers (perftest's memory flags).
 *
 * @param hugePages {@code --use_hugepages}: the buffers come from huge pages (an {@code mmap} with
 *     {@code MAP_HUGETLB}, rounded up to whole huge pages); the test fails with the mmap errno and a hint when
 *     none are free
 * @param mrPerQp {@code --mr_per_qp}: one memory region per QP (bandwidth tests), each QP's work requests and
 *     key message carry its own region's keys and address, as perftest; otherwise one region holds every QP's
 *     buffers
 */
public record BufferOptions(boolean hugePages, boolean mrPerQp) {
    /** perftest's default: ordinary pages, one region. */
    public static final BufferOptions DEFAULT = new BufferOptions(false, false);
}
