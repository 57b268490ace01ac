package io.jperf.bench;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.engine.BandwidthLoop;
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
 * jperf's write-bandwidth engine loop ({@link BandwidthLoop}, perftest's run_iter_bw, one QP)
 * against the C stub provider, and against the C baseline ({@code jperf_stub_c_loop}) with the
 * same parameters: what the engine costs per WR over the bare loop in C.
 * <ul>
 *   <li>{@link #engineLoop}: {@code BandwidthLoop.runIterations}, ns per WR;</li>
 *   <li>{@link #engineVsC}: the engine loop and the C loop back to back in each invocation
 *       (see {@link InterleavedCounters}); gated by bench/ci-gate.sh like
 *       {@code PostPollBenchmark.javaVsC}.</li>
 * </ul>
 * The CQ moderation passed to the engine is perftest's effective one
 * ({@link PostPollLoop#moderation}: the post list when it is > 1), which is what jperf's
 * options give the engine, so both loops signal the same WRs. Timestamps (perftest's peak
 * bandwidth) are off, as without {@code --report_gbits}/peak reporting.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class BandwidthLoopBenchmark {
    static final int WRS = PostPollBenchmark.WRS_PER_INVOCATION;
    static final int TX_DEPTH = PostPollBenchmark.TX_DEPTH;
    static final int SIZE = PostPollBenchmark.SIZE;

    @Param({"1", "32"})
    public int postList;

    @Param({"1", "100"})
    public int cqMod;

    private Arena arena;
    private StubProvider stub;
    private BandwidthLoop loop;
    private int moderation;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofConfined();
        stub = StubProvider.create(TX_DEPTH);
        moderation = PostPollLoop.moderation(postList, cqMod);
        MemorySegment local = arena.allocate(64, 64);
        MemorySegment remote = arena.allocate(64, 64);
        WorkRequestList list = new WorkRequestList(arena, postList, local.address(), SIZE, 0x1234, remote.address(),
                0x5678, false);
        loop = new BandwidthLoop(new MemorySegment[] {InlineVerbs.postSendFn(stub.qp())},
                new MemorySegment[] {stub.qp()}, new WorkRequestList[] {list}, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), 0, TimeUnit.SECONDS.toNanos(10));
    }

    /** The benchmark measured real work: every WR posted was completed, nothing is left over. */
    @TearDown(Level.Trial)
    public void verifyAndClose() {
        try {
            long posted = stub.counter(StubProvider.Counter.POSTED_WRS);
            long polled = stub.counter(StubProvider.Counter.POLLED);
            if (posted == 0 || posted % WRS != 0 || polled * moderation != posted || stub.cqPending() != 0
                    || stub.counter(StubProvider.Counter.REJECTED_WRS) != 0) {
                throw new IllegalStateException("the stub did not see the expected work: posted=" + posted
                        + " polled=" + polled + " moderation=" + moderation + " pending=" + stub.cqPending());
            }
        } finally {
            stub.close();
            arena.close();
        }
    }

    private long runEngine() {
        if (!loop.runIterations(WRS, TX_DEPTH, moderation, false)) {
            throw new IllegalStateException("BandwidthLoop failed on the stub: errors=" + loop.errors().any()
                    + " stalled=" + loop.stalled());
        }
        return loop.totalCompleted();
    }

    @Benchmark
    @OperationsPerInvocation(WRS)
    public long engineLoop() {
        return runEngine();
    }

    /** The engine loop and the C loop back to back, the order alternating; gated on javaNs / cNs. */
    @Benchmark
    @OperationsPerInvocation(WRS)
    public long engineVsC(InterleavedCounters n) {
        long done;
        long t0 = System.nanoTime();
        if (n.javaFirst()) {
            done = runEngine();
            long t1 = System.nanoTime();
            stub.cLoop(WRS, postList, cqMod, TX_DEPTH, SIZE);
            long t2 = System.nanoTime();
            n.record(t1 - t0, t2 - t1, WRS);
        } else {
            stub.cLoop(WRS, postList, cqMod, TX_DEPTH, SIZE);
            long t1 = System.nanoTime();
            done = runEngine();
            long t2 = System.nanoTime();
            n.record(t2 - t1, t1 - t0, WRS);
        }
        return done;
    }

    /**
     * {@link #engineVsC} against {@code jperf_stub_c_perftest_loop}: the C loop with the per-request and
     * per-completion bookkeeping of perftest's run_iter_bw, which the engine does too and the
     * {@code jperf_stub_c_loop} twin leaves out (see stub_c_loop.c). Not gated; for the README's comparison.
     */
    @Benchmark
    @OperationsPerInvocation(WRS)
    public long engineVsPerftestC(InterleavedCounters n) {
        long done;
        long t0 = System.nanoTime();
        if (n.javaFirst()) {
            done = runEngine();
            long t1 = System.nanoTime();
            stub.cPerftestLoop(WRS, postList, cqMod, TX_DEPTH, SIZE);
            long t2 = System.nanoTime();
            n.record(t1 - t0, t2 - t1, WRS);
        } else {
            stub.cPerftestLoop(WRS, postList, cqMod, TX_DEPTH, SIZE);
            long t1 = System.nanoTime();
            done = runEngine();
            long t2 = System.nanoTime();
            n.record(t2 - t1, t1 - t0, WRS);
        }
        return done;
    }
}
