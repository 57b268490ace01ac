package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.ibv_ah_attr;
import io.jperf.ffi.generated.ibv_global_route;
import io.jperf.ffi.generated.ibv_gid;
import io.jperf.ffi.generated.ibv_qp;
import io.jperf.ffi.generated.ibv_qp_attr;
import io.jperf.ffi.generated.ibv_qp_init_attr;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;

/**
 * A queue pair ({@code struct ibv_qp}) with explicit state transitions: created in RESET,
 * then {@link #modifyToInit}, {@link #modifyToRtr} and {@link #modifyToRts}, each refused
 * (with the state it needs) when called out of order. Child of a {@link ProtectionDomain};
 * also closed before the completion queues it uses.
 *
 * <p>The data path posts through {@link #postSendFunction()} / {@link #postRecvFunction()},
 * the provider's function pointers read once from {@code ibv_context_ops}, with {@link
 * InlineVerbs}.
 */
public final class QueuePair extends NativeResource {
    private final ProtectionDomain pd;
    private final QpType type;
    private final MemorySegment handle;
    private final int qpn;
    private final QpCapabilities capabilities;
    private final MemorySegment postSendFn;
    private final MemorySegment postRecvFn;
    private final Runnable destroyer;
    private QpState state = QpState.RESET;

    private QueuePair(ProtectionDomain pd, QpType type, MemorySegment handle, QpCapabilities capabilities,
                      CompletionQueue sendCq, CompletionQueue recvCq, Runnable destroyer, QpState state) {
        super(pd, sendCq, recvCq);
        this.destroyer = destroyer;
        this.state = state;
        this.pd = pd;
        this.type = type;
        this.handle = handle;
        this.capabilities = capabilities;
        this.qpn = ibv_qp.qp_num(NativeMemory.ofLayout(handle, ibv_qp.layout()));
        this.postSendFn = InlineVerbs.postSendFn(handle);
        this.postRecvFn = InlineVerbs.postRecvFn(handle);
    }

