package io.jperf.cm;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.NativeBytes;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.ibv_context;
import io.jperf.ffi.generated.ibv_gid;
import io.jperf.ffi.generated.ibv_qp_init_attr;
import io.jperf.ffi.generated.rdma_addr;
import io.jperf.ffi.generated.rdma_cm_id;
import io.jperf.ffi.generated.rdma_conn_param;
import io.jperf.ffi.generated.rdma_h;
import io.jperf.ffi.generated.rdma_ib_addr;
import io.jperf.ffi.generated.rdma_route;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.Gid;
import io.jperf.verbs.NativeResource;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import io.jperf.verbs.QpType;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.RdmaException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * An RDMA CM identifier ({@code struct rdma_cm_id}, port space {@code RDMA_PS_TCP}): the
 * connection-manager side of one reliable connection, or a listener. Child of its
 * {@link CmEventChannel}; owns the QP made with {@link #createQp} and destroys it
 * ({@code rdma_destroy_qp}) before itself ({@code rdma_destroy_id}).
 *
 * <p>Active side: {@link #bind} (to the chosen source: otherwise the kernel's main-table route
 * picks the rail), {@link #resolveAddress}, optionally {@link #setTos}, {@link #resolveRoute},
 * {@link #createQp}, {@link #connect}. Passive side: {@link #bind}, {@link #listen}, then per
 * connect request {@link CmServer} adopts the new id, {@link #createQp}, {@link #accept}. Every
 * wait has a timeout; every failure is a {@link CmException} naming the call, the addresses and the
 * kernel's route for them.
 *
 * <p>Threading: not thread-safe, except {@code close()}; drive an id from the thread that drives
 * its channel.
 */
public final class CmId extends NativeResource {

    /** Extra wait beyond a resolve try's own timeout before the try counts as lost. */
    private static final Duration RESOLVE_GRACE = Duration.ofSeconds(1);

    private final CmEventChannel channel;
    private final MemorySegment handle;
    private final long address;
    private final RouteExplainer explainer;
    private InetSocketAddress boundSource;
    private InetSocketAddress destination;
    private MemorySegment rawQp = MemorySegment.NULL;
    private ProtectionDomain qpPd;
    private CompletionQueue qpSendCq;
    private CompletionQueue qpRecvCq;
    private QpCapabilities qpCaps;
    private QueuePair qp;

    private CmId(CmEventChannel channel, MemorySegment id, RouteExplainer explainer) {
        super(channel);
        this.channel = channel;
        this.handle = NativeMemory.ofLayout(id, rdma_cm_id.layout());
        this.address = id.address();
        this.explainer = explainer;
    }

    static CmId create(CmEventChannel channel) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            if (ErrnoCalls.rdma_create_id(state, channel.handle(), out, MemorySegment.NULL, rdma_h.RDMA_PS_TCP()) != 0) {
                throw RdmaException.of("rdma_create_id(RDMA_PS_TCP)", ErrnoCalls.errno(state));
            }
            return new CmId(channel, out.get(ValueLayout.ADDRESS, 0), RouteExplainer.live());
        }
    }

    /** Wraps the new id of a connect request (librdmacm created it on the listener's channel). */
    static CmId adoptRequest(CmEventChannel channel, CmEvent request, InetSocketAddress local) {
        CmId id = new CmId(channel, MemorySegment.ofAddress(request.id()), RouteExplainer.live());
        id.boundSource = local;
        id.destination = id.path(false).destination().orElse(null);
        return id;
    }

    /** The {@code struct rdma_cm_id *}; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** The id's address, as events name it. */
    public long address() {
        return address;
    }

    /**
     * The device context librdmacm opened for this id ({@code cm_id->verbs}), NULL until the id is
     * bound to an RDMA address or resolved. librdmacm keeps it open for the life of the process.
     */
    public MemorySegment verbsHandle() {
        ensureOpen();
        return rdma_cm_id.verbs(handle);
    }

    /**
     * {@code rdma_bind_addr}: binds the id to a local address (port 0 = any). On the active side this
     * pins the source address, and with it the RDMA device and the route lookup's source.
     *
     * @throws CmException e.g. EADDRNOTAVAIL (not an address here), ENODEV (no RDMA device on it)
     */
    public void bind(InetSocketAddress local) {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            if (ErrnoCalls.rdma_bind_addr(state, handle, SockAddrs.encode(local, arena)) != 0) {
                throw CmException.of("rdma_bind_addr", CmException.Kind.CALL_FAILED, null, ErrnoCalls.errno(state),
                        local, null, 1, Duration.ZERO, null);
            }
        }
        boundSource = local;
    }

    /**
     * {@code rdma_resolve_addr} to {@code remote}, retried on ADDR_ERROR like perftest: up to
     * {@code tries} tries of {@code perTry} each, all within {@code overall}.
     *
     * @throws CmException for a failed call, ADDR_ERROR after the last try, another event, or no
     *                     event in time; with the kernel's route for the pair
     */
    public void resolveAddress(InetSocketAddress remote, Duration perTry, int tries, Duration overall) {
        ensureOpen();
        destination = remote;
        Deadline deadline = Deadline.after(overall);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = SockAddrs.encode(remote, arena);
            retry("rdma_resolve_addr", CmEventType.ADDR_RESOLVED, CmEventType.ADDR_ERROR, perTry, tries, deadline,
                    state -> ErrnoCalls.rdma_resolve_addr(state, handle, MemorySegment.NULL, dst, millis(perTry)));
        }
    }

    /**
     * {@code rdma_resolve_route}, retried on ROUTE_ERROR like {@link #resolveAddress}. Set the TOS
     * before this: the route (and on RoCE the traffic class) is chosen with it.
     */
    public void resolveRoute(Duration perTry, int tries, Duration overall) {
        ensureOpen();
        Deadline deadline = Deadline.after(overall);
        retry("rdma_resolve_route", CmEventType.ROUTE_RESOLVED, CmEventType.ROUTE_ERROR, perTry, tries, deadline,
                state -> ErrnoCalls.rdma_resolve_route(state, handle, millis(perTry)));
    }

    private interface Call {
        int invoke(MemorySegment callState);
    }

    private void retry(String call, CmEventType success, CmEventType retryOn, Duration perTry, int tries,
                       Deadline deadline, Call invoke) {
        CmEvent last = null;
        int tried = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            while (tried < tries) {
                if (tried > 0 && deadline.passed()) {
                    break;
                }
                tried++;
                if (invoke.invoke(state) != 0) {
                    throw failure(call, CmException.Kind.CALL_FAILED, null, ErrnoCalls.errno(state), tried, perTry);
                }
                Duration wait = deadline.cap(perTry.plus(RESOLVE_GRACE));
                Optional<CmEvent> event = channel.awaitFor(address, wait);
                if (event.isEmpty()) {
                    throw failure(call, CmException.Kind.TIMEOUT, null, 0, tried, wait);
                }
                CmEvent e = event.get();
                if (e.type() == success) {
                    return;
                }
                if (e.type() != retryOn) {
                    throw failure(call, e.type().isError() ? CmException.Kind.ERROR_EVENT
                            : CmException.Kind.UNEXPECTED_EVENT, e, 0, tried, perTry);
                }
                last = e;
            }
        }
        throw failure(call, CmException.Kind.ERROR_EVENT, last, 0, tried, perTry);
    }

    /** {@code rdma_set_option(RDMA_OPTION_ID, RDMA_OPTION_ID_TOS)}: the IP TOS byte of this connection. */
    public void setTos(int tos) {
        ensureOpen();
        if (tos < 0 || tos > 255) {
            throw new IllegalArgumentException("tos is a byte (0..255), not " + tos);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment value = arena.allocateFrom(ValueLayout.JAVA_BYTE, (byte) tos);
            if (ErrnoCalls.rdma_set_option(state, handle, rdma_h.RDMA_OPTION_ID(), rdma_h.RDMA_OPTION_ID_TOS(),
                    value, 1L) != 0) {
                throw failure("rdma_set_option(RDMA_OPTION_ID_TOS, " + tos + ")", CmException.Kind.CALL_FAILED, null,
                        ErrnoCalls.errno(state), 1, Duration.ZERO);
            }
        }
    }

    /** {@code rdma_listen}: accept up to {@code backlog} pending connect requests. Bind first. */
    public void listen(int backlog) {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            if (ErrnoCalls.rdma_listen(state, handle, backlog) != 0) {
                throw CmException.of("rdma_listen(backlog " + backlog + ")", CmException.Kind.CALL_FAILED, null,
                        ErrnoCalls.errno(state), boundSource, null, 1, Duration.ZERO, null);
            }
        }
    }

    /**
     * {@code rdma_create_qp}: an RC QP on {@code pd}, which must belong to this id's device
     * ({@link #verbsHandle()}). librdmacm moves it through INIT/RTR/RTS during connect/accept;
     * {@link #queuePair()} hands it over once the connection is established.
     *
     * @return the capabilities the driver granted
     */
    public QpCapabilities createQp(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
                                   QpCapabilities caps) {
        ensureOpen();
        if (!rawQp.equals(MemorySegment.NULL)) {
            throw new IllegalStateException(describe() + " already has a QP");
        }
        MemorySegment verbs = verbsHandle();
        if (!pd.context().handle().equals(verbs)) {
            throw new IllegalArgumentException("the protection domain is on " + pd.context().deviceName()
                    + " (context " + pd.context().handle() + "), not on the CM id's device context " + verbs
                    + ": allocate it on the Context the QpSetup was given");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = QueuePair.initAttributes(arena, QpType.RC, sendCq, recvCq, caps);
            MemorySegment state = ErrnoCalls.newCallState(arena);
            if (ErrnoCalls.rdma_create_qp(state, handle, pd.handle(), init) != 0) {
                throw RdmaException.of("rdma_create_qp(RC, " + caps + ") on " + pd.context().deviceName(),
                        ErrnoCalls.errno(state));
            }
            rawQp = rdma_cm_id.qp(handle);
            qpPd = pd;
            qpSendCq = sendCq;
            qpRecvCq = recvCq;
            qpCaps = QpCapabilities.readFrom(ibv_qp_init_attr.cap(init));
            return qpCaps;
        }
    }

    /**
     * {@code rdma_connect}, then waits for ESTABLISHED.
     *
     * @return the ESTABLISHED event; its private data is what the server sent with its accept
     * @throws CmException for REJECTED (with the peer's reason and private data), UNREACHABLE,
     *                     CONNECT_ERROR, any other event, or no event within {@code wait}
     */
    public CmEvent connect(CmOptions options, Duration wait) {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = connParam(arena, options, options.responderResources(), options.initiatorDepth());
            MemorySegment state = ErrnoCalls.newCallState(arena);
            if (ErrnoCalls.rdma_connect(state, handle, param) != 0) {
                throw failure("rdma_connect", CmException.Kind.CALL_FAILED, null, ErrnoCalls.errno(state), 1, wait);
            }
        }
        return awaitEstablished("rdma_connect", wait);
    }

    /**
     * {@code rdma_accept} of the connect request this id came from, then waits for ESTABLISHED.
     * Responder resources and initiator depth are capped by what the client offered.
     *
     * @return the ESTABLISHED event
     */
    public CmEvent accept(CmOptions options, CmEvent request, Duration wait) {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = connParam(arena, options,
                    Math.min(options.responderResources(), request.initiatorDepth()),
                    Math.min(options.initiatorDepth(), request.responderResources()));
            MemorySegment state = ErrnoCalls.newCallState(arena);
            if (ErrnoCalls.rdma_accept(state, handle, param) != 0) {
                throw failure("rdma_accept", CmException.Kind.CALL_FAILED, null, ErrnoCalls.errno(state), 1, wait);
            }
        }
        return awaitEstablished("rdma_accept", wait);
    }

    private CmEvent awaitEstablished(String call, Duration wait) {
        Optional<CmEvent> event = channel.awaitFor(address, wait);
        if (event.isEmpty()) {
            throw failure(call, CmException.Kind.TIMEOUT, null, 0, 1, wait);
        }
        CmEvent e = event.get();
        if (e.type() != CmEventType.ESTABLISHED) {
            throw failure(call, e.type().isError() ? CmException.Kind.ERROR_EVENT
                    : CmException.Kind.UNEXPECTED_EVENT, e, 0, 1, wait);
        }
        return e;
    }

    private static MemorySegment connParam(Arena arena, CmOptions options, int responderResources,
                                           int initiatorDepth) {
        MemorySegment param = rdma_conn_param.allocate(arena);
        param.fill((byte) 0);
        byte[] data = options.privateData();
        if (data.length > 0) {
            rdma_conn_param.private_data(param, NativeBytes.allocateFrom(arena, data));
            rdma_conn_param.private_data_len(param, (byte) data.length);
        }
        rdma_conn_param.responder_resources(param, (byte) responderResources);
        rdma_conn_param.initiator_depth(param, (byte) initiatorDepth);
        rdma_conn_param.retry_count(param, (byte) options.retryCount());
        rdma_conn_param.rnr_retry_count(param, (byte) options.rnrRetryCount());
        return param;
    }

    /** {@code rdma_reject} of the connect request this id came from, with optional private data (max 148 bytes). */
    public void reject(byte[] privateData) {
        ensureOpen();
        byte[] data = privateData == null ? new byte[0] : privateData;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment ptr = data.length == 0 ? MemorySegment.NULL : NativeBytes.allocateFrom(arena, data);
            if (ErrnoCalls.rdma_reject(state, handle, ptr, (byte) data.length) != 0) {
                throw failure("rdma_reject", CmException.Kind.CALL_FAILED, null, ErrnoCalls.errno(state), 1,
                        Duration.ZERO);
            }
        }
    }

    /**
     * {@code rdma_disconnect}: moves the QP to the error state and tells the peer. Does not wait for
     * the DISCONNECTED event.
     *
     * @return {@code false} if the id was not connected (EINVAL) or the call failed otherwise
     */
    public boolean disconnect() {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            return ErrnoCalls.rdma_disconnect(ErrnoCalls.newCallState(arena), handle) == 0;
        }
    }

    /**
     * The connected QP as a verbs {@link QueuePair} in RTS, owned by this id (closing either
     * destroys it with {@code rdma_destroy_qp}); created on the first call.
     *
     * @throws IllegalStateException before {@link #createQp}
     */
    public QueuePair queuePair() {
        ensureOpen();
        if (qp == null) {
            if (rawQp.equals(MemorySegment.NULL)) {
                throw new IllegalStateException(describe() + " has no QP: call createQp first");
            }
            qp = QueuePair.adoptConnected(qpPd, QpType.RC, rawQp, qpCaps, qpSendCq, qpRecvCq, this::destroyQp);
        }
        return qp;
    }

    private void destroyQp() {
        if (!rawQp.equals(MemorySegment.NULL)) {
            rdma_h.rdma_destroy_qp(handle);
            rawQp = MemorySegment.NULL;
        }
    }

    /**
     * What the CM resolved: device, port, addresses, GIDs and the kernel's route for the pair.
     * Meaningful after {@link #resolveRoute} (active side) or for an accepted id.
     */
    public CmPath path() {
        ensureOpen();
        return path(true);
    }

    private CmPath path(boolean withRoute) {
        MemorySegment verbs = rdma_cm_id.verbs(handle);
        String device = "(no device)";
        if (!verbs.equals(MemorySegment.NULL)) {
            MemorySegment ctx = NativeMemory.ofLayout(verbs, ibv_context.layout());
            device = NativeMemory.cString(rdma_h.ibv_get_device_name(ibv_context.device(ctx)), 64);
        }
        int port = Byte.toUnsignedInt(rdma_cm_id.port_num(handle));
        MemorySegment addr = rdma_route.addr(rdma_cm_id.route(handle));
        Optional<InetSocketAddress> src = SockAddrs.decode(rdma_addr.src_storage(addr));
        Optional<InetSocketAddress> dst = SockAddrs.decode(rdma_addr.dst_storage(addr));
        MemorySegment ib = rdma_addr.addr.ibaddr(rdma_addr.addr(addr));
        Gid sgid = Gid.of(NativeBytes.toArray(ibv_gid.raw(rdma_ib_addr.sgid(ib))));
        Gid dgid = Gid.of(NativeBytes.toArray(ibv_gid.raw(rdma_ib_addr.dgid(ib))));
        RouteReport route = withRoute && dst.isPresent()
                ? explainer.explain(src.map(InetSocketAddress::getAddress).filter(a -> !a.isAnyLocalAddress())
                        .orElse(null), dst.get().getAddress())
                : new RouteReport(src.map(InetSocketAddress::getAddress), dst.map(InetSocketAddress::getAddress)
                        .orElse(InetAddress.getLoopbackAddress()), Optional.empty(), Optional.of("not looked up"),
                        Optional.empty(), Optional.empty(), 0);
        return new CmPath(device, port, src, dst, sgid, dgid, route);
    }

    private CmException failure(String call, CmException.Kind kind, CmEvent event, int errno, int tries,
                                Duration perTry) {
        // The address the kernel actually uses (with its CM port) once bound or resolved, else what was asked.
        InetSocketAddress src = SockAddrs.decode(rdma_addr.src_storage(rdma_route.addr(rdma_cm_id.route(handle))))
                .filter(a -> !a.getAddress().isAnyLocalAddress()).orElse(boundSource);
        RouteReport route = destination == null ? null
                : explainer.explain(src == null ? null : src.getAddress(), destination.getAddress());
        return CmException.of(call, kind, event, errno, src, destination, tries, perTry, route);
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }

    /** Best-effort cleanup of an id nobody adopted (a queued connect request). */
    static void rejectAndDestroy(MemorySegment id) {
        rdma_h.rdma_reject(id, MemorySegment.NULL, (byte) 0);
        rdma_h.rdma_destroy_id(id);
    }

    /** Destroys the QP (adopted or not) now, keeping the id; idempotent. */
    void releaseQp() {
        if (qp != null) {
            qp.close();
        } else {
            destroyQp();
        }
    }

    /** Destroys the QP first (if any), then the id; drops its queued events. */
    @Override
    protected void destroy() {
        RuntimeException failure = null;
        try {
            releaseQp();
        } catch (RuntimeException e) {
            failure = e;
        }
        int rc = rdma_h.rdma_destroy_id(handle);
        for (CmEvent request : channel.forget(address)) {
            rejectAndDestroy(MemorySegment.ofAddress(request.id()));
        }
        if (rc != 0 && failure == null) {
            failure = new RdmaException("rdma_destroy_id", 0, "it returned " + rc);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    protected String describe() {
        return "CmId 0x" + Long.toHexString(address);
    }
}
