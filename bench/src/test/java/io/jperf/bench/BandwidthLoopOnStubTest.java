package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WriteRequestList;
import io.jperf.engine.BandwidthLoop;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The engine's BandwidthLoop on the stub does the same, real work as the C loop: BandwidthLoopBenchmark compares like with like. */
class BandwidthLoopOnStubTest {
    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,100", "32,1", "32,100"})
    void engineCompletesEveryWorkRequestLikeTheCLoop(int postList, int cqMod) {
        int moderation = PostPollLoop.moderation(postList, cqMod);
        long wrs = BandwidthLoopBenchmark.WRS;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, postList);
            for (int run = 0; run < 2; run++) {
                stub.reset();
                assertTrue(loop.runIterations(wrs, BandwidthLoopBenchmark.TX_DEPTH, moderation, false));
                assertEquals(wrs, loop.totalCompleted());
                long engineSignaled = stub.counter(Counter.SIGNALED_WRS);
                assertEquals(wrs, stub.counter(Counter.POSTED_WRS));
                assertEquals(wrs / moderation, engineSignaled, "the engine signals what perftest signals");
                assertEquals(engineSignaled, stub.counter(Counter.POLLED));
                assertEquals(0, stub.cqPending());

                stub.reset();
                stub.cLoop(wrs, postList, cqMod, BandwidthLoopBenchmark.TX_DEPTH, 64);
                assertEquals(engineSignaled, stub.counter(Counter.SIGNALED_WRS), "C signals the same WRs");
            }
        }
    }

    /**
     * One loop, runs whose CQ moderation alternates between the post list (chains posted as they
     * are) and other values (signals patched per write): every run must signal exactly its own
     * pattern, whatever the previous run left in the chain.
     */
    @ParameterizedTest(name = "postList={0}")
    @CsvSource({"1", "4"})
    void switchingBetweenChainSignalsAndPatchedSignalsKeepsEveryCountExact(int postList) {
        long wrs = 4800;
        int[] moderations = {postList, 3 * postList, postList, 2 * postList == 2 ? 5 : 2 * postList, postList};
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, postList);
            for (int moderation : moderations) {
                stub.reset();
                assertTrue(loop.runIterations(wrs, BandwidthLoopBenchmark.TX_DEPTH, moderation, false),
                        "moderation " + moderation);
                assertEquals(wrs, loop.totalCompleted(), "moderation " + moderation);
                assertEquals(wrs, stub.counter(Counter.POSTED_WRS));
                assertEquals((wrs + moderation - 1) / moderation, stub.counter(Counter.SIGNALED_WRS),
                        "every moderation-th write and the last are signalled, moderation " + moderation);
                assertEquals(0, stub.cqPending());
            }
        }
    }

    /** The engine's loop on one stub QP: post lists of {@code postList} 64-byte writes. */
    private static BandwidthLoop loopOnStub(Arena arena, StubProvider stub, int postList) {
        MemorySegment buffer = arena.allocate(128, 64);
        WriteRequestList list = new WriteRequestList(arena, postList, buffer.address(), 64, 1,
                buffer.address() + 64, 2, false);
        return new BandwidthLoop(new MemorySegment[] {InlineVerbs.postSendFn(stub.qp())},
                new MemorySegment[] {stub.qp()}, new WriteRequestList[] {list}, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), 0, TimeUnit.SECONDS.toNanos(10));
    }
}
