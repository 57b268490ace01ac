package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.ReceiveRequestList;
import io.jperf.datapath.WorkRequestList;
import io.jperf.engine.LatencyLoop;
import io.jperf.engine.ReceiveLoop;
import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.generated.ibv_send_wr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The SEND data path on the C stub with delivery on (the QP is connected to itself: each SEND lands in the
 * oldest posted receive): the receive list, the receive loop of the ib_send_bw server and the send ping-pong.
 */
class SendReceiveOnStubTest {
    private static final long STALL = TimeUnit.SECONDS.toNanos(5);

    @Test
    void aSendLandsInThePostedReceiveAndItsCompletionNamesTheEntry() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(64)) {
            stub.deliverSends(true);
            MemorySegment from = arena.allocate(64, 64);
            MemorySegment to = arena.allocate(64, 64);
            from.set(ValueLayout.JAVA_BYTE, 7, (byte) 99);
            WorkRequestList send = new WorkRequestList(arena, WorkRequestList.Opcode.SEND, 1, from.address(), 8, 1,
                    0, 0, false);
            assertEquals(2, send.head().get(ValueLayout.JAVA_INT, ibv_send_wr.opcode$offset()), "IBV_WR_SEND");
            MemorySegment postSend = InlineVerbs.postSendFn(stub.qp());
            assertEquals(11, send.post(postSend, stub.qp()), "EAGAIN: no receive posted yet (the stub's RNR)");
            assertEquals(1, stub.counter(Counter.RNR));
            ReceiveRequestList receives = new ReceiveRequestList(arena, 3, 4, to.address(), 64, 1);
            assertEquals(0, receives.postAll(InlineVerbs.postRecvFn(stub.qp()), stub.qp().address()));
            assertEquals(4, stub.recvPending());
            assertEquals(0, send.post(postSend, stub.qp()));
            assertEquals(99, to.get(ValueLayout.JAVA_BYTE, 7), "the payload arrived");
            CompletionBatch wcs = new CompletionBatch(arena, 4);
            assertEquals(1, wcs.poll(InlineVerbs.pollCqFn(stub.cq()), stub.cq()));
            long wrId = wcs.wrId(0);
            assertTrue(ReceiveRequestList.isReceive(wrId));
            assertEquals(3, ReceiveRequestList.qpIndex(wrId));
            assertEquals(0, ReceiveRequestList.entry(wrId), "the oldest receive took it");
            assertEquals(8, wcs.byteLength(0));
            assertFalse(ReceiveRequestList.isReceive(((long) 3 << 32) | 100), "a send's wr_id is not a receive's");
        }
    }

    @Test
    void theReceiveLoopCountsRepostsAndKeepsTheQueueFull() {
        int depth = 64;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(4 * depth)) {
            stub.deliverSends(true);
            MemorySegment from = arena.allocate(4096, 64);
            MemorySegment to = arena.allocate(4096, 64);
            MemorySegment postSend = InlineVerbs.postSendFn(stub.qp());
            WorkRequestList send = new WorkRequestList(arena, WorkRequestList.Opcode.SEND, 1, from.address(), 1024, 1,
                    0, 0, false);
            ReceiveRequestList receives = new ReceiveRequestList(arena, 0, depth, to.address(), 4096, 1);
            ReceiveLoop loop = new ReceiveLoop(new MemorySegment[] {InlineVerbs.postRecvFn(stub.qp())},
                    new MemorySegment[] {stub.qp()}, new ReceiveRequestList[] {receives},
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 16), STALL);
            assertTrue(loop.fill());
            assertEquals(depth, stub.recvPending());
            for (int run = 1; run <= 3; run++) {
                from.set(ValueLayout.JAVA_BYTE, 1023, (byte) run);
                for (int i = 0; i < depth; i++) {
                    assertEquals(0, send.post(postSend, stub.qp()), "a receive was posted for every send");
                }
                assertEquals(0, stub.recvPending());
                assertTrue(loop.runIterations(depth), "run " + run);
                assertEquals(depth, loop.received());
                assertTrue(loop.lastReceiveNanos() >= loop.firstReceiveNanos());
                assertEquals(depth, stub.recvPending(), "every completed receive was posted again");
                assertEquals((byte) run, to.get(ValueLayout.JAVA_BYTE, 1023), "the last message landed");
            }
            assertEquals(4L * depth, stub.counter(Counter.POSTED_RECVS), "filled once, then one post per message");
            assertEquals(0, stub.counter(Counter.RNR));
        }
    }

    @Test
    void theReceiveLoopGivesUpWhenNothingArrives() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(64)) {
            stub.deliverSends(true);
            MemorySegment to = arena.allocate(64, 64);
            ReceiveLoop loop = new ReceiveLoop(new MemorySegment[] {InlineVerbs.postRecvFn(stub.qp())},
                    new MemorySegment[] {stub.qp()},
                    new ReceiveRequestList[] {new ReceiveRequestList(arena, 0, 8, to.address(), 64, 1)},
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 16),
                    TimeUnit.MILLISECONDS.toNanos(50));
            assertTrue(loop.fill());
            assertFalse(loop.runIterations(1));
            assertTrue(loop.stalled());
        }
    }

    @Test
    void theSendPingPongEchoesThroughItsOwnReceives() {
        int rounds = 1000;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(64)) {
            stub.deliverSends(true);
            MemorySegment sendBuffer = arena.allocate(64, 64);
            MemorySegment receiveBuffer = arena.allocate(64, 64);
            LatencyLoop loop = sendPingPong(arena, stub, sendBuffer, receiveBuffer, rounds);
            assertTrue(loop.fillReceives());
            for (int run = 0; run < 2; run++) {
                stub.reset();
                assertTrue(loop.runIterations(rounds, 2, true), "the self-echo send ping-pong completes");
                assertEquals(rounds, loop.rounds());
                assertEquals(rounds, stub.counter(Counter.DELIVERED_SENDS));
                assertEquals(rounds, stub.counter(Counter.POSTED_RECVS), "one re-post per message");
                assertEquals(2L * rounds, stub.counter(Counter.POLLED), "a send and a receive completion per round");
                assertEquals((byte) rounds, receiveBuffer.get(ValueLayout.JAVA_BYTE, 1), "the last counter arrived");
                long[] t = loop.timestamps();
                for (int i = 1; i < rounds; i++) {
                    assertTrue(t[i] >= t[i - 1]);
                }
            }
        }
    }

    /**
     * The warm-up aid on the send ping-pong: a wait in vain, then a round whose message was sent before it (two
     * messages, both received and consumed), and the ping-pong runs on after it with its counts in step.
     */
    @Test
    void theSendPingPongsWaitExerciseSendsTwoMessagesAndLeavesTheLoopInStep() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(64)) {
            stub.deliverSends(true);
            MemorySegment sendBuffer = arena.allocate(64, 64);
            MemorySegment receiveBuffer = arena.allocate(64, 64);
            LatencyLoop loop = sendPingPong(arena, stub, sendBuffer, receiveBuffer, 256);
            assertTrue(loop.fillReceives());
            for (int run = 0; run < 3; run++) {
                assertTrue(loop.runIterations(256, 2, true));
                stub.reset();
                assertTrue(loop.exerciseWaits(2), "the exercise completes");
                assertEquals(2, stub.counter(Counter.DELIVERED_SENDS), "the message sent ahead and the round's own");
                assertEquals(2, stub.counter(Counter.POSTED_RECVS), "both receives consumed and posted again");
                assertEquals(0, stub.cqPending(), "nothing left to poll");
                assertFalse(loop.stalled());
            }
            stub.reset();
            assertTrue(loop.runIterations(256, 2, true), "the ping-pong runs on");
            assertEquals(256, stub.counter(Counter.DELIVERED_SENDS));
            assertEquals(16, stub.recvPending(), "the receive queue is still full");
        }
    }

    /**
     * The data path allocates nothing: after warm-up runs, a run of 4000 rounds (send ping-pong) or
     * messages (receive loop) allocates less than 1 KiB on this thread (one object per round would be
     * 64 KiB and more).
     */
    @Test
    void theSendLoopsAllocateNothingPerMessage() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        int rounds = 4000;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(256)) {
            stub.deliverSends(true);
            MemorySegment sendBuffer = arena.allocate(64, 64);
            MemorySegment receiveBuffer = arena.allocate(64, 64);
            LatencyLoop pingPong = sendPingPong(arena, stub, sendBuffer, receiveBuffer, rounds);
            assertTrue(pingPong.fillReceives());
            for (int i = 0; i < 5; i++) {
                assertTrue(pingPong.runIterations(rounds, 2, true));
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            assertTrue(pingPong.runIterations(rounds, 2, true));
            long pingPongBytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(pingPongBytes < 1024, "send ping-pong allocated " + pingPongBytes + " bytes");
        }
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(4096)) {
            stub.deliverSends(true);
            MemorySegment from = arena.allocate(64, 64);
            MemorySegment to = arena.allocate(64, 64);
            MemorySegment postSend = InlineVerbs.postSendFn(stub.qp());
            WorkRequestList send = new WorkRequestList(arena, WorkRequestList.Opcode.SEND, 1, from.address(), 8, 1,
                    0, 0, false);
            int depth = 1000;
            ReceiveLoop loop = new ReceiveLoop(new MemorySegment[] {InlineVerbs.postRecvFn(stub.qp())},
                    new MemorySegment[] {stub.qp()},
                    new ReceiveRequestList[] {new ReceiveRequestList(arena, 0, depth, to.address(), 64, 1)},
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 16), STALL);
            assertTrue(loop.fill());
            long measured = -1;
            for (int run = 0; run < 6; run++) {
                for (int i = 0; i < depth; i++) {
                    assertEquals(0, send.post(postSend, stub.qp()));
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                assertTrue(loop.runIterations(depth));
                measured = threads.getCurrentThreadAllocatedBytes() - before;
            }
            assertTrue(measured < 1024, "receive loop allocated " + measured + " bytes");
        }
    }

    /** The send ping-pong of 2-byte messages on the stub's QP, connected to itself, with a receive list of 16. */
    private static LatencyLoop sendPingPong(Arena arena, StubProvider stub, MemorySegment sendBuffer,
                                            MemorySegment receiveBuffer, int capacity) {
        WorkRequestList send = new WorkRequestList(arena, WorkRequestList.Opcode.SEND, 1, sendBuffer.address(), 2, 1,
                0, 0, false);
        return new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), InlineVerbs.postRecvFn(stub.qp()),
                new ReceiveRequestList(arena, 0, 16, receiveBuffer.address(), 64, 1), stub.qp(), send,
                InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 4), sendBuffer, receiveBuffer,
                capacity, STALL);
    }
}
