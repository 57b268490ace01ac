package io.jperf.cli;

import io.jperf.engine.ResourceEstimate;
import io.jperf.options.TestOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Refuses, before any device is opened, a test whose buffers or timestamps cannot fit in this
 * host's memory or this JVM's heap: one line naming the flags, instead of an allocation failure
 * half-way.
 */
final class MemoryCheck {
    private MemoryCheck() {
    }

    static void require(TestOptions options, boolean bothEnds) {
        require(options, bothEnds, memAvailable(), Runtime.getRuntime().maxMemory());
    }

    static void require(TestOptions options, boolean bothEnds, OptionalLong available, long maxHeap) {
        ResourceEstimate one = ResourceEstimate.of(options.params());
        ResourceEstimate need = bothEnds ? one.twice() : one;
        String ends = bothEnds ? " (both ends, --loopback)" : "";
        long nativeBytes = need.bufferBytes() + need.queueBytes();
        if (available.isPresent() && nativeBytes > available.getAsLong()) {
            throw new UsageException("-s/-q/-t: the test needs " + ResourceEstimate.format(nativeBytes)
                    + " of buffer and queue memory" + ends + ", more than this host has available ("
                    + ResourceEstimate.format(available.getAsLong()) + ", MemAvailable in /proc/meminfo);"
                    + " use a smaller -s or fewer -q");
        }
        if (need.heapBytes() > maxHeap / 2) {
            throw new UsageException("-n/-D: the test keeps " + ResourceEstimate.format(need.heapBytes())
                    + " of timestamps" + ends + ", more than half of this JVM's heap ("
                    + ResourceEstimate.format(maxHeap) + "); use fewer iterations or give the JVM more heap"
                    + " (JAVA_OPTS=-Xmx...)");
        }
    }

    /** MemAvailable from /proc/meminfo, in bytes; empty where the kernel does not tell. */
    static OptionalLong memAvailable() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    String[] f = line.substring("MemAvailable:".length()).trim().split("\\s+");
                    return OptionalLong.of(Long.parseLong(f[0]) * 1024);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no /proc: no check
        }
        return OptionalLong.empty();
    }
}
