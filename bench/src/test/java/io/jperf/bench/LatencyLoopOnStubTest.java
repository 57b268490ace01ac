package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WriteRequestList;
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
            WriteRequestList write = new WriteRequestList(arena, 1, from.address(), 10, 1, to.address(), 2, false);
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
            WriteRequestList write = new WriteRequestList(arena, 1, send.address(), 2, 1, receive.address(), 2, false);
            LatencyLoop loop = new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), stub.qp(), write,
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 16), send, receive, ROUNDS,
                    TimeUnit.SECONDS.toNanos(5));
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
}
