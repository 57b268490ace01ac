package io.jperf.lab;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.CompletionStatus;
import io.jperf.datapath.WorkRequestList;
import io.jperf.engine.BandwidthLoop;
import io.jperf.ffi.generated.rdma_h;
import io.jperf.verbs.Access;
import io.jperf.verbs.AddressVector;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.MemoryRegion;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import io.jperf.verbs.QpType;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RtrAttributes;
import io.jperf.verbs.RtsAttributes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Atomics on real rxe devices: fetch-and-adds and compare-and-swaps from rxe1 on a word of rxe0's registered
 * memory through the engine's work request list (the word counts every add, the original values come back),
 * the bandwidth loop walking perftest's address cycle over rxe0's page (each of the 64 cache-line words counts
 * its share), and the atomic cells of the interop matrix ({@link LabPerftestInteropTest#atomicCells}):
 * atomic-bw and atomic-lat against jperf, Debian's ib_atomic_bw / ib_atomic_lat (6.06) and upstream 6.28 and
 * 6.29, jperf on either end, TCP and {@code -R}, fetch-and-add and compare-and-swap; the table goes to
 * {@code $LAB_RESULTS/atomic-matrix.txt}.
 */
@Tag("lab")
class LabAtomicTest {
    private static final int SIZE = 4096;
    private static final int ADDS = 100;
    private static final Set<Access> REMOTE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC);

    /** One side: device, PD, registered buffer (with remote atomic access), CQ and RC QP in INIT. */
    private record Side(Context ctx, PortInfo port, GidEntry gid, MemoryRegion mr, CompletionQueue cq, QueuePair qp,
                        int psn) {
        static Side open(String device, int psn) {
            Context ctx = Rdma.open(device);
            PortInfo port = ctx.queryPort(1);
            GidEntry gid = GidSelection.perftestDefault(port).orElseThrow();
            ProtectionDomain pd = ctx.allocateProtectionDomain();
            MemoryRegion mr = pd.allocateAndRegister(SIZE, 4096, REMOTE);
            CompletionQueue cq = ctx.createCompletionQueue(16, null);
            QueuePair qp = pd.createQueuePair(QpType.RC, cq, cq, new QpCapabilities(16, 4, 1, 1, 0));
            qp.modifyToInit(1, REMOTE);
            return new Side(ctx, port, gid, mr, cq, qp, psn);
        }

        /** RTR and RTS against {@code peer}, with one atomic in flight each way (responder and requester). */
        void connectTo(Side peer) {
            Mtu mtu = port.activeMtu().min(peer.port.activeMtu());
            AddressVector av = new AddressVector(0, 0, 1, Optional.of(peer.gid.gid()), gid.index(), 0xff, 0, 0);
            qp.modifyToRtr(new RtrAttributes(mtu, peer.qp.qpn(), peer.psn, 1, 12, av));
            qp.modifyToRts(new RtsAttributes(psn, 14, 7, 7, 1));
        }
    }

    @BeforeAll
    static void findTheLabEnds() {
        LabPerftestInteropTest.findTheLabEnds();
    }

    @AfterAll
    static void printTheMatrix() throws IOException {
        LabPerftestInteropTest.printTable("Atomic interop cells", "atomic-matrix.txt");
    }

    @Test
    void fetchAndAddsCountOnThePeersWordAndCompareAndSwapSwapsOnce() throws Exception {
        Side requester = Side.open("rxe1", 0x7777);
        Side owner = Side.open("rxe0", 0x8888);
        try (Arena arena = Arena.ofConfined()) {
            requester.connectTo(owner);
            owner.connectTo(requester);
            long word = owner.mr().address() + 64; // 8-byte aligned, not the region's first byte
            owner.mr().memory().set(ValueLayout.JAVA_LONG, 64, 1000L);
            WorkRequestList add = new WorkRequestList(arena, WorkRequestList.Opcode.ATOMIC_FETCH_AND_ADD, 1,
                    requester.mr().address(), 8, requester.mr().lkey(), word, owner.mr().rkey(), false);
            add.setSignaled(0, true);
            CompletionBatch wc = new CompletionBatch(arena, 4);
            for (int i = 0; i < ADDS; i++) {
                add.setWrId(0, i);
                assertEquals(0, add.post(requester.qp().postSendFunction(), requester.qp().handle()), "post_send");
                complete(wc, requester, i, rdma_h.IBV_WC_FETCH_ADD());
                assertEquals(1000L + i, requester.mr().memory().get(ValueLayout.JAVA_LONG, 0),
                        "fetch-and-add " + i + " brought the word's value before it");
            }
            assertEquals(1000L + ADDS, owner.mr().memory().get(ValueLayout.JAVA_LONG, 64),
                    ADDS + " adds of 1 on rxe0's word");

            WorkRequestList swap = new WorkRequestList(arena, WorkRequestList.Opcode.ATOMIC_CMP_AND_SWP, 1,
                    requester.mr().address(), 8, requester.mr().lkey(), word, owner.mr().rkey(), false);
            swap.setSignaled(0, true);
            swap.setCompareAdd(0, 1000L + ADDS);
            swap.setSwap(0, 7);
            swap.setWrId(0, 500);
            assertEquals(0, swap.post(requester.qp().postSendFunction(), requester.qp().handle()), "post_send");
            complete(wc, requester, 500, rdma_h.IBV_WC_COMP_SWAP());
            assertEquals(7L, owner.mr().memory().get(ValueLayout.JAVA_LONG, 64), "equal: swapped");
            assertEquals(1000L + ADDS, requester.mr().memory().get(ValueLayout.JAVA_LONG, 0));
            swap.setSwap(0, 9);
            swap.setWrId(0, 501);
            assertEquals(0, swap.post(requester.qp().postSendFunction(), requester.qp().handle()), "post_send");
            complete(wc, requester, 501, rdma_h.IBV_WC_COMP_SWAP());
            assertEquals(7L, owner.mr().memory().get(ValueLayout.JAVA_LONG, 64), "7 differs from the compare value");
            assertEquals(7L, requester.mr().memory().get(ValueLayout.JAVA_LONG, 0));
        } finally {
            requester.ctx().close();
            owner.ctx().close();
        }
    }

    /**
     * The bandwidth loop with perftest's address cycle ({@link WorkRequestList#cycleAddressesAsPerftest}, as
     * atomic-bw builds it) on real devices: 128 fetch-and-adds from rxe1 land 2 on each of the 64 words a cache
     * line apart in rxe0's page, and nothing between them.
     */
    @Test
    void theBandwidthLoopWalksPerftestsCycleOverThePeersPage() throws Exception {
        Side requester = Side.open("rxe1", 0x5555);
        Side owner = Side.open("rxe0", 0x6666);
        try (Arena arena = Arena.ofConfined()) {
            requester.connectTo(owner);
            owner.connectTo(requester);
            owner.mr().memory().fill((byte) 0);
            WorkRequestList adds = new WorkRequestList(arena, WorkRequestList.Opcode.ATOMIC_FETCH_AND_ADD, 1,
                    requester.mr().address(), 8, requester.mr().lkey(), owner.mr().address(), owner.mr().rkey(),
                    false);
            adds.cycleAddressesAsPerftest(8);
            BandwidthLoop loop = new BandwidthLoop(new MemorySegment[] {requester.qp().postSendFunction()},
                    new MemorySegment[] {requester.qp().handle()}, new WorkRequestList[] {adds},
                    requester.cq().pollFunction(), requester.cq().handle(), new CompletionBatch(arena, 16), 0,
                    10_000_000_000L);
            assertTrue(loop.runIterations(128, 8, 4, false), () -> loop.errors().describe());
            for (int word = 0; word < SIZE / 8; word++) {
                assertEquals(word % 8 == 0 ? 2L : 0L, owner.mr().memory().getAtIndex(ValueLayout.JAVA_LONG, word),
                        "rxe0's word at byte " + word * 8);
            }
        } finally {
            requester.ctx().close();
            owner.ctx().close();
        }
    }

    @TestFactory
    Stream<DynamicTest> interopCells() {
        LabPerftestInteropTest matrix = new LabPerftestInteropTest();
        return LabPerftestInteropTest.atomicCells().stream()
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> matrix.run(c)));
    }

    /**
     * The ends disagree on {@code -A} (server fetch-and-add, client compare-and-swap, TCP): refused by both ends
     * where the exchange carries the atomic type (jperf with jperf, 6.28 in either role), run by both with 6.06,
     * whose exchange has no atomic type ({@link LabPerftestInteropTest#runAtomicTypeMismatch}).
     */
    @TestFactory
    Stream<DynamicTest> atomicTypeMismatch() {
        LabPerftestInteropTest matrix = new LabPerftestInteropTest();
        LabPerftestInteropTest.Peer jperf = LabPerftestInteropTest.Peer.JPERF;
        return Stream.of(new LabPerftestInteropTest.Peer[] {jperf, jperf},
                        new LabPerftestInteropTest.Peer[] {LabPerftestInteropTest.Peer.P628, jperf},
                        new LabPerftestInteropTest.Peer[] {jperf, LabPerftestInteropTest.Peer.P628},
                        new LabPerftestInteropTest.Peer[] {LabPerftestInteropTest.Peer.P606, jperf})
                .map(ends -> DynamicTest.dynamicTest("atomic-bw TCP -A mismatch: " + ends[0].label + " server FETCH_AND_ADD"
                        + " <- " + ends[1].label + " client CMP_AND_SWAP", () -> {
                    String said = matrix.runAtomicTypeMismatch(io.jperf.options.TestKind.ATOMIC_BW, ends[0], ends[1]);
                    System.out.println("-A mismatch " + ends[0].label + " <- " + ends[1].label + ": " + said);
                }));
    }

    private static void complete(CompletionBatch wc, Side side, long wrId, int opcode) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int n = 0;
        while (n == 0 && System.nanoTime() < deadline) {
            n = wc.poll(side.cq().pollFunction(), side.cq().handle());
        }
        assertEquals(1, n, "one completion within 10 s");
        assertEquals(0, wc.status(0), () -> CompletionStatus.describe(wc.status(0)));
        assertEquals(wrId, wc.wrId(0));
        assertEquals(opcode, wc.opcode(0), "the completion's opcode");
    }
}
