package io.jperf.engine;

import io.jperf.ffi.Libc;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmThreadsTest {
    @Test
    void hotspotsOwnThreadsAreTold() {
        for (String name : new String[] {"C2 CompilerThre", "C1 CompilerThre", "GC Thread#0", "G1 Refine#0", "VM Thread",
                "VM Periodic Tas", "Signal Dispatch", "Common-Cleaner", "ZWorkerYoung#0"}) {
            assertTrue(JvmThreads.isJvmServiceName(name), name);
        }
        for (String name : new String[] {"main", "java", "jperf-loopback-", "pool-1-thread-1", "Gatherer"}) {
            assertFalse(JvmThreads.isJvmServiceName(name), name);
        }
        assertTrue(JvmThreads.isCompilerName("C2 CompilerThre"));
        assertFalse(JvmThreads.isCompilerName("GC Thread#0"));
    }

    @Test
    void listsThisThreadAndTheCompilers() {
        var tasks = JvmThreads.list();
        int self = Libc.currentThreadId();
        assertTrue(tasks.stream().anyMatch(t -> t.tid() == self), "this thread " + self + " in " + tasks);
        assertTrue(tasks.stream().anyMatch(JvmThreads.Task::isCompiler), "a compiler thread in " + tasks);
    }

    @Test
    void theCompilersHaveWorked() {
        assertTrue(JvmThreads.compilerCpuNanos() > 0, "the JIT compiled something before the tests ran");
        assertTrue(JvmThreads.cpuNanos(Libc.currentThreadId()) > 0);
        assertEquals(-1, JvmThreads.cpuNanos(Integer.MAX_VALUE));
    }

    @Test
    void statTicksAreUserPlusSystemTime() {
        String stat = "4242 (C2 CompilerThre) S 1 2 3 4 5 6 7 8 9 10 37 5 0 0 20 0 1 0 100 0 0";
        assertEquals(42 * 10_000_000L, JvmThreads.statTicksNanos(stat));
    }
}