    static QueuePair create(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                            QpCapabilities caps) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = initAttributes(arena, type, sendCq, recvCq, caps);
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment qp = ErrnoCalls.ibv_create_qp(state, pd.handle(), init);
            if (qp.equals(MemorySegment.NULL)) {
                throw RdmaException.of("ibv_create_qp(" + type + ", " + caps + ")", ErrnoCalls.errno(state));
            }
            QpCapabilities granted = QpCapabilities.readFrom(ibv_qp_init_attr.cap(init));
            return new QueuePair(pd, type, qp, granted, sendCq, recvCq, null, QpState.RESET);
        }
    }

    /**
     * A zeroed {@code struct ibv_qp_init_attr} in {@code arena} for a QP of {@code type} on these
     * CQs with these sizes, no SRQ, not every WR signalled; what {@code ibv_create_qp} and
     * {@code rdma_create_qp} take. After the call its {@code cap} holds what the driver granted.
     */
    public static MemorySegment initAttributes(Arena arena, QpType type, CompletionQueue sendCq,
                                               CompletionQueue recvCq, QpCapabilities caps) {
        MemorySegment init = ibv_qp_init_attr.allocate(arena);
        init.fill((byte) 0);
        ibv_qp_init_attr.send_cq(init, sendCq.handle());
        ibv_qp_init_attr.recv_cq(init, recvCq.handle());
        ibv_qp_init_attr.qp_type(init, type.nativeValue());
        ibv_qp_init_attr.sq_sig_all(init, 0);
        caps.writeTo(ibv_qp_init_attr.cap(init));
        return init;
    }

    /**
     * Takes ownership of a QP that another library created and connected on {@code pd}'s device,
     * e.g. {@code rdma_create_qp} + RDMA CM: the object starts in RTS and {@code destroyer} (e.g.
     * {@code rdma_destroy_qp}) replaces {@code ibv_destroy_qp} on close.
     */
    public static QueuePair adoptConnected(ProtectionDomain pd, QpType type, MemorySegment qp, QpCapabilities caps,
                                           CompletionQueue sendCq, CompletionQueue recvCq, Runnable destroyer) {
        return new QueuePair(pd, type, qp, caps, sendCq, recvCq, destroyer, QpState.RTS);
    }

    public int qpn() {
        return qpn;
    }

    public QpType type() {
        return type;
    }

    public QpState state() {
        return state;
    }

    /** The queue sizes the driver granted, including the real maximum inline size. */
    public QpCapabilities capabilities() {
        return capabilities;
    }

    /** The {@code struct ibv_qp *}, for engines; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** The provider's {@code post_send}, for {@link InlineVerbs#postSend}. */
    public MemorySegment postSendFunction() {
        ensureOpen();
        return postSendFn;
    }

    /** The provider's {@code post_recv}, for {@link InlineVerbs#postRecv}. */
    public MemorySegment postRecvFunction() {
        ensureOpen();
        return postRecvFn;
    }

    /** RESET -> INIT on {@code port}, allowing {@code access} from the remote side. */
    public void modifyToInit(int port, Set<Access> access) {
        requireState(QpState.RESET, QpState.INIT);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(arena);
            ibv_qp_attr.qp_state(attr, rdma_h.IBV_QPS_INIT());
            ibv_qp_attr.pkey_index(attr, (short) 0);
            ibv_qp_attr.port_num(attr, (byte) port);
            ibv_qp_attr.qp_access_flags(attr, Access.mask(access));
            int mask = rdma_h.IBV_QP_STATE() | rdma_h.IBV_QP_PKEY_INDEX() | rdma_h.IBV_QP_PORT()
                    | rdma_h.IBV_QP_ACCESS_FLAGS();
            modify(attr, mask, QpState.INIT);
        }
    }

    /** INIT -> RTR: connect to the remote QP described by {@code rtr}. */
    public void modifyToRtr(RtrAttributes rtr) {
        requireState(QpState.INIT, QpState.RTR);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(arena);
            ibv_qp_attr.qp_state(attr, rdma_h.IBV_QPS_RTR());
            ibv_qp_attr.path_mtu(attr, rtr.pathMtu().nativeValue());
            ibv_qp_attr.dest_qp_num(attr, rtr.remoteQpn());
            ibv_qp_attr.rq_psn(attr, rtr.remotePsn());
            writeAddress(ibv_qp_attr.ah_attr(attr), rtr.address());
            int mask = rdma_h.IBV_QP_STATE() | rdma_h.IBV_QP_AV() | rdma_h.IBV_QP_PATH_MTU()
                    | rdma_h.IBV_QP_DEST_QPN() | rdma_h.IBV_QP_RQ_PSN();
            if (type == QpType.RC) {
                ibv_qp_attr.max_dest_rd_atomic(attr, (byte) rtr.maxDestRdAtomic());
                ibv_qp_attr.min_rnr_timer(attr, (byte) rtr.minRnrTimer());
                mask |= rdma_h.IBV_QP_MAX_DEST_RD_ATOMIC() | rdma_h.IBV_QP_MIN_RNR_TIMER();
            }
            modify(attr, mask, QpState.RTR);
        }
    }

    /** RTR -> RTS: start sending from {@code rts.localPsn()}. */
    public void modifyToRts(RtsAttributes rts) {
        requireState(QpState.RTR, QpState.RTS);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(arena);
            ibv_qp_attr.qp_state(attr, rdma_h.IBV_QPS_RTS());
            ibv_qp_attr.sq_psn(attr, rts.localPsn());
            int mask = rdma_h.IBV_QP_STATE() | rdma_h.IBV_QP_SQ_PSN();
            if (type == QpType.RC) {
                ibv_qp_attr.timeout(attr, (byte) rts.timeout());
                ibv_qp_attr.retry_cnt(attr, (byte) rts.retryCount());
                ibv_qp_attr.rnr_retry(attr, (byte) rts.rnrRetry());
                ibv_qp_attr.max_rd_atomic(attr, (byte) rts.maxRdAtomic());
                mask |= rdma_h.IBV_QP_TIMEOUT() | rdma_h.IBV_QP_RETRY_CNT() | rdma_h.IBV_QP_RNR_RETRY()
                        | rdma_h.IBV_QP_MAX_QP_RD_ATOMIC();
            }
            modify(attr, mask, QpState.RTS);
        }
    }

    /**
     * Any state -> ERR: outstanding and later work requests complete with a flush error and the QP
     * stops sending, so a loop in another thread that posts on it ends. Safe to call from a thread
     * other than the one posting (verbs serialise a QP's state changes); not after {@link #close}.
     */
    public void modifyToError() {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = ibv_qp_attr.allocate(arena);
            ibv_qp_attr.qp_state(attr, rdma_h.IBV_QPS_ERR());
            modify(attr, rdma_h.IBV_QP_STATE(), QpState.ERR);
        }
    }

    private static void writeAddress(MemorySegment ah, AddressVector av) {
        ibv_ah_attr.dlid(ah, (short) av.dlid());
        ibv_ah_attr.sl(ah, (byte) av.serviceLevel());
        ibv_ah_attr.src_path_bits(ah, (byte) 0);
        ibv_ah_attr.port_num(ah, (byte) av.portNumber());
        av.remoteGid().ifPresentOrElse(gid -> {
            ibv_ah_attr.is_global(ah, (byte) 1);
            MemorySegment grh = ibv_ah_attr.grh(ah);
            MemorySegment.copy(gid.bytes(), 0, ibv_gid.raw(ibv_global_route.dgid(grh)), ValueLayout.JAVA_BYTE, 0,
                    Gid.BYTES);
            ibv_global_route.sgid_index(grh, (byte) av.sgidIndex());
            ibv_global_route.hop_limit(grh, (byte) av.hopLimit());
            ibv_global_route.traffic_class(grh, (byte) av.trafficClass());
            ibv_global_route.flow_label(grh, av.flowLabel());
        }, () -> ibv_ah_attr.is_global(ah, (byte) 0));
    }

    private void requireState(QpState required, QpState target) {
        ensureOpen();
        if (state != required) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qpn) + " is in " + state + "; moving it to "
                    + target + " needs " + required);
        }
    }

    private void modify(MemorySegment attr, int mask, QpState target) {
        int rc = rdma_h.ibv_modify_qp(handle, attr, mask);
        if (rc != 0) {
            throw RdmaException.of("ibv_modify_qp(QP 0x" + Integer.toHexString(qpn) + " " + state + "->" + target + ")",
                    Math.abs(rc));
        }
        state = target;
    }

    @Override
    protected void destroy() {
        if (destroyer != null) {
            destroyer.run();
            return;
        }
        Calls.check("ibv_destroy_qp(0x" + Integer.toHexString(qpn) + ")", rdma_h.ibv_destroy_qp(handle));
    }

    @Override
    protected String describe() {
        return "QueuePair 0x" + Integer.toHexString(qpn) + " on " + pd.context().deviceName();
    }
}
