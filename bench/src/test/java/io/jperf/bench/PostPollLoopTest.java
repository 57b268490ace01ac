package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;

import java.lang.foreign.Arena;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The Java loop and the C loop do the same, real work on the stub for every benchmark
 * parameter pair: so PostPollBenchmark's two numbers measure the same thing.
 */
class PostPollLoopTest {
    private static final int ITERATIONS = PostPollBenchmark.WRS_PER_INVOCATION;

    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,100", "32,1", "32,100", "4,1", "1,7"})
    void javaLoopCompletesEveryWorkRequest(int postList, int cqMod) {
        int moderation = PostPollLoop.moderation(postList, cqMod);
        long iterations = iterationsFor(postList, moderation);
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(PostPollBenchmark.TX_DEPTH)) {
            PostPollLoop loop = PostPollLoop.onStub(arena, stub, PostPollBenchmark.SIZE, postList, cqMod,
                    PostPollBenchmark.TX_DEPTH);
            assertEquals(iterations, loop.run(iterations));
            assertCounters(stub, iterations, postList, moderation);
            // The last completion polled is the last signaled WR, whose wr_id is its index.
            assertEquals(iterations - 1, lastWrId(loop));
            assertEquals(PostPollBenchmark.SIZE, loop.completions().byteLength(0));

            stub.reset();
            assertEquals(iterations, loop.run(iterations), "the loop is reusable (one per benchmark trial)");
            assertCounters(stub, iterations, postList, moderation);
        }
    }

    @ParameterizedTest(name = "postList={0} cqMod={1}")
    @CsvSource({"1,1", "1,100", "32,1", "32,100", "4,1", "1,7"})
    void cLoopDoesTheSameWork(int postList, int cqMod) {
        int moderation = PostPollLoop.moderation(postList, cqMod);
        long iterations = iterationsFor(postList, moderation);
        try (StubProvider stub = StubProvider.create(PostPollBenchmark.TX_DEPTH)) {
            long ns = stub.cLoop(iterations, postList, cqMod, PostPollBenchmark.TX_DEPTH, PostPollBenchmark.SIZE);
            assertTrue(ns > 0, "elapsed ns " + ns);
            assertCounters(stub, iterations, postList, moderation);
        }
    }

    @Test
    void badArgumentsAreRefusedOnBothSides() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(128)) {
            PostPollLoop loop = PostPollLoop.onStub(arena, stub, 64, 32, 1, 128);
            assertThrows(IllegalArgumentException.class, () -> loop.run(100));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> stub.cLoop(100, 32, 1, 128, 64));
            assertTrue(e.getMessage().contains("bad arguments"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> PostPollLoop.onStub(arena, stub, 64, 32, 1, 16));
        }
    }

    @Test
    void aCqSmallerThanTheOutstandingWorkFailsLoudly() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(8)) {
            PostPollLoop loop = PostPollLoop.onStub(arena, stub, 64, 1, 1, 128);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> loop.run(ITERATIONS));
            assertTrue(e.getMessage().contains("errno 12"), e.getMessage());
            stub.reset();
            IllegalStateException c = assertThrows(IllegalStateException.class,
                    () -> stub.cLoop(ITERATIONS, 1, 1, 128, 64));
            assertTrue(c.getMessage().contains("post_send failed"), c.getMessage());
        }
    }

    private static long iterationsFor(int postList, int moderation) {
        long lcm = (long) postList * moderation / gcd(postList, moderation);
        return ITERATIONS % lcm == 0 ? ITERATIONS : lcm * 100;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static long lastWrId(PostPollLoop loop) {
        // run() ends right after the poll that brought the last completion; it is the last entry of that batch.
        long last = -1;
        for (int i = 0; i < PostPollLoop.POLL_BATCH; i++) {
            last = Math.max(last, loop.completions().wrId(i));
        }
        return last;
    }

    private static void assertCounters(StubProvider stub, long iterations, int postList, int moderation) {
        assertEquals(iterations, stub.counter(Counter.POSTED_WRS), "posted WRs");
        assertEquals(iterations / postList, stub.counter(Counter.POST_SEND_CALLS), "post_send calls");
        assertEquals(iterations / moderation, stub.counter(Counter.SIGNALED_WRS), "signaled WRs");
        assertEquals(iterations / moderation, stub.counter(Counter.COMPLETIONS), "completions generated");
        assertEquals(iterations / moderation, stub.counter(Counter.POLLED), "completions polled");
        assertEquals(0, stub.counter(Counter.REJECTED_WRS));
        assertEquals(0, stub.cqPending(), "nothing left in the CQ");
    }
}
