package io.jperf.bench;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.engine.LatencyLoop;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * jperf's write-latency step ({@link LatencyLoop}, perftest's run_iter_lat_write) against the C
 * stub provider with executed writes: the loop runs as the server and its RDMA WRITE lands in
 * its own receive buffer, so every "peer reply" is already there and a round costs only
 * jperf's own work: wait check, timestamp, counter store, post_send, poll the completion.
 * Compared with the same round in C ({@code jperf_stub_c_lat_loop}).
 * <ul>
 *   <li>{@link #engineStep}: ns per round of {@code LatencyLoop.runIterations};</li>
 *   <li>{@link #engineVsC}: the engine loop and the C loop back to back (see
 *       {@link InterleavedCounters}); gated by bench/ci-gate.sh.</li>
 * </ul>
 * {@code size} 2 is perftest's default for latency tests.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LatencyLoopBenchmark {
    /** Rounds per invocation. */
    static final int ROUNDS = 4096;

    @Param({"2"})
    public int size;

    private Arena arena;
    private StubProvider stub;
    private LatencyLoop loop;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofConfined();
        stub = StubProvider.create(16);
        stub.executeWrites(true);
        MemorySegment send = arena.allocate(Math.max(size, 64), 64);
        MemorySegment receive = arena.allocate(Math.max(size, 64), 64);
        WorkRequestList write = new WorkRequestList(arena, 1, send.address(), size, 0x1234, receive.address(), 0x5678,
                false);
        loop = new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), stub.qp(), write, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), send, receive, ROUNDS, TimeUnit.SECONDS.toNanos(10));
    }

    /** The benchmark measured real work: one signaled write and one completion per round. */
    @TearDown(Level.Trial)
    public void verifyAndClose() {
        try {
            long posted = stub.counter(StubProvider.Counter.POSTED_WRS);
            if (posted == 0 || posted % ROUNDS != 0 || stub.counter(StubProvider.Counter.POLLED) != posted
                    || stub.cqPending() != 0) {
                throw new IllegalStateException("the stub did not see the expected work: posted=" + posted
                        + " polled=" + stub.counter(StubProvider.Counter.POLLED) + " pending=" + stub.cqPending());
            }
        } finally {
            stub.close();
            arena.close();
        }
    }

    private long runEngine() {
        if (!loop.runIterations(ROUNDS, size, true)) {
            throw new IllegalStateException("LatencyLoop failed on the stub: errors=" + loop.errors().any()
                    + " stalled=" + loop.stalled());
        }
        return loop.rounds();
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public long engineStep() {
        return runEngine();
    }

    /** The engine loop and the C loop back to back, the order alternating; gated on javaNs / cNs. */
    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public long engineVsC(InterleavedCounters n) {
        long done;
        long t0 = System.nanoTime();
        if (n.javaFirst()) {
            done = runEngine();
            long t1 = System.nanoTime();
            stub.cLatencyLoop(ROUNDS, size);
            long t2 = System.nanoTime();
            n.record(t1 - t0, t2 - t1, ROUNDS);
        } else {
            stub.cLatencyLoop(ROUNDS, size);
            long t1 = System.nanoTime();
            done = runEngine();
            long t2 = System.nanoTime();
            n.record(t2 - t1, t1 - t0, ROUNDS);
        }
        return done;
    }
}
