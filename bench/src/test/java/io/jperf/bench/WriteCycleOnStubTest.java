package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.datapath.WorkRequestList.Opcode;
import io.jperf.engine.BandwidthLoop;
import io.jperf.ffi.InlineVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * RDMA WRITEs of the bandwidth loop executed by the stub on memory of this process: messages up to half a
 * page walk perftest's cycle ({@code increase_loc_addr}/{@code increase_rem_addr}: a stride of the size rounded
 * up to 64-byte lines through a 4096-byte page) on every posting path of the loop, larger messages stay at
 * the base, and a list can change size between runs ({@code -a}).
 */
class WriteCycleOnStubTest {
    private static final int TX_DEPTH = 128;
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(5);
    private static final int PAGE = 4096;
    /** 100-byte writes: a stride of 128, 32 slots in the page. */
    private static final int SIZE = 100;
    private static final int STRIDE = 128;

    @Test
    void postListOneWalksThePageALineMultiplePerWriteOnEveryPostingPath() {
        // cqMod 100 without timestamps: runs of unpatched posts; with timestamps: patched posts; cqMod 1: chains
        for (int[] path : new int[][] {{100, 0}, {100, 1}, {1, 0}}) {
            try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
                stub.executeWrites(true);
                MemorySegment local = slotted(arena);
                MemorySegment remote = arena.allocate(2 * PAGE, PAGE);
                WorkRequestList list = writes(arena, 1, local, remote.address());
                list.cycleAddressesAsPerftest(SIZE);
                assertTrue(list.stepsPerPost());
                BandwidthLoop loop = bandwidthLoop(arena, stub, list, path[1] == 1 ? 40 : 0);
                assertTrue(loop.runIterations(40, TX_DEPTH, path[0], path[1] == 1), loop.errors().describe());
                String how = "cqMod " + path[0] + (path[1] == 1 ? " with timestamps" : "");
                for (int slot = 0; slot < PAGE / STRIDE; slot++) {
                    long at = (long) slot * STRIDE;
                    assertEquals(slot + 1, remote.get(ValueLayout.JAVA_BYTE, at), how + ": slot " + slot + " first byte");
                    assertEquals(slot + 1, remote.get(ValueLayout.JAVA_BYTE, at + SIZE - 1), how + ": slot " + slot
                            + " last byte");
                    assertEquals(0, remote.get(ValueLayout.JAVA_BYTE, at + SIZE), how + ": nothing between slots");
                }
                assertEquals(0, remote.asSlice(PAGE).elements(ValueLayout.JAVA_BYTE)
                        .filter(b -> b.get(ValueLayout.JAVA_BYTE, 0) != 0).count(),
                        how + ": writes 33..40 wrapped to the page's start, nothing past it");
            }
        }
    }

    @Test
    void aLongerPostListSpreadsItsEntriesOnceAndDoesNotStep() {
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            stub.executeWrites(true);
            MemorySegment local = slotted(arena);
            MemorySegment remote = arena.allocate(PAGE, PAGE);
            WorkRequestList list = writes(arena, 4, local, remote.address());
            list.cycleAddressesAsPerftest(SIZE);
            assertFalse(list.stepsPerPost(), "perftest moves only post lists of one after each post");
            assertTrue(bandwidthLoop(arena, stub, list, 0).runIterations(40, TX_DEPTH, 4, false));
            for (int slot = 0; slot < PAGE / STRIDE; slot++) {
                assertEquals(slot < 4 ? slot + 1 : 0, remote.get(ValueLayout.JAVA_BYTE, (long) slot * STRIDE),
                        "slot " + slot);
            }
        }
    }

    @Test
    void aNewSizeRestartsTheCycleFromTheBaseAndLargeMessagesStayThere() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment local = arena.allocate(2 * PAGE, PAGE);
            MemorySegment remote = arena.allocate(2 * PAGE, PAGE);
            WorkRequestList list = writes(arena, 1, local, remote.address());
            list.cycleAddressesAsPerftest(SIZE);
            list.stepAddresses();
            list.stepAddresses();
            assertEquals(remote.address() + 2 * STRIDE, list.remoteAddress(0));
            assertEquals(local.address() + 2 * STRIDE, list.localAddress(0));
            list.cycleAddressesAsPerftest(PAGE);
            assertFalse(list.stepsPerPost(), "4096 bytes is more than half the cycle buffer");
            assertEquals(remote.address(), list.remoteAddress(0));
            assertEquals(local.address(), list.localAddress(0));
            list.cycleAddressesAsPerftest(2);
            list.stepAddresses();
            assertEquals(remote.address() + 64, list.remoteAddress(0), "2 bytes step one cache line");
            assertEquals(local.address() + 64, list.localAddress(0));
        }
    }

    /**
     * The stepping path allocates nothing per write: after warm-up, 40000 writes through the unpatched runs
     * (cqMod 100) allocate less than 4 KiB on this thread (an object per write would be 640 KB and more; the
     * JIT's own bookkeeping can show up as a few hundred bytes once).
     */
    @Test
    void steppingAllocatesNothingPerWrite() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined(); StubProvider stub = StubProvider.create(TX_DEPTH)) {
            MemorySegment local = slotted(arena);
            WorkRequestList list = writes(arena, 1, local, 0x10000);
            list.cycleAddressesAsPerftest(SIZE);
            BandwidthLoop loop = bandwidthLoop(arena, stub, list, 0);
            for (int i = 0; i < 5; i++) {
                assertTrue(loop.runIterations(4000, TX_DEPTH, 100, false));
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            assertTrue(loop.runIterations(40_000, TX_DEPTH, 100, false));
            long bytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(bytes < 4096, "the stepping bandwidth loop allocated " + bytes + " bytes for 40000 writes");
        }
    }

    /** A page whose slot k (128 bytes at 128 k) holds the byte k + 1. */
    private static MemorySegment slotted(Arena arena) {
        MemorySegment local = arena.allocate(PAGE, PAGE);
        for (int slot = 0; slot < PAGE / STRIDE; slot++) {
            local.asSlice((long) slot * STRIDE, STRIDE).fill((byte) (slot + 1));
        }
        return local;
    }

    private static WorkRequestList writes(Arena arena, int postList, MemorySegment local, long remote) {
        return new WorkRequestList(arena, Opcode.RDMA_WRITE, postList, local.address(), SIZE, 1, remote, 2, false);
    }

    private static BandwidthLoop bandwidthLoop(Arena arena, StubProvider stub, WorkRequestList list, int stamps) {
        return new BandwidthLoop(new MemorySegment[] {InlineVerbs.postSendFn(stub.qp())},
                new MemorySegment[] {stub.qp()}, new WorkRequestList[] {list}, InlineVerbs.pollCqFn(stub.cq()),
                stub.cq(), new CompletionBatch(arena, 16), stamps, TIMEOUT);
    }
}
