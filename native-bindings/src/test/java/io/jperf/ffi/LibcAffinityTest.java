package io.jperf.ffi;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pinning one thread with sched_setaffinity, checked with sched_getcpu (on threads of their own). */
class LibcAffinityTest {
    @Test
    void aPinnedThreadRunsOnItsCpu() throws Exception {
        int last = Runtime.getRuntime().availableProcessors() - 1;
        int cpu = CompletableFuture.supplyAsync(() -> {
            try {
                Libc.pinCurrentThread(last);
                Thread.yield();
                return Libc.currentCpu();
            } catch (LibcException e) {
                throw new AssertionError(e);
            }
        }, r -> new Thread(r).start()).get(10, TimeUnit.SECONDS);
        assertEquals(last, cpu);
    }

    @Test
    void aCpuThatDoesNotExistIsRefusedWithEinval() throws Exception {
        LibcException e = CompletableFuture.supplyAsync(() -> assertThrows(LibcException.class,
                () -> Libc.pinCurrentThread(1023)), r -> new Thread(r).start()).get(10, TimeUnit.SECONDS);
        assertEquals(22, e.errno());
        assertTrue(e.getMessage().contains("sched_setaffinity(CPU 1023)"), e.getMessage());
    }

    @Test
    void aNegativeCpuIsABadArgument() {
        assertThrows(IllegalArgumentException.class, () -> Libc.pinCurrentThread(-1));
    }
}
