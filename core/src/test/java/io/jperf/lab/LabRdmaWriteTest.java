package io.jperf.lab;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.CompletionStatus;
import io.jperf.datapath.ReceiveRequestList;
import io.jperf.datapath.WorkRequestList;
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
import io.jperf.verbs.QpState;
import io.jperf.verbs.QpType;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RtrAttributes;
import io.jperf.verbs.RtsAttributes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One RDMA WRITE from rxe0 to rxe1 through the resource model: both QPs to RTS against each
 * other, the bytes land in the peer's memory, and closing leaves no verbs object behind; and one
 * RDMA READ the other way: the peer's bytes land in the reader's memory; and SENDs into a receive list:
 * each message lands in the receiver's posted buffer and its completion names the receive entry.
 */
@Tag("lab")
class LabRdmaWriteTest {
    private static final int SIZE = 4096;
    private static final Set<Access> REMOTE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);

    /** One side: device, PD, registered buffer, CQ and RC QP in INIT. */
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

        void connectTo(Side peer) {
            Mtu mtu = port.activeMtu().min(peer.port.activeMtu());
            AddressVector av = new AddressVector(0, 0, 1, Optional.of(peer.gid.gid()), gid.index(), 0xff, 0, 0);
            qp.modifyToRtr(new RtrAttributes(mtu, peer.qp.qpn(), peer.psn, 1, 12, av));
            qp.modifyToRts(new RtsAttributes(psn, 14, 7, 7, 1));
        }
    }

    @Test
    void oneRdmaWriteLandsInThePeersMemoryAndEverythingClosesCleanly() throws Exception {
        Map<String, String> before = LabDevices.resourceCounts();
        byte[] pattern = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            pattern[i] = (byte) (i * 31 + 7);
        }

        Side a = Side.open("rxe0", 0x1234);
        Side b = Side.open("rxe1", 0x4321);
        try (Arena arena = Arena.ofConfined()) {
            a.connectTo(b);
            b.connectTo(a);
            assertEquals(QpState.RTS, a.qp().state());
            assertEquals(QpState.RTS, b.qp().state());
            assertNotEquals(before, LabDevices.resourceCounts(), "rdma resource sees the objects while they live");

            MemorySegment.copy(pattern, 0, a.mr().memory(), ValueLayout.JAVA_BYTE, 0, SIZE);
            WorkRequestList write = new WorkRequestList(arena, 1, a.mr().address(), SIZE, a.mr().lkey(),
                    b.mr().address(), b.mr().rkey(), false);
            write.setSignaled(0, true);
            write.setWrId(0, 42);
            assertEquals(0, write.post(a.qp().postSendFunction(), a.qp().handle()), "post_send");

            CompletionBatch wc = new CompletionBatch(arena, 4);
            long deadline = System.nanoTime() + 10_000_000_000L;
            int n = 0;
            while (n == 0 && System.nanoTime() < deadline) {
                n = wc.poll(a.cq().pollFunction(), a.cq().handle());
            }
            assertEquals(1, n, "one completion within 10 s");
            assertEquals(0, wc.status(0), () -> CompletionStatus.describe(wc.status(0)));
            assertEquals(42, wc.wrId(0));
            assertEquals(a.qp().qpn(), wc.qpNumber(0));

            byte[] landed = b.mr().memory().toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(pattern, landed, "the written bytes are in rxe1's registered memory");
        } finally {
            a.ctx().close();
            b.ctx().close();
        }
        assertTrue(a.qp().isClosed() && a.mr().isClosed() && a.cq().isClosed(), "children closed with the context");
        assertEquals(before, LabDevices.resourceCounts(), "nothing left in `rdma resource` after close");
    }

    @Test
    void oneRdmaReadBringsThePeersBytesIntoTheReadersMemory() throws Exception {
        byte[] pattern = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            pattern[i] = (byte) (i * 13 + 5);
        }
        Side reader = Side.open("rxe1", 0x2222);
        Side owner = Side.open("rxe0", 0x3333);
        try (Arena arena = Arena.ofConfined()) {
            reader.connectTo(owner);
            owner.connectTo(reader);
            MemorySegment.copy(pattern, 0, owner.mr().memory(), ValueLayout.JAVA_BYTE, 0, SIZE);
            reader.mr().memory().fill((byte) 0);
            WorkRequestList read = new WorkRequestList(arena, WorkRequestList.Opcode.RDMA_READ, 1,
                    reader.mr().address(), SIZE, reader.mr().lkey(), owner.mr().address(), owner.mr().rkey(), false);
            read.setSignaled(0, true);
            read.setWrId(0, 7);
            assertEquals(0, read.post(reader.qp().postSendFunction(), reader.qp().handle()), "post_send");
            CompletionBatch wc = new CompletionBatch(arena, 4);
            long deadline = System.nanoTime() + 10_000_000_000L;
            int n = 0;
            while (n == 0 && System.nanoTime() < deadline) {
                n = wc.poll(reader.cq().pollFunction(), reader.cq().handle());
            }
            assertEquals(1, n, "one completion within 10 s");
            assertEquals(0, wc.status(0), () -> CompletionStatus.describe(wc.status(0)));
            assertEquals(7, wc.wrId(0));
            assertArrayEquals(pattern, reader.mr().memory().toArray(ValueLayout.JAVA_BYTE),
                    "the peer's bytes are in rxe1's registered memory");
        } finally {
            reader.ctx().close();
            owner.ctx().close();
        }
    }

    @Test
    void sendsLandInTheReceiversPostedBuffersOneReceivePerMessage() throws Exception {
        Side sender = Side.open("rxe0", 0x5555);
        Side receiver = Side.open("rxe1", 0x6666);
        try (Arena arena = Arena.ofConfined()) {
            sender.connectTo(receiver);
            receiver.connectTo(sender);
            receiver.mr().memory().fill((byte) 0);
            ReceiveRequestList receives = new ReceiveRequestList(arena, 0, 2, receiver.mr().address(), SIZE,
                    receiver.mr().lkey());
            assertEquals(0, receives.postAll(receiver.qp().postRecvFunction(), receiver.qp().handle().address()),
                    "post_recv");
            WorkRequestList send = new WorkRequestList(arena, WorkRequestList.Opcode.SEND, 1, sender.mr().address(),
                    SIZE, sender.mr().lkey(), 0, 0, false);
            send.setSignaled(0, true);
            CompletionBatch sendWc = new CompletionBatch(arena, 4);
            CompletionBatch recvWc = new CompletionBatch(arena, 4);
            for (int message = 0; message < 3; message++) {
                byte[] pattern = new byte[SIZE];
                for (int i = 0; i < SIZE; i++) {
                    pattern[i] = (byte) (i * 17 + 3 + message);
                }
                MemorySegment.copy(pattern, 0, sender.mr().memory(), ValueLayout.JAVA_BYTE, 0, SIZE);
                send.setWrId(0, 100 + message);
                assertEquals(0, send.post(sender.qp().postSendFunction(), sender.qp().handle()), "post_send");
                assertEquals(1, pollOne(recvWc, receiver), "the receive completed within 10 s");
                assertEquals(0, recvWc.status(0), () -> CompletionStatus.describe(recvWc.status(0)));
                long wrId = recvWc.wrId(0);
                assertTrue(ReceiveRequestList.isReceive(wrId), "a receive's wr_id: " + Long.toHexString(wrId));
                assertEquals(message % 2, ReceiveRequestList.entry(wrId), "the receives are consumed in order");
                assertEquals(SIZE, recvWc.byteLength(0));
                assertEquals(io.jperf.ffi.generated.rdma_h.IBV_WC_RECV(), recvWc.opcode(0));
                assertArrayEquals(pattern, receiver.mr().memory().toArray(ValueLayout.JAVA_BYTE),
                        "message " + message + " is in rxe1's posted buffer");
                assertEquals(0, receives.post(receiver.qp().postRecvFunction(), receiver.qp().handle().address(),
                        ReceiveRequestList.entry(wrId)), "the consumed receive is posted again");
                assertEquals(1, pollOne(sendWc, sender), "the send completed within 10 s");
                assertEquals(0, sendWc.status(0), () -> CompletionStatus.describe(sendWc.status(0)));
                assertEquals(100 + message, sendWc.wrId(0));
            }
        } finally {
            sender.ctx().close();
            receiver.ctx().close();
        }
    }

    private static int pollOne(CompletionBatch wc, Side side) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int n = 0;
        while (n == 0 && System.nanoTime() < deadline) {
            n = wc.poll(side.cq().pollFunction(), side.cq().handle());
        }
        return n;
    }
}
