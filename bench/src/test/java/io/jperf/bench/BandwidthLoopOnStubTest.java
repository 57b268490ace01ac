package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.engine.BandwidthLoop;
import io.jperf.engine.StopSignal;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
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

                stub.reset();
                stub.cPerftestLoop(wrs, postList, cqMod, BandwidthLoopBenchmark.TX_DEPTH, 64);
                assertEquals(wrs, stub.counter(Counter.POSTED_WRS), "perftest's C loop posts every WR");
                assertEquals(engineSignaled, stub.counter(Counter.SIGNALED_WRS), "perftest's C loop signals the same WRs");
                assertEquals(engineSignaled, stub.counter(Counter.POLLED), "and polls every completion");
                assertEquals(wrs / postList, stub.counter(Counter.POST_SEND_CALLS), "one post_send per chain");
                assertEquals(0, stub.cqPending());
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
        // 7 does not divide 4800: the last write of the run is signalled too, covering the last 5
        int[] moderations = {postList, 3 * postList, postList, 2 * postList == 2 ? 5 : 2 * postList, postList, 7,
            postList};
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

    /**
     * A timed run (perftest's {@code -D}) ends with an empty send queue whatever the moderation: every
     * write posted is completed and accounted for.
     */
    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,100", "4,4", "4,10"})
    void aTimedRunCompletesEveryWriteItPosted(int postList, int cqMod) {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, postList);
            for (int run = 0; run < 2; run++) {
                stub.reset();
                long ms = TimeUnit.MILLISECONDS.toNanos(1);
                assertTrue(loop.runDuration(2 * ms, 20 * ms, 2 * ms, BandwidthLoopBenchmark.TX_DEPTH, cqMod));
                assertTrue(loop.totalPosted() > 0, "posted " + loop.totalPosted());
                assertEquals(loop.totalPosted(), loop.totalCompleted());
                assertEquals(loop.totalPosted(), stub.counter(Counter.POSTED_WRS));
                assertEquals(stub.counter(Counter.SIGNALED_WRS), stub.counter(Counter.POLLED));
                assertEquals(0, stub.cqPending());
                // (whether the sample window saw completions depends on the clock checks: not asserted)
                assertTrue(loop.sampleCompleted() <= loop.totalCompleted(), "sampled " + loop.sampleCompleted());
            }
        }
    }

    /**
     * {@code --run_infinitely}: intervals follow each other without draining (the writes of one interval
     * complete in the next), each interval's completions are its own, and the end drains every queue.
     */
    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,100", "4,4", "4,10"})
    void infiniteIntervalsCarryTheQueueOverAndTheEndDrainsIt(int postList, int cqMod) {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, postList);
            StopSignal stop = new StopSignal();
            long ms = TimeUnit.MILLISECONDS.toNanos(1);
            loop.startInfinite(BandwidthLoopBenchmark.TX_DEPTH, cqMod);
            long sum = 0;
            for (int i = 0; i < 5; i++) {
                assertTrue(loop.runInterval(5 * ms, stop));
                assertTrue(loop.sampleNanos() >= 5 * ms, "interval " + i + ": " + loop.sampleNanos() + " ns");
                assertTrue(loop.sampleCompleted() > 0, "interval " + i + " completed nothing");
                sum += loop.sampleCompleted();
                assertEquals(sum, loop.totalCompleted(), "each interval counts its own completions");
                assertTrue(loop.totalPosted() > loop.totalCompleted(), "interval " + i + " ends with writes in"
                        + " flight (nothing drained): posted " + loop.totalPosted() + ", completed " + sum);
            }
            assertTrue(loop.endInfinite());
            assertEquals(loop.totalPosted(), loop.totalCompleted());
            assertEquals(loop.totalPosted(), stub.counter(Counter.POSTED_WRS));
            assertEquals(0, stub.cqPending());
        }
    }

    /** A stop requested from another thread (the signal handler's) ends the interval at once, not at its end. */
    @Test
    void aStopFromAnotherThreadEndsTheIntervalPromptly() throws Exception {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, 1);
            StopSignal stop = new StopSignal();
            loop.startInfinite(BandwidthLoopBenchmark.TX_DEPTH, 100);
            Thread signaller = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stop.request("SIGINT");
            });
            long start = System.nanoTime();
            assertTrue(loop.runInterval(TimeUnit.SECONDS.toNanos(30), stop));
            long took = System.nanoTime() - start;
            signaller.join();
            assertTrue(took < TimeUnit.SECONDS.toNanos(5), "stopped after " + took / 1_000_000 + " ms, not at once");
            assertEquals("SIGINT", stop.reason());
            assertTrue(loop.endInfinite());
            assertEquals(loop.totalPosted(), loop.totalCompleted());
            assertEquals(0, stub.cqPending());
        }
    }

    /** The data path of an infinite run allocates nothing, however many intervals it runs. */
    @Test
    void infiniteIntervalsAllocateNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, 1);
            StopSignal stop = new StopSignal();
            long ms = TimeUnit.MILLISECONDS.toNanos(1);
            loop.startInfinite(BandwidthLoopBenchmark.TX_DEPTH, 100);
            for (int i = 0; i < 20; i++) {
                assertTrue(loop.runInterval(10 * ms, stop)); // warm: the JIT compiles the loop
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            long completed = 0;
            for (int i = 0; i < 20; i++) {
                assertTrue(loop.runInterval(10 * ms, stop));
                completed += loop.sampleCompleted();
            }
            long bytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(completed > 1000, "completed " + completed);
            assertTrue(bytes < 1024, "20 intervals (" + completed + " writes) allocated " + bytes + " bytes");
            assertTrue(loop.endInfinite());
        }
    }

    /** With timestamps (the peak), each post and each completion gets its time, in order. */
    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,100", "4,4", "4,10"})
    void timestampsAreTakenForEveryPostAndCompletion(int postList, int cqMod) {
        int wrs = 1200;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            BandwidthLoop loop = loopOnStub(arena, stub, postList, wrs);
            assertTrue(loop.runIterations(wrs, BandwidthLoopBenchmark.TX_DEPTH, cqMod, true));
            assertEquals(wrs, loop.totalCompleted());
            assertEquals((wrs + cqMod - 1) / cqMod, stub.counter(Counter.SIGNALED_WRS));
            long[] posts = loop.postTimestamps();
            long[] completions = loop.completionTimestamps();
            for (int i = 0; i < wrs; i += postList) {
                assertTrue(posts[i] > 0 && (i == 0 || posts[i] >= posts[i - postList]), "post stamp " + i);
            }
            assertTrue(completions[wrs - 1] >= posts[wrs - postList], "the last completion after the last post");
        }
    }

    /**
     * Two QPs (the stub's one QP posted to through two work-request lists, half the TX depth each):
     * their completions interleave in the one CQ, and each QP must be credited exactly its own, or
     * one of them runs out of room and the loop stalls.
     */
    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,50", "4,4", "4,10"}) // cqMod at most the TX depth of 64, or no QP ever completes
    void twoQpsSharingTheCqAreEachCreditedTheirOwnCompletions(int postList, int cqMod) {
        long wrs = 4800;
        int txDepth = BandwidthLoopBenchmark.TX_DEPTH / 2;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(BandwidthLoopBenchmark.TX_DEPTH)) {
            MemorySegment buffer = arena.allocate(128, 64);
            WorkRequestList[] lists = new WorkRequestList[2];
            for (int q = 0; q < 2; q++) {
                lists[q] = new WorkRequestList(arena, postList, buffer.address(), 64, 1, buffer.address() + 64, 2, false);
            }
            MemorySegment postFn = InlineVerbs.postSendFn(stub.qp());
            BandwidthLoop loop = new BandwidthLoop(new MemorySegment[] {postFn, postFn},
                    new MemorySegment[] {stub.qp(), stub.qp()}, lists, InlineVerbs.pollCqFn(stub.cq()), stub.cq(),
                    new CompletionBatch(arena, 16), 0, TimeUnit.SECONDS.toNanos(2));
            for (int run = 0; run < 2; run++) {
                stub.reset();
                assertTrue(loop.runIterations(wrs, txDepth, cqMod, false), "stalled: " + loop.stalled());
                assertEquals(2 * wrs, loop.totalCompleted());
                assertEquals(2 * wrs, stub.counter(Counter.POSTED_WRS));
                assertEquals(2 * ((wrs + cqMod - 1) / cqMod), stub.counter(Counter.SIGNALED_WRS));
                assertEquals(0, stub.cqPending());
            }
        }
    }

    /** The engine's loop on one stub QP: post lists of {@code postList} 64-byte writes. */
    private static BandwidthLoop loopOnStub(Arena arena, StubProvider stub, int postList) {
        return loopOnStub(arena, stub, postList, 0);
    }

    private static BandwidthLoop loopOnStub(Arena arena, StubProvider stub, int postList, int maxTimestamps) {
        MemorySegment buffer = arena.allocate(128, 64);
        WorkRequestList list = new WorkRequestList(arena, postList, buffer.address(), 64, 1,
                buffer.address() + 64, 2, false);
        return new BandwidthLoop(new MemorySegment[] {InlineVerbs.postSendFn(stub.qp())},
                new MemorySegment[] {stub.qp()}, new WorkRequestList[] {list}, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), maxTimestamps, TimeUnit.SECONDS.toNanos(10));
    }
}
