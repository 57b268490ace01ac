package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.engine.LatencyLoop;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** With executed writes the engine's LatencyLoop and the C latency loop run the same self-echo ping-pong on the stub. */
class LatencyLoopOnStubTest {
    private static final int ROUNDS = 1000;

    @Test
    void executedWritesLandInTheTargetBuffer() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(4)) {
            MemorySegment from = arena.allocate(64, 64);
            MemorySegment to = arena.allocate(64, 64);
            from.set(ValueLayout.JAVA_BYTE, 9, (byte) 42);
            WorkRequestList write = new WorkRequestList(arena, 1, from.address(), 10, 1, to.address(), 2, false);
            assertEquals(0, write.post(InlineVerbs.postSendFn(stub.qp()), stub.qp()));
            assertEquals(0, to.get(ValueLayout.JAVA_BYTE, 9), "writes are not executed by default");
            stub.executeWrites(true);
            assertEquals(0, write.post(InlineVerbs.postSendFn(stub.qp()), stub.qp()));
            assertEquals(42, to.get(ValueLayout.JAVA_BYTE, 9));
        }
    }

    @Test
    void engineAndCLoopDoOneWriteAndOneCompletionPerRound() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(16)) {
            stub.executeWrites(true);
            MemorySegment send = arena.allocate(64, 64);
            MemorySegment receive = arena.allocate(64, 64);
            LatencyLoop loop = writePingPong(arena, stub, send, receive, ROUNDS);
            for (int run = 0; run < 2; run++) {
                stub.reset();
                assertTrue(loop.runIterations(ROUNDS, 2, true), "the self-echo ping-pong completes");
                assertEquals(ROUNDS, loop.rounds());
                assertEquals(ROUNDS, stub.counter(Counter.POSTED_WRS));
                assertEquals(ROUNDS, stub.counter(Counter.POLLED));
                assertEquals((byte) ROUNDS, receive.get(ValueLayout.JAVA_BYTE, 1), "the last counter arrived");
            }
            stub.reset();
            assertTrue(stub.cLatencyLoop(ROUNDS, 2) > 0);
            assertEquals(ROUNDS, stub.counter(Counter.POSTED_WRS));
            assertEquals(ROUNDS, stub.counter(Counter.POLLED));
            assertEquals(0, stub.cqPending());
        }
    }

    /**
     * The warm-up aid: on a QP connected to itself the write ping-pong's exercise waits in vain for a while (not
     * until the stall limit, 5 s here), posts nothing, leaves no stall or error behind, and the loop runs on.
     */
    @Test
    void theWritePingPongsWaitExercisePostsNothingEndsSoonAndTheLoopRunsOn() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(16)) {
            stub.executeWrites(true);
            MemorySegment send = arena.allocate(64, 64);
            MemorySegment receive = arena.allocate(64, 64);
            LatencyLoop loop = writePingPong(arena, stub, send, receive, 256);
            for (int run = 0; run < 3; run++) {
                assertTrue(loop.runIterations(256, 2, true));
                stub.reset();
                receive.set(ValueLayout.JAVA_BYTE, 1, (byte) 1); // a stale counter the wait must not take
                long start = System.nanoTime();
                assertTrue(loop.exerciseWaits(2), "nothing came, nothing failed");
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1), "ended by the clock, not the stall");
                assertEquals(0, stub.counter(Counter.POSTED_WRS), "a wait in vain posts nothing");
                assertEquals(0, loop.rounds());
                assertFalse(loop.stalled());
                assertFalse(loop.errors().any());
            }
        }
    }

    @Test
    void aRequesterOnlyLoopPostsAndPollsOncePerRoundAndLeavesTheBuffersAlone() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(16)) {
            MemorySegment local = arena.allocate(64, 64);
            MemorySegment remote = arena.allocate(64, 64);
            WorkRequestList read = new WorkRequestList(arena, WorkRequestList.Opcode.RDMA_READ, 1, local.address(), 2, 1,
                    remote.address(), 2, false);
            assertEquals(4, read.head().get(ValueLayout.JAVA_INT, io.jperf.ffi.generated.ibv_send_wr.opcode$offset()),
                    "IBV_WR_RDMA_READ");
            LatencyLoop loop = new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), stub.qp(), read, false,
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 16), local, remote, ROUNDS,
                    TimeUnit.SECONDS.toNanos(5));
            assertTrue(loop.runIterations(ROUNDS, 2, false), "no peer is needed");
            assertEquals(ROUNDS, loop.rounds());
            assertEquals(ROUNDS, stub.counter(Counter.POSTED_WRS));
            assertEquals(ROUNDS, stub.counter(Counter.POLLED));
            long[] t = loop.timestamps();
            for (int i = 1; i < ROUNDS; i++) {
                assertTrue(t[i] >= t[i - 1], "one stamp per request, in order");
            }
            assertEquals(0, local.get(ValueLayout.JAVA_BYTE, 1), "no counter byte is written");
        }
    }

    @Test
    void anInlineReadIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new WorkRequestList(arena,
                    WorkRequestList.Opcode.RDMA_READ, 1, 0x1000, 2, 1, 0x2000, 2, true));
        }
    }

    /** The write ping-pong of 2-byte messages from {@code send} into {@code receive} on the stub's QP. */
    private static LatencyLoop writePingPong(Arena arena, StubProvider stub, MemorySegment send, MemorySegment receive,
                                             int capacity) {
        WorkRequestList write = new WorkRequestList(arena, 1, send.address(), 2, 1, receive.address(), 2, false);
        return new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), stub.qp(), write, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), send, receive, capacity, TimeUnit.SECONDS.toNanos(5));
    }
}
