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

    @Test
    void anotherThreadsAffinityIsReadSetAndRestoredByItsId() throws Exception {
        int last = Runtime.getRuntime().availableProcessors() - 1;
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        int[] tid = new int[1];
        Thread t = new Thread(() -> {
            tid[0] = Libc.currentThreadId();
            started.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        started.await(10, TimeUnit.SECONDS);
        try {
            assertTrue(tid[0] > 0 && tid[0] != Libc.currentThreadId(), "a thread id of its own: " + tid[0]);
            java.util.BitSet before = Libc.threadAffinity(tid[0]);
            assertTrue(before.get(last), "CPU " + last + " is allowed: " + before);
            java.util.BitSet one = new java.util.BitSet();
            one.set(last);
            Libc.setThreadAffinity(tid[0], one);
            assertEquals(one, Libc.threadAffinity(tid[0]));
            Libc.setThreadAffinity(tid[0], before);
            assertEquals(before, Libc.threadAffinity(tid[0]));
        } finally {
            done.countDown();
            t.join(10_000);
        }
    }

    @Test
    void anEndedThreadIsEsrch() throws Exception {
        int[] tid = new int[1];
        Thread t = new Thread(() -> tid[0] = Libc.currentThreadId());
        t.start();
        t.join(10_000);
        Thread.sleep(50); // the kernel reaps the task right after the thread returns
        LibcException e = assertThrows(LibcException.class, () -> Libc.threadAffinity(tid[0]));
        assertEquals(3, e.errno());
    }
}
