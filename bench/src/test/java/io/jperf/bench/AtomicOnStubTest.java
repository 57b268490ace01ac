package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.datapath.WorkRequestList.Opcode;
import io.jperf.engine.BandwidthLoop;
import io.jperf.engine.LatencyLoop;
import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.generated.ibv_send_wr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Atomic work requests built by the engine's list, executed by the stub on a word of this process: the
 * bandwidth and requester-only latency loops move real counts, compare-and-swap swaps once, and a misaligned
 * word completes with an error the loop counts and decodes.
 */
class AtomicOnStubTest {
    private static final int TX_DEPTH = 128;
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(5);
    private static final int PAGE = 4096;

    @Test
    void theListCarriesTheAtomicUnionWithPerftestsOperands() {
        try (Arena arena = Arena.ofConfined()) {
            WorkRequestList fa = new WorkRequestList(arena, Opcode.ATOMIC_FETCH_AND_ADD, 2, 0x1000, 8, 1, 0x2008, 0x77,
                    false);
            MemorySegment wr = fa.head();
            long union = ibv_send_wr.wr$offset() + ibv_send_wr.wr.atomic$offset();
            assertEquals(io.jperf.ffi.generated.rdma_h.IBV_WR_ATOMIC_FETCH_AND_ADD(),
                    wr.get(ValueLayout.JAVA_INT, ibv_send_wr.opcode$offset()));
            assertEquals(0x2008, wr.get(ValueLayout.JAVA_LONG, union + ibv_send_wr.wr.atomic.remote_addr$offset()));
            assertEquals(0x77, wr.get(ValueLayout.JAVA_INT, union + ibv_send_wr.wr.atomic.rkey$offset()),
                    "the atomic rkey sits after the operands, not where RDMA's does");
            assertEquals(1, wr.get(ValueLayout.JAVA_LONG, union + ibv_send_wr.wr.atomic.compare_add$offset()),
                    "perftest adds 1");
            WorkRequestList cs = new WorkRequestList(arena, Opcode.ATOMIC_CMP_AND_SWP, 1, 0x1000, 8, 1, 0x2000, 1, false);
            assertEquals(0, cs.head().get(ValueLayout.JAVA_LONG, union + ibv_send_wr.wr.atomic.compare_add$offset()));
            assertEquals(0, cs.head().get(ValueLayout.JAVA_LONG, union + ibv_send_wr.wr.atomic.swap$offset()),
                    "perftest compares with 0 and swaps in 0");
        }
    }

