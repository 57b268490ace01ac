package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.bench.StubProvider.Counter;
import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.WorkRequestList;
import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.ibv_qp;
import io.jperf.ffi.generated.ibv_recv_wr;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The C stub provider behaves like an always-ready device, through jperf's own data-path calls. */
class StubProviderTest {
    private static final int ENOMEM = 12;

    private Arena arena;
    private StubProvider stub;
    private MemorySegment postSend;
    private MemorySegment pollCq;

    @BeforeEach
    void setUp() {
        arena = Arena.ofConfined();
        stub = StubProvider.create(64);
        postSend = InlineVerbs.postSendFn(stub.qp());
        pollCq = InlineVerbs.pollCqFn(stub.cq());
    }

    @AfterEach
    void tearDown() {
        stub.close();
        arena.close();
    }

    private WorkRequestList list(int length, int size) {
        MemorySegment buffer = arena.allocate(64, 64);
        return new WorkRequestList(arena, length, buffer.address(), size, 7, buffer.address(), 9, false);
    }

    @Test
    void fakeObjectsPointAtTheFakeContext() {
        MemorySegment qp = NativeMemory.ofLayout(stub.qp(), ibv_qp.layout());
        assertEquals(stub.context(), ibv_qp.context(qp));
        assertNotEquals(MemorySegment.NULL, InlineVerbs.postRecvFn(stub.qp()));
        assertNotEquals(MemorySegment.NULL, InlineVerbs.reqNotifyCqFn(stub.cq()));
        assertTrue(StubProvider.library().toString().endsWith(StubProvider.LIBRARY_NAME), StubProvider.library()::toString);
    }

    @Test
    void boundCallsPostAndPollThroughTheProviderAndAreOnePerFunction() {
        InlineVerbs.PostCall post = InlineVerbs.bindPostSend(postSend);
        InlineVerbs.PollCall poll = InlineVerbs.bindPollCq(pollCq);
        assertTrue(post == InlineVerbs.bindPostSend(InlineVerbs.postSendFn(stub.qp())), "one bound call per function");
        assertTrue(poll == InlineVerbs.bindPollCq(pollCq), "one bound call per function");
        assertNotEquals(post, InlineVerbs.bindPostRecv(InlineVerbs.postRecvFn(stub.qp())));

        WorkRequestList wr = list(3, 64);
        wr.setSignaled(2, true);
        wr.setWrId(2, 4242);
        assertEquals(0, wr.post(post, stub.qp().address()));
        assertEquals(3, stub.counter(Counter.POSTED_WRS));
        CompletionBatch wc = new CompletionBatch(arena, 16);
        assertEquals(1, wc.poll(poll, stub.cq().address()));
        assertEquals(4242, wc.wrIdAt(0));
        assertEquals(0, wc.statusAt(0));
        assertEquals(wc.wrId(0), wc.wrIdAt(0));
        assertThrows(IndexOutOfBoundsException.class, () -> wc.statusAt(15 * CompletionBatch.ENTRY_BYTES + 1));
        assertThrows(IndexOutOfBoundsException.class, () -> wc.wrIdAt(-CompletionBatch.ENTRY_BYTES));
        assertEquals(0, wc.poll(poll, stub.cq().address()));
    }

    @Test
    void eachSignaledWorkRequestYieldsOneCompletionWithItsWrId() {
        WorkRequestList wr = list(1, 4096);
        wr.setSignaled(0, true);
        int n = 20;
        for (int i = 0; i < n; i++) {
            wr.setWrId(0, 1000 + i);
            assertEquals(0, wr.post(postSend, stub.qp()));
        }
        assertEquals(n, stub.cqPending());
        CompletionBatch wc = new CompletionBatch(arena, 16);
        int seen = 0;
        int got;
        while ((got = wc.poll(pollCq, stub.cq())) > 0) {
            assertTrue(got <= 16, "poll_cq returned more than num_entries");
            for (int i = 0; i < got; i++, seen++) {
                assertEquals(1000 + seen, wc.wrId(i), "completions come back in posting order");
                assertEquals(0, wc.status(i));
                assertEquals(rdma_h.IBV_WC_RDMA_WRITE(), wc.opcode(i));
                assertEquals(4096, wc.byteLength(i));
                assertEquals(ibv_qp.qp_num(NativeMemory.ofLayout(stub.qp(), ibv_qp.layout())), wc.qpNumber(i));
            }
        }
        assertEquals(0, got);
        assertEquals(n, seen);
        assertEquals(n, stub.counter(Counter.POSTED_WRS));
        assertEquals(n, stub.counter(Counter.SIGNALED_WRS));
        assertEquals(n, stub.counter(Counter.COMPLETIONS));
        assertEquals(n, stub.counter(Counter.POLLED));
        assertEquals(n, stub.counter(Counter.POST_SEND_CALLS));
        assertEquals(0, stub.cqPending());
    }

