package io.jperf.bench;

import io.jperf.datapath.WorkRequestList;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The pieces a data-path iteration is made of, one benchmark each, in ns per operation: patching
 * a prebuilt work request, taking a timestamp, recording a latency sample, and the bare cost of
 * a downcall with and without {@code Linker.Option.critical(false)}. Run with {@code -prof gc}:
 * every one of them must allocate nothing ({@code gc.alloc.rate.norm} ~ 0 B/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@SuppressWarnings("restricted")
public class DataPathPiecesBenchmark {
    private static final int LIST = 32;
    private static final int MASK = 1023;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final FunctionDescriptor LONG_TO_LONG =
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    /** {@code int64_t jperf_stub_noop(int64_t)}, a normal downcall (thread-state transition). */
    private static final MethodHandle NOOP = LINKER.downcallHandle(
            StubProvider.symbol("jperf_stub_noop"), LONG_TO_LONG);
    /**
     * The same function, critical(false): no thread-state transition, as InlineVerbs links; bound to its
     * address in a static final, as the hot loops call providers (InlineVerbs.bindPostSend and co.).
     */
    private static final MethodHandle NOOP_CRITICAL = LINKER.downcallHandle(
            StubProvider.symbol("jperf_stub_noop"), LONG_TO_LONG, Linker.Option.critical(false));
    /** The same function called as InlineVerbs.postSend and co. do: no fixed address, the pointer is the first argument. */
    private static final MethodHandle NOOP_CRITICAL_BY_POINTER = LINKER.downcallHandle(
            LONG_TO_LONG, Linker.Option.critical(false));

    /** {@code int64_t jperf_stub_c_call_loop(int64_t (*fn)(int64_t), int64_t n, int64_t x)}: n calls from C. */
    private static final MethodHandle C_CALL_LOOP = LINKER.downcallHandle(
            StubProvider.symbol("jperf_stub_c_call_loop"), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.critical(false));
    /** Calls per invocation of {@link #callsFromC} and {@link #callsFromJava}. */
    private static final int CALLS = 1000;

    private Arena arena;
    private WorkRequestList wrs;
    private long counter;
    private final long[] timestamps = new long[MASK + 1];
    private final long[] samples = new long[MASK + 1];
    private Histogram histogram;
    private MemorySegment noopAddress;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofConfined();
        MemorySegment buffer = arena.allocate(64, 64);
        wrs = new WorkRequestList(arena, LIST, buffer.address(), 65536, 1, buffer.address(), 2, false);
        // A latency engine's histogram: 1 ns .. 1 hour at 3 significant digits; samples 1..100 us.
        histogram = new Histogram(TimeUnit.HOURS.toNanos(1), 3);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < samples.length; i++) {
            samples[i] = 1_000 + random.nextLong(99_000);
        }
        noopAddress = StubProvider.symbol("jperf_stub_noop");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** Flip the signaled flag of one WR of a 32-WR list (read-modify-write of send_flags). */
    @Benchmark
    public WorkRequestList patchSignaled() {
        long i = counter++;
        wrs.setSignaled((int) (i & (LIST - 1)), (i & 1) == 0);
        return wrs;
    }

    /** Set the wr_id of one WR. */
    @Benchmark
    public WorkRequestList patchWrId() {
        long i = counter++;
        wrs.setWrId((int) (i & (LIST - 1)), i);
        return wrs;
    }

    /** Set the remote address of one WR. */
    @Benchmark
    public WorkRequestList patchRemoteAddress() {
        long i = counter++;
        wrs.setRemoteAddress((int) (i & (LIST - 1)), 0x10000L + (i << 6));
        return wrs;
    }

    /** All three patches on one WR, as a loop iteration that posts one WR would do. */
    @Benchmark
    public WorkRequestList patchAll() {
        long i = counter++;
        int wr = (int) (i & (LIST - 1));
        wrs.setSignaled(wr, (i & 1) == 0);
        wrs.setWrId(wr, i);
        wrs.setRemoteAddress(wr, 0x10000L + (i << 6));
        return wrs;
    }

    /** System.nanoTime into a preallocated array, as a latency loop stamps each iteration. */
    @Benchmark
    public long[] timestamp() {
        timestamps[(int) (counter++ & MASK)] = System.nanoTime();
        return timestamps;
    }

    /** Histogram.recordValue of a preallocated sample. */
    @Benchmark
    public Histogram histogramRecord() {
        histogram.recordValue(samples[(int) (counter++ & MASK)]);
        return histogram;
    }

    /** A trivial C function through a normal downcall. */
    @Benchmark
    public long downcall() throws Throwable {
        return (long) NOOP.invokeExact(counter++);
    }

    /** The same C function through a critical(false) downcall. */
    @Benchmark
    public long downcallCritical() throws Throwable {
        return (long) NOOP_CRITICAL.invokeExact(counter++);
    }

    /**
     * {@value #CALLS} calls of the trivial C function from a C loop, through a function pointer:
     * what one call costs C (ns per call). The floor of {@link #callsFromJava}.
     */
    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long callsFromC() throws Throwable {
        return (long) C_CALL_LOOP.invokeExact(noopAddress, (long) CALLS, counter++);
    }

    /**
     * The same {@value #CALLS} calls from a Java loop, each a critical downcall with the function
     * pointer as first argument, as InlineVerbs.postSend and co. call providers; minus {@link #callsFromC}, what
     * a downcall adds to a call on the data path.
     */
    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long callsFromJava() throws Throwable {
        long x = counter++;
        for (int i = 0; i < CALLS; i++) {
            x = (long) NOOP_CRITICAL_BY_POINTER.invokeExact(noopAddress, x);
        }
        return x;
    }

    /** critical(false) with the function pointer as the first argument, as InlineVerbs.postSend and co. call providers. */
    @Benchmark
    public long downcallCriticalByPointer() throws Throwable {
        return (long) NOOP_CRITICAL_BY_POINTER.invokeExact(noopAddress, counter++);
    }
}
