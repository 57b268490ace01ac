package io.jperf.engine;

import io.jperf.ffi.Libc;
import io.jperf.ffi.LibcException;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a test's threads run while it runs. With a CPU for the test ({@code --cpu}), the calling
 * thread (the one that runs the data path) is pinned to it, and the JVM's own threads (compiler,
 * GC, VM and service threads: {@link JvmThreads.Task#isJvmService}) are placed by the machine's
 * size:
 * <ul>
 * <li>at least {@link #MIN_SPARE_CPUS} other allowed CPUs: on those, away from the test's CPU, so
 *     a compile or a GC never preempts the busy-polling loop;</li>
 * <li>fewer (a 2-CPU machine or container): on the test's CPU with the test thread, as
 *     {@code taskset -c CPU} would put the whole JVM. The one other CPU is then usually where the
 *     peer or the rest of the system runs; measured in the emulated 2-vCPU lab, the JVM's threads on
 *     the peer's CPU slowed every write_lat round (t_typical 26.6 vs 21.4 us, lab/README.md), while
 *     with the loop they cost nothing once the warm-up has let the JIT finish ({@link JitWarmup}).</li>
 * </ul>
 * The application's own threads are left alone. {@link #close()} gives every thread it moved the
 * CPUs it had (threads the JVM started meanwhile inherited the placement and get the allowed set),
 * and the test thread its own CPUs back: an embedding application finds its threads as they were.
 *
 * <p>Threading: created and closed by the test thread; not shared.
 */
final class ThreadPlacement implements AutoCloseable {
    /** Fewer spare CPUs than this: the JVM's threads stay with the test thread. */
    static final int MIN_SPARE_CPUS = 2;

    /** Nothing placed (no CPU given). */
    static final ThreadPlacement NONE = new ThreadPlacement(-1, null, null, null, Map.of());

    private final int cpu;
    private final BitSet callerBefore;
    private final BitSet allowed;
    private final BitSet jvmTarget;
    private final Map<Integer, BitSet> moved;

    private ThreadPlacement(int cpu, BitSet callerBefore, BitSet allowed, BitSet jvmTarget, Map<Integer, BitSet> moved) {
        this.cpu = cpu;
        this.callerBefore = callerBefore;
        this.allowed = allowed;
        this.jvmTarget = jvmTarget;
        this.moved = moved;
    }

    /**
     * Pins the calling thread to {@code cpu} and places the JVM's threads; {@code cpu < 0} places
     * nothing.
     *
     * @throws LibcException when the calling thread cannot be pinned (e.g. EINVAL: no such CPU, or
     *                       not allowed); the JVM's threads are placed as far as the kernel lets
     *                       (a thread that ends meanwhile is skipped)
     */
    static ThreadPlacement forTestThread(int cpu) throws LibcException {
        if (cpu < 0) {
            return NONE;
        }
        BitSet before = Libc.threadAffinity(0);
        Libc.pinCurrentThread(cpu);
        BitSet target = jvmCpus(before, cpu);
        int self = Libc.currentThreadId();
        Map<Integer, BitSet> moved = new LinkedHashMap<>();
        for (JvmThreads.Task t : JvmThreads.list()) {
            if (t.tid() == self || !t.isJvmService()) {
                continue;
            }
            try {
                BitSet was = Libc.threadAffinity(t.tid());
                Libc.setThreadAffinity(t.tid(), target);
                moved.put(t.tid(), was);
            } catch (LibcException e) {
                // ended meanwhile, or not movable (a cpuset): it stays where it was
            }
        }
        return new ThreadPlacement(cpu, before, before, target, moved);
    }

    /**
     * Where the JVM's threads go: the allowed CPUs but the test's when at least
     * {@link #MIN_SPARE_CPUS} remain, else the test's CPU.
     */
    static BitSet jvmCpus(BitSet allowed, int testCpu) {
        BitSet spare = (BitSet) allowed.clone();
        spare.clear(testCpu);
        if (spare.cardinality() >= MIN_SPARE_CPUS) {
            return spare;
        }
        BitSet with = new BitSet();
        with.set(testCpu);
        return with;
    }

    /** The test's CPU, or -1 when nothing was placed. */
    int cpu() {
        return cpu;
    }

    /** Where the JVM's threads were put (null when nothing was placed). */
    BitSet jvmTarget() {
        return jvmTarget == null ? null : (BitSet) jvmTarget.clone();
    }

    /** How many of the JVM's threads were moved. */
    int movedThreads() {
        return moved.size();
    }

    /** Gives every moved thread, and the test thread, the CPUs it had; never throws. */
    @Override
    public void close() {
        if (this == NONE) {
            return;
        }
        for (Map.Entry<Integer, BitSet> e : moved.entrySet()) {
            restore(e.getKey(), e.getValue());
        }
        for (JvmThreads.Task t : JvmThreads.list()) {
            if (!moved.containsKey(t.tid()) && t.isJvmService()) {
                try {
                    if (Libc.threadAffinity(t.tid()).equals(jvmTarget)) {
                        restore(t.tid(), allowed); // started during the test: it inherited the placement
                    }
                } catch (LibcException e) {
                    // ended meanwhile
                }
            }
        }
        restore(0, callerBefore);
    }

    private static void restore(int tid, BitSet cpus) {
        try {
            Libc.setThreadAffinity(tid, cpus);
        } catch (LibcException | IllegalArgumentException e) {
            // ended meanwhile, or the allowed set changed: nothing left to give back
        }
    }
}