    @Test
    void unsignaledWorkRequestsAreAcceptedWithoutCompletion() {
        WorkRequestList wr = list(8, 64);
        for (int i = 0; i < 8; i++) {
            wr.setWrId(i, i);
        }
        wr.setSignaled(3, true);
        wr.setSignaled(7, true);
        assertEquals(0, wr.post(postSend, stub.qp()));
        assertEquals(8, stub.counter(Counter.POSTED_WRS), "the whole next chain is walked");
        assertEquals(2, stub.counter(Counter.SIGNALED_WRS));
        assertEquals(2, stub.counter(Counter.COMPLETIONS));
        assertEquals(1, stub.counter(Counter.POST_SEND_CALLS));

        CompletionBatch wc = new CompletionBatch(arena, 16);
        assertEquals(2, wc.poll(pollCq, stub.cq()));
        assertEquals(3, wc.wrId(0));
        assertEquals(7, wc.wrId(1));
        assertEquals(0, wc.poll(pollCq, stub.cq()));
        assertEquals(2, stub.counter(Counter.POLL_CQ_CALLS));

        WorkRequestList quiet = list(4, 64);
        assertEquals(0, quiet.post(postSend, stub.qp()));
        assertEquals(12, stub.counter(Counter.POSTED_WRS));
        assertEquals(2, stub.counter(Counter.COMPLETIONS));
        assertEquals(0, stub.cqPending());
    }

    @Test
    void pollDrainsAtMostNumEntries() {
        WorkRequestList wr = list(40, 64);
        for (int i = 0; i < 40; i++) {
            wr.setSignaled(i, true);
            wr.setWrId(i, i);
        }
        assertEquals(0, wr.post(postSend, stub.qp()));
        CompletionBatch wc = new CompletionBatch(arena, 16);
        assertEquals(16, wc.poll(pollCq, stub.cq()));
        assertEquals(15, wc.wrId(15));
        assertEquals(16, wc.poll(pollCq, stub.cq()));
        assertEquals(16, wc.wrId(0));
        assertEquals(8, wc.poll(pollCq, stub.cq()));
        assertEquals(39, wc.wrId(7));
        assertEquals(40, stub.counter(Counter.POLLED));
    }

    @Test
    void aFullCqRefusesTheRestOfTheListWithEnomem() {
        WorkRequestList wr = list(70, 64);
        for (int i = 0; i < 70; i++) {
            wr.setSignaled(i, true);
        }
        assertEquals(ENOMEM, wr.post(postSend, stub.qp()));
        assertEquals(64, stub.counter(Counter.POSTED_WRS));
        assertEquals(6, stub.counter(Counter.REJECTED_WRS));
        assertEquals(64, stub.cqPending());
        stub.reset();
        assertEquals(0, stub.cqPending());
        assertEquals(0, stub.counter(Counter.POSTED_WRS));
    }

    @Test
    void postRecvAndReqNotifyAreCounted() {
        MemorySegment recv = arena.allocate(ibv_recv_wr.layout());
        MemorySegment bad = arena.allocate(ValueLayout.ADDRESS);
        assertEquals(0, InlineVerbs.postRecv(InlineVerbs.postRecvFn(stub.qp()), stub.qp(), recv, bad));
        assertEquals(1, stub.counter(Counter.POSTED_RECVS));
        assertEquals(0, InlineVerbs.reqNotifyCq(InlineVerbs.reqNotifyCqFn(stub.cq()), stub.cq(), 0));
        assertEquals(1, stub.counter(Counter.NOTIFY_CALLS));
    }

    @Test
    void closedStubRefusesUse() {
        StubProvider other = StubProvider.create(1);
        other.close();
        other.close();
        assertThrows(IllegalStateException.class, other::qp);
        assertThrows(IllegalArgumentException.class, () -> StubProvider.create(0));
    }
}
