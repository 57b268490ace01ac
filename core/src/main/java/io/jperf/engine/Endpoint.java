package io.jperf.engine;

import io.jperf.options.BufferOptions;
import io.jperf.options.Connection;
import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import io.jperf.path.GidChoice;
import io.jperf.verbs.Access;
import io.jperf.verbs.AddressVector;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.Context;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.MemoryRegion;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import io.jperf.verbs.QpType;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RdmaUnavailableException;
import io.jperf.verbs.RtrAttributes;
import io.jperf.verbs.RtsAttributes;
import io.jperf.wire.KeyMessage;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One side of a test: the device and port, the chosen GID, a protection domain, one
 * registered buffer, a send CQ and the test QPs. Each QP owns two slices of the buffer of
 * {@link #sliceSize()} bytes: the first is its local side (what it writes from, where its reads
 * land), the second is what it advertises to the peer (where the peer writes, what the peer reads).
 *
 * <p>Lifecycle: {@link #open} validates the port and GID before creating anything, creates every
 * object and moves the QPs to INIT; {@link #connect} moves them to RTR and RTS against the peer's
 * key messages; {@link #close} frees everything (children first). Threading: one thread.
 */
final class Endpoint implements AutoCloseable {
    private static final int PAGE = 4096;
    private static final int MELLANOX_VENDOR = 0x02c9;
    private static final SecureRandom PSN_SOURCE = new SecureRandom();

    private final TestOptions options;
    private final Context ctx;
    private final PortInfo port;
    private final Optional<GidEntry> gid;
    private final int inlineSize;
    private final int outstandingReads;
    private final long sliceSize;
    private final ProtectionDomain pd;
    private final List<MemoryRegion> mrs;
    private final BufferLayout layout;
    private final CompletionQueue cq;
    private final List<QueuePair> qps = new ArrayList<>();
    private final int[] psns;

    private Endpoint(TestOptions options, Context ctx, PortInfo port, Optional<GidEntry> gid, int inlineSize,
                     int outstandingReads, long sliceSize, ProtectionDomain pd, List<MemoryRegion> mrs,
                     CompletionQueue cq, int[] psns) {
        this.options = options;
        this.ctx = ctx;
        this.port = port;
        this.gid = gid;
        this.inlineSize = inlineSize;
        this.outstandingReads = outstandingReads;
        this.sliceSize = sliceSize;
        this.pd = pd;
        this.mrs = List.copyOf(mrs);
        this.layout = new BufferLayout(options.params().numQps(), sliceSize, options.params().buffers().mrPerQp());
        this.cq = cq;
        this.psns = psns;
    }

    /** Opens the device named by the options, creates every object and moves the QPs to INIT. */
    static Endpoint open(TestOptions options) {
        Context ctx = Rdma.open(options.target().device());
        try {
            PortInfo port = activePort(ctx, options.target().ibPort());
            Endpoint endpoint = create(options, ctx, port,
                    GidChoice.of(ctx.deviceName(), port, options.target().gidIndex()).require());
            endpoint.createQueuePairs();
            return endpoint;
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /**
     * Builds the buffers and CQ on a device context RDMA CM resolved to (borrowed: the CM owns the
     * device), for QPs the CM will create and connect ({@link #adoptQueuePairs}).
     *
     * @param sgid the source GID the CM resolved, to find its entry in the port's GID table
     */
    static Endpoint forRdmaCm(TestOptions options, Context ctx, int portNumber, Gid sgid) {
        PortInfo port = activePort(ctx, portNumber);
        Optional<GidEntry> gid = port.gids().stream().filter(g -> g.gid().equals(sgid)).findFirst();
        return create(options, ctx, port, gid);
    }

    private static PortInfo activePort(Context ctx, int portNumber) {
        PortInfo port = ctx.queryPort(portNumber);
        if (port.state() != PortState.ACTIVE) {
            throw new RdmaUnavailableException("port " + portNumber + " of " + ctx.deviceName() + " is "
                    + port.state() + ", not ACTIVE: check the link (`ip link` for the RoCE netdev, cable, switch"
                    + " port) and `jperf devices -d " + ctx.deviceName() + "`");
        }
        return port;
    }

    private static Endpoint create(TestOptions options, Context ctx, PortInfo port, Optional<GidEntry> gid) {
        int inline = inlineSize(options.params(), ctx);
        int reads = outstandingReads(options.params(), ctx);
        long slice = alignUp(Math.max(options.params().maxMessageSize(), PAGE), PAGE);
        int numQps = options.params().numQps();
        ProtectionDomain pd = ctx.allocateProtectionDomain();
        List<MemoryRegion> mrs = registerBuffers(options.params(), pd, slice);
        // one CQ for both queues: a SEND test's receive completions land next to the send completions
        CompletionQueue cq = ctx.createCompletionQueue(
                Math.max(16, (sendDepth(options.params()) + receiveDepth(options.params())) * numQps), null);
        int[] psns = new int[numQps];
        for (int q = 0; q < numQps; q++) {
            psns[q] = PSN_SOURCE.nextInt() & 0xffffff;
        }
        return new Endpoint(options, ctx, port, gid, inline, reads, slice, pd, mrs, cq, psns);
    }

    /**
     * Each QP's send and receive slices: in one region, or with {@code --mr_per_qp} in a region per QP as
     * perftest; from huge pages with {@code --use_hugepages}. The regions belong to the PD (closed with it).
     */
    private static List<MemoryRegion> registerBuffers(TestParameters p, ProtectionDomain pd, long slice) {
        BufferOptions buffers = p.buffers();
        BufferLayout layout = new BufferLayout(p.numQps(), slice, buffers.mrPerQp());
        long size = layout.regionSize();
        List<MemoryRegion> mrs = new ArrayList<>(layout.regions());
        try {
            for (int r = 0; r < layout.regions(); r++) {
                mrs.add(buffers.hugePages() ? pd.allocateHugePagesAndRegister(size, regionAccess(p))
                        : pd.allocateAndRegister(size, PAGE, regionAccess(p)));
            }
        } catch (RuntimeException e) {
            mrs.forEach(MemoryRegion::close);
            pd.close();
            throw e;
        }
        return mrs;
    }

    /** What the peer may do to the buffer: write and read, and atomics in atomic tests (perftest's flags). */
    private static Set<Access> regionAccess(TestParameters p) {
        Set<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
        if (p.kind().verb().isAtomic()) {
            access.add(Access.REMOTE_ATOMIC);
        }
        return access;
    }

    private static int sendDepth(TestParameters p) {
        return p.kind().isBandwidth() ? p.txDepth() : 1;
    }

    /** Receive work requests per QP: {@code -r} for verbs that receive, else 1 (the verbs minimum jperf asks for). */
    private static int receiveDepth(TestParameters p) {
        return p.kind().verb().usesReceives() ? p.rxDepth() : 1;
    }

    /**
     * perftest's {@code -o}: for READ the requested count, or the device's {@code max_qp_rd_atom} when none was
     * given or the request is above it; 1 for the other verbs.
     */
    private static int outstandingReads(TestParameters p, Context ctx) {
        if (!p.kind().verb().usesOutstandingReads()) {
            return 1;
        }
        int max = Math.max(1, ctx.maxOutstandingReads());
        int asked = p.outstandingReads();
        return asked <= 0 || asked > max ? max : asked;
    }

    private QpType qpType() {
        return options.params().connection() == Connection.UC ? QpType.UC : QpType.RC;
    }

    /** The QP sizes this test needs (the CM creates its QPs with these too). */
    QpCapabilities capabilities() {
        return new QpCapabilities(sendDepth(options.params()), receiveDepth(options.params()), 1, 1, inlineSize);
    }

    ProtectionDomain protectionDomain() {
        return pd;
    }

    private void createQueuePairs() {
        Set<Access> remote = qpType() == QpType.RC
                ? regionAccess(options.params())
                : EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        for (int q = 0; q < options.params().numQps(); q++) {
            QueuePair qp = pd.createQueuePair(qpType(), cq, cq, capabilities());
            qp.modifyToInit(options.target().ibPort(), remote);
            qps.add(qp);
        }
    }

    /** Takes the QPs RDMA CM created on this endpoint's PD and connected (RTS). */
    void adoptQueuePairs(List<QueuePair> connected) {
        if (!qps.isEmpty() || connected.size() != options.params().numQps()) {
            throw new IllegalStateException("expected " + options.params().numQps() + " connected QPs, got " + connected.size());
        }
        qps.addAll(connected);
        for (int q = 0; q < connected.size(); q++) {
            psns[q] = 0;
        }
    }

    private static int inlineSize(TestParameters p, Context ctx) {
        if (!p.kind().verb().inlineAllowed()) {
            return 0;
        }
        if (p.inlineSizeExplicit() || p.kind().isBandwidth()) {
            return p.inlineSize();
        }
        return ctx.query().vendorId() == MELLANOX_VENDOR ? p.kind().verb().knownNicLatencyInline() : 0;
    }

    private static long alignUp(long value, long alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }

    /** This side's MTU before agreeing with the peer: {@code -m} or the port's active MTU. */
    Mtu localMtu() {
        return options.params().mtu() != null ? Mtu.fromBytes(options.params().mtu()) : port.activeMtu();
    }

    /** What this side sends the peer for QP {@code q}: where to write, with which key, and how to reach it. */
    KeyMessage localKey(int q) {
        byte[] gidBytes = gid.map(g -> g.gid().bytes()).orElse(null);
        return new KeyMessage(port.lid(), outstandingReads, qps.get(q).qpn(), psns[q], region(q).rkey(),
                receiveAddress(q), 0, gidBytes);
    }

    List<KeyMessage> localKeys() {
        List<KeyMessage> keys = new ArrayList<>(qps.size());
        for (int q = 0; q < qps.size(); q++) {
            keys.add(localKey(q));
        }
        return keys;
    }

    /** Moves every QP to RTR and RTS against the peer's key messages. */
    void connect(List<KeyMessage> remote, Mtu pathMtu) {
        if (remote.size() != qps.size()) {
            throw new IllegalStateException("the peer sent " + remote.size() + " QP keys for our " + qps.size()
                    + " QPs: both sides must use the same -q");
        }
        for (int q = 0; q < qps.size(); q++) {
            KeyMessage r = remote.get(q);
            Optional<Gid> remoteGid = gid.isPresent() && r.hasGid() ? Optional.of(Gid.of(r.gid())) : Optional.empty();
            AddressVector av = new AddressVector(r.lid(), options.params().serviceLevel(), options.target().ibPort(), remoteGid,
                    gid.map(GidEntry::index).orElse(0), 0xff, options.params().trafficClass(), 0);
            QueuePair qp = qps.get(q);
            // as perftest: our responder resources are our -o, our reads in flight at most the peer's -o
            int requesterReads = Math.max(1, Math.min(r.outReads(), outstandingReads));
            qp.modifyToRtr(new RtrAttributes(pathMtu, r.qpn(), r.psn(), outstandingReads, 12, av));
            qp.modifyToRts(new RtsAttributes(psns[q], options.params().qpTimeout(), 7, 7, requesterReads));
        }
    }

    /** The region holding QP {@code q}'s buffers. */
    private MemoryRegion region(int q) {
        return mrs.get(layout.regionOf(q));
    }

    long sendAddress(int q) {
        return region(q).address() + layout.sendOffset(q);
    }

    long receiveAddress(int q) {
        return sendAddress(q) + sliceSize;
    }

    MemorySegment sendBuffer(int q) {
        return region(q).memory().asSlice(layout.sendOffset(q), sliceSize);
    }

    MemorySegment receiveBuffer(int q) {
        return region(q).memory().asSlice(layout.receiveOffset(q), sliceSize);
    }

    long sliceSize() {
        return sliceSize;
    }

    /** The local key of QP {@code q}'s buffers. */
    int lkey(int q) {
        return region(q).lkey();
    }

    /** The remote key of QP {@code q}'s buffers (what the peer writes with; {@link SelfConnectedQps} too). */
    int rkey(int q) {
        return region(q).rkey();
    }

    int inlineSize() {
        return inlineSize;
    }

    /** The receive work requests kept posted per QP ({@code -r}); 0 when the verb does not receive. */
    int receiveDepth() {
        return options.params().kind().verb().usesReceives() ? options.params().rxDepth() : 0;
    }

    /** The outstanding RDMA READs per QP this end grants and uses ({@code -o}); 1 when the verb has none. */
    int outstandingReads() {
        return outstandingReads;
    }

    Context context() {
        return ctx;
    }

    PortInfo port() {
        return port;
    }

    Optional<GidEntry> gid() {
        return gid;
    }

    CompletionQueue cq() {
        return cq;
    }

    List<QueuePair> qps() {
        return List.copyOf(qps);
    }

    @Override
    public void close() {
        ctx.close();
    }
}