    @Test
    void theListRefusesInlineOtherSizesAndMisalignedWords() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> new WorkRequestList(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1,
                    0x1000, 8, 1, 0x2000, 1, true));
            assertThrows(IllegalArgumentException.class, () -> new WorkRequestList(arena, Opcode.ATOMIC_CMP_AND_SWP, 1,
                    0x1000, 16, 1, 0x2000, 1, false));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WorkRequestList(arena,
                    Opcode.ATOMIC_FETCH_AND_ADD, 1, 0x1000, 8, 1, 0x2004, 1, false));
            assertTrue(e.getMessage().contains("0x2004"), e.getMessage());
        }
    }

    @Test
    void theBandwidthLoopsFetchAndAddsCountOnTheRemoteWord() {
        long iterations = 1000;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(8, 8);
            MemorySegment counter = arena.allocate(64, 64);
            counter.set(ValueLayout.JAVA_LONG, 0, 0L);
            BandwidthLoop loop = bandwidthLoop(arena, stub, atomics(arena, Opcode.ATOMIC_FETCH_AND_ADD, 4, local,
                    counter.address()));
            assertTrue(loop.runIterations(iterations, TX_DEPTH, 4, false), loop.errors().describe());
            assertEquals(iterations, counter.get(ValueLayout.JAVA_LONG, 0), "one add of 1 per request");
            assertEquals(iterations - 1, local.get(ValueLayout.JAVA_LONG, 0), "the last original value came back");
            assertEquals(iterations, stub.counter(Counter.POSTED_WRS));
            assertEquals(0, stub.cqPending());
            assertFalse(loop.errors().any());
        }
    }

    /**
     * perftest's ib_atomic_bw cycle ({@code increase_rem_addr} with {@code INC(8, 64)} through its 4096-byte
     * cycle buffer): request k of a run goes to the word at {@code 64 * (k % 64)}. 1000 fetch-and-adds over 64
     * words: the first 40 words count 16, the other 24 count 15, and no other word of the page is touched (a
     * stride of 8, or a wrap after other than 64 slots, moves counts elsewhere). The original values come back
     * into the matching slots of the local buffer, also walked a cache line per request.
     */
    @Test
    void theBandwidthLoopWalksPerftestsCycleACacheLinePerFetchAndAdd() {
        int iterations = 1000;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(PAGE, PAGE);
            MemorySegment remote = arena.allocate(PAGE, PAGE);
            WorkRequestList list = atomics(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1, local, remote.address());
            list.cycleAddressesAsPerftest(8);
            assertTrue(list.stepsPerPost(), "a post list of one steps after each post, as perftest's -l 1");
            BandwidthLoop loop = bandwidthLoop(arena, stub, list);
            assertTrue(loop.runIterations(iterations, TX_DEPTH, 4, false), loop.errors().describe());
            for (int word = 0; word < PAGE / 8; word++) {
                long expected = word % 8 != 0 ? 0 : word / 8 < 40 ? 16 : 15;
                assertEquals(expected, remote.getAtIndex(ValueLayout.JAVA_LONG, word),
                        "remote word at byte " + word * 8);
            }
            assertEquals(15, local.get(ValueLayout.JAVA_LONG, 0), "slot 0's last add saw 15 before it");
            assertEquals(14, local.get(ValueLayout.JAVA_LONG, 63 * 64), "slot 63's last add saw 14 before it");
            assertEquals(0, local.get(ValueLayout.JAVA_LONG, 8), "nothing lands between two slots");
        }
    }

    /** Every run starts at the cycle's first word (a warm-up run does not shift the measured run's words). */
    @Test
    void eachRunStartsTheCycleAtTheFirstWord() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(PAGE, PAGE);
            MemorySegment remote = arena.allocate(PAGE, PAGE);
            WorkRequestList list = atomics(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1, local, remote.address());
            list.cycleAddressesAsPerftest(8);
            BandwidthLoop loop = bandwidthLoop(arena, stub, list);
            assertTrue(loop.runIterations(3, TX_DEPTH, 1, false), loop.errors().describe());
            assertTrue(loop.runIterations(3, TX_DEPTH, 1, false), loop.errors().describe());
            assertEquals(List.of(2L, 2L, 2L, 0L), List.of(remote.get(ValueLayout.JAVA_LONG, 0),
                    remote.get(ValueLayout.JAVA_LONG, 64), remote.get(ValueLayout.JAVA_LONG, 128),
                    remote.get(ValueLayout.JAVA_LONG, 192)));
        }
    }

    /**
     * A post list of 4 ({@code -l 4}): perftest points entry j at slot j when it builds the chain and does not
     * step chains, so 1000 adds land 250 on each of the first four words; compare-and-swap (swap patched to 5)
     * walks the same cycle with a post list of one: each of the 64 words swapped once from 0 to 5.
     */
    @Test
    void aPostListSpreadsOverItsEntriesSlotsAndCompareAndSwapWalksTheCycleToo() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(PAGE, PAGE);
            MemorySegment remote = arena.allocate(PAGE, PAGE);
            WorkRequestList chain = atomics(arena, Opcode.ATOMIC_FETCH_AND_ADD, 4, local, remote.address());
            chain.cycleAddressesAsPerftest(8);
            assertFalse(chain.stepsPerPost(), "perftest steps only post lists of one");
            BandwidthLoop loop = bandwidthLoop(arena, stub, chain);
            assertTrue(loop.runIterations(1000, TX_DEPTH, 4, false), loop.errors().describe());
            assertEquals(List.of(250L, 250L, 250L, 250L, 0L), List.of(remote.get(ValueLayout.JAVA_LONG, 0),
                    remote.get(ValueLayout.JAVA_LONG, 64), remote.get(ValueLayout.JAVA_LONG, 128),
                    remote.get(ValueLayout.JAVA_LONG, 192), remote.get(ValueLayout.JAVA_LONG, 256)));

            MemorySegment words = arena.allocate(PAGE, PAGE);
            WorkRequestList swaps = atomics(arena, Opcode.ATOMIC_CMP_AND_SWP, 1, local, words.address());
            swaps.setSwap(0, 5);
            swaps.cycleAddressesAsPerftest(8);
            BandwidthLoop casLoop = bandwidthLoop(arena, stub, swaps);
            assertTrue(casLoop.runIterations(200, TX_DEPTH, 16, false), casLoop.errors().describe());
            for (int word = 0; word < PAGE / 8; word++) {
                assertEquals(word % 8 == 0 ? 5 : 0, words.getAtIndex(ValueLayout.JAVA_LONG, word),
                        "word at byte " + word * 8);
            }
        }
    }

    @Test
    void aCycleIsRefusedWithoutSlotsOrOffTheWordGrid() {
        try (Arena arena = Arena.ofConfined()) {
            WorkRequestList list = new WorkRequestList(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1, 0x1000, 8, 1, 0x2000, 1,
                    false);
            assertThrows(IllegalArgumentException.class, () -> list.cycleAddresses(64, 0));
            assertThrows(IllegalArgumentException.class, () -> list.cycleAddresses(12, 4));
            assertFalse(list.stepsPerPost(), "not cycling until asked");
        }
    }

    @Test
    void theRequesterOnlyLatencyLoopFetchesAndAddsOncePerRound() {
        int rounds = 500;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(16)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(64, 64);
            MemorySegment remote = arena.allocate(64, 64);
            remote.set(ValueLayout.JAVA_LONG, 0, 41L);
            WorkRequestList fa = new WorkRequestList(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1, local.address(), 8, 1,
                    remote.address(), 2, false);
            LatencyLoop loop = new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), stub.qp(), fa, false,
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 4), local, remote, rounds,
                    TIMEOUT);
            assertTrue(loop.runIterations(rounds, 8, false), loop.errors().describe());
            assertEquals(rounds, loop.rounds());
            assertEquals(41 + rounds, remote.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(41 + rounds - 1, local.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(rounds, stub.counter(Counter.POLLED), "every request signaled and polled");
        }
    }

    @Test
    void compareAndSwapSwapsOnlyWhileTheWordEqualsTheCompareValue() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(16)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(8, 8);
            MemorySegment word = arena.allocate(8, 8);
            word.set(ValueLayout.JAVA_LONG, 0, 0L);
            WorkRequestList list = atomics(arena, Opcode.ATOMIC_CMP_AND_SWP, 1, local, word.address());
            BandwidthLoop loop = bandwidthLoop(arena, stub, list);
            list.setSwap(0, 7);
            assertTrue(loop.runIterations(1, 1, 1, false), loop.errors().describe());
            assertEquals(7, word.get(ValueLayout.JAVA_LONG, 0), "0 equals the compare value 0: swapped");
            assertEquals(0, local.get(ValueLayout.JAVA_LONG, 0), "the original value");
            list.setSwap(0, 9);
            assertTrue(loop.runIterations(10, 1, 1, false), loop.errors().describe());
            assertEquals(7, word.get(ValueLayout.JAVA_LONG, 0), "7 is not 0: never swapped again");
            assertEquals(7, local.get(ValueLayout.JAVA_LONG, 0));
            list.setCompareAdd(0, 7);
            assertTrue(loop.runIterations(1, 1, 1, false), loop.errors().describe());
            assertEquals(9, word.get(ValueLayout.JAVA_LONG, 0), "patched compare value 7: swapped to 9");
        }
    }

    @Test
    void aMisalignedWordFailsTheLoopWithTheDecodedStatus() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(8, 8);
            MemorySegment word = arena.allocate(64, 64);
            WorkRequestList list = atomics(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1, local, word.address());
            BandwidthLoop loop = bandwidthLoop(arena, stub, list);
            list.setRemoteAddress(0, word.address() + 4);
            assertFalse(loop.runIterations(100, TX_DEPTH, 100, false), "the failed completion stops the loop");
            assertTrue(loop.errors().total() >= 1);
            String why = loop.errors().describe();
            assertTrue(why.contains("IBV_WC_REM_INV_REQ_ERR") && why.contains("8-byte aligned"), why);
            assertEquals(0, word.get(ValueLayout.JAVA_LONG, 0), "nothing was added");
        }
    }

    /**
     * The atomic data path allocates nothing: after warm-up runs, 4000 executed fetch-and-adds through the
     * bandwidth loop and 4000 rounds of the requester-only latency loop allocate less than 1 KiB on this thread
     * (one object per request would be 64 KiB and more).
     */
    @Test
    void theAtomicLoopsAllocateNothingPerRequest() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        int requests = 4000;
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeAtomics(true);
            MemorySegment local = arena.allocate(PAGE, PAGE);
            MemorySegment word = arena.allocate(PAGE, PAGE);
            WorkRequestList cycling = atomics(arena, Opcode.ATOMIC_FETCH_AND_ADD, 1, local, word.address());
            cycling.cycleAddressesAsPerftest(8); // the measured path: patched and stepped per request
            BandwidthLoop bw = bandwidthLoop(arena, stub, cycling);
            LatencyLoop lat = new LatencyLoop(InlineVerbs.postSendFn(stub.qp()), stub.qp(),
                    atomics(arena, Opcode.ATOMIC_CMP_AND_SWP, 1, local, word.address()), false,
                    InlineVerbs.pollCqFn(stub.cq()), stub.cq(), new CompletionBatch(arena, 4), local, word, requests,
                    TIMEOUT);
            for (int i = 0; i < 5; i++) {
                assertTrue(bw.runIterations(requests, TX_DEPTH, 100, false));
                assertTrue(lat.runIterations(requests, 8, false));
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            assertTrue(bw.runIterations(requests, TX_DEPTH, 100, false));
            long bwBytes = threads.getCurrentThreadAllocatedBytes() - before;
            before = threads.getCurrentThreadAllocatedBytes();
            assertTrue(lat.runIterations(requests, 8, false));
            long latBytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(bwBytes < 1024, "atomic bandwidth loop allocated " + bwBytes + " bytes");
            assertTrue(latBytes < 1024, "atomic latency loop allocated " + latBytes + " bytes");
            long sum = 0;
            for (int slot = 0; slot < PAGE / 64; slot++) {
                sum += word.get(ValueLayout.JAVA_LONG, slot * 64L);
            }
            // the latency loop's compare-and-swaps (compare 0, swap 0) change nothing
            assertEquals(6L * requests, sum, "every fetch-and-add was executed, spread over the cycle's words");
        }
    }

    private static WorkRequestList atomics(Arena arena, Opcode opcode, int postList, MemorySegment local, long remote) {
        return new WorkRequestList(arena, opcode, postList, local.address(), 8, 1, remote, 2, false);
    }

    private static BandwidthLoop bandwidthLoop(Arena arena, StubProvider stub, WorkRequestList list) {
        return new BandwidthLoop(new MemorySegment[] {InlineVerbs.postSendFn(stub.qp())},
                new MemorySegment[] {stub.qp()}, new WorkRequestList[] {list}, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), 0, TIMEOUT);
    }
}
