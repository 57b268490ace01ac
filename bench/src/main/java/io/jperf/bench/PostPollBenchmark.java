package io.jperf.bench;

import java.lang.foreign.Arena;
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
 * The data path's cost per work request, Java against C, on the C stub provider (an
 * always-ready fake device, so the provider costs the same few nanoseconds on both sides):
 * <ul>
 *   <li>{@link #javaLoop}: perftest's write_bw post/poll loop through jperf's
 *       {@code WorkRequestList} + {@code CompletionBatch} + {@code InlineVerbs}
 *       ({@link PostPollLoop});</li>
 *   <li>{@link #cBaseline}: the same loop in C ({@code jperf_stub_c_loop}), called once per
 *       invocation, through the same provider function pointers.</li>
 * </ul>
 * Scores are ns per WR ({@link OperationsPerInvocation}); {@code -prof gc} gives
 * {@code gc.alloc.rate.norm} in bytes per WR, which must stay ~0 for {@code javaLoop}.
 *
 * <p>{@link #javaVsC} runs both loops in every invocation, alternating which goes first, and
 * times each (the {@link InterleavedCounters}): the two see the same machine load at the same
 * moment, so their ratio stays meaningful on a shared, noisy machine where {@code javaLoop} and
 * {@code cBaseline}, measured tens of seconds apart, can be hit by different load. The CI gate
 * (bench/ci-gate.sh) checks that ratio; the separate benchmarks give the clean per-loop numbers.
 *
 * <p>Parameters follow perftest: {@code postList} is {@code -l}, {@code cqMod} is {@code -Q}.
 * With {@code postList = 32} the moderation is the post list (perftest's default for {@code -l}
 * without {@code -Q}), so cqMod 1 and 100 run the same workload there: the two results are a
 * free measure of the run-to-run noise.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PostPollBenchmark {
    /** WRs per benchmark invocation: a multiple of every post list and moderation used (32, 100). */
    public static final int WRS_PER_INVOCATION = 6400;
    /** perftest's default TX depth for bandwidth tests. */
    public static final int TX_DEPTH = 128;
    /** perftest's default message size for bandwidth tests. */
    public static final int SIZE = 65536;

    @Param({"1", "32"})
    public int postList;

    @Param({"1", "100"})
    public int cqMod;

    private Arena arena;
    private StubProvider stub;
    private PostPollLoop loop;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofConfined();
        stub = StubProvider.create(TX_DEPTH);
        loop = PostPollLoop.onStub(arena, stub, SIZE, postList, cqMod, TX_DEPTH);
    }

    /** The benchmark measured real work: every WR posted was completed, nothing is left over. */
    @TearDown(Level.Trial)
    public void verifyAndClose() {
        try {
            long posted = stub.counter(StubProvider.Counter.POSTED_WRS);
            long polled = stub.counter(StubProvider.Counter.POLLED);
            int moderation = PostPollLoop.moderation(postList, cqMod);
            if (posted == 0 || posted % WRS_PER_INVOCATION != 0 || polled * moderation != posted
                    || stub.cqPending() != 0 || stub.counter(StubProvider.Counter.REJECTED_WRS) != 0) {
                throw new IllegalStateException("the stub did not see the expected work: posted=" + posted
                        + " polled=" + polled + " moderation=" + moderation + " pending=" + stub.cqPending());
            }
        } finally {
            stub.close();
            arena.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(WRS_PER_INVOCATION)
    public long javaLoop() {
        return loop.run(WRS_PER_INVOCATION);
    }

    @Benchmark
    @OperationsPerInvocation(WRS_PER_INVOCATION)
    public long cBaseline() {
        return stub.cLoop(WRS_PER_INVOCATION, postList, cqMod, TX_DEPTH, SIZE);
    }

    /**
     * The Java loop and the C loop back to back, {@value #WRS_PER_INVOCATION} WRs each, the order
     * alternating between invocations. The primary score is the time of one Java WR plus one C
     * WR; the gated number is {@code javaNs / cNs}.
     */
    @Benchmark
    @OperationsPerInvocation(WRS_PER_INVOCATION)
    public long javaVsC(InterleavedCounters n) {
        long done;
        long t0 = System.nanoTime();
        if (n.javaFirst()) {
            done = loop.run(WRS_PER_INVOCATION);
            long t1 = System.nanoTime();
            stub.cLoop(WRS_PER_INVOCATION, postList, cqMod, TX_DEPTH, SIZE);
            long t2 = System.nanoTime();
            n.record(t1 - t0, t2 - t1, WRS_PER_INVOCATION);
        } else {
            stub.cLoop(WRS_PER_INVOCATION, postList, cqMod, TX_DEPTH, SIZE);
            long t1 = System.nanoTime();
            done = loop.run(WRS_PER_INVOCATION);
            long t2 = System.nanoTime();
            n.record(t2 - t1, t1 - t0, WRS_PER_INVOCATION);
        }
        return done;
    }
}
