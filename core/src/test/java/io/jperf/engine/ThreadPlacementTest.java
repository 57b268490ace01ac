package io.jperf.engine;

import io.jperf.ffi.Libc;
import io.jperf.ffi.LibcException;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadPlacementTest {
    private static BitSet cpus(int... ids) {
        BitSet b = new BitSet();
        for (int id : ids) {
            b.set(id);
        }
        return b;
    }

    @Test
    void onABigMachineTheJvmsThreadsGoToTheOtherCpus() {
        assertEquals(cpus(0, 1, 3), ThreadPlacement.jvmCpus(cpus(0, 1, 2, 3), 2));
    }

    @Test
    void onASmallMachineTheyStayWithTheTestThread() {
        assertEquals(cpus(1), ThreadPlacement.jvmCpus(cpus(0, 1), 1));
        assertEquals(cpus(4), ThreadPlacement.jvmCpus(cpus(4, 5), 4));
    }

    @Test
    void withoutACpuNothingIsPlaced() throws Exception {
        ThreadPlacement none = ThreadPlacement.forTestThread(-1);
        assertSame(ThreadPlacement.NONE, none);
        none.close();
    }

    @Test
    void placesTheJvmsThreadsAndGivesEveryThreadItsCpusBack() throws Exception {
        int last = Runtime.getRuntime().availableProcessors() - 1;
        Map<Integer, BitSet> before = jvmThreadAffinities();
        String failure = CompletableFuture.supplyAsync(() -> {
            try {
                BitSet callerBefore = Libc.threadAffinity(0);
                BitSet expected = ThreadPlacement.jvmCpus(callerBefore, last);
                try (ThreadPlacement p = ThreadPlacement.forTestThread(last)) {
                    assertEquals(cpus(last), Libc.threadAffinity(0));
                    assertEquals(last, p.cpu());
                    assertEquals(expected, p.jvmTarget());
                    assertTrue(p.movedThreads() > 0, "moved the JVM's threads");
                    for (Map.Entry<Integer, BitSet> e : jvmThreadAffinities().entrySet()) {
                        assertEquals(expected, e.getValue(), "JVM thread " + e.getKey());
                    }
                }
                assertEquals(callerBefore, Libc.threadAffinity(0));
                return null;
            } catch (LibcException | AssertionError e) {
                return e.toString();
            }
        }, r -> new Thread(r, "placement-test").start()).get(30, TimeUnit.SECONDS);
        assertEquals(null, failure);
        Map<Integer, BitSet> after = jvmThreadAffinities();
        before.forEach((tid, cpus) -> {
            if (after.containsKey(tid)) {
                assertEquals(cpus, after.get(tid), "JVM thread " + tid + " got its CPUs back");
            }
        });
    }

    @Test
    void aCpuThatDoesNotExistFailsBeforeAnythingMoves() throws Exception {
        Map<Integer, BitSet> before = jvmThreadAffinities();
        LibcException e = CompletableFuture.supplyAsync(() -> assertThrows(LibcException.class,
                () -> ThreadPlacement.forTestThread(1023)), r -> new Thread(r).start()).get(10, TimeUnit.SECONDS);
        assertEquals(22, e.errno());
        Map<Integer, BitSet> after = jvmThreadAffinities();
        before.forEach((tid, cpus) -> {
            if (after.containsKey(tid)) {
                assertEquals(cpus, after.get(tid));
            }
        });
    }

    private static Map<Integer, BitSet> jvmThreadAffinities() {
        Map<Integer, BitSet> m = new HashMap<>();
        for (JvmThreads.Task t : JvmThreads.list()) {
            if (t.isJvmService()) {
                try {
                    m.put(t.tid(), Libc.threadAffinity(t.tid()));
                } catch (LibcException e) {
                    // ended meanwhile
                }
            }
        }
        return m;
    }
}
