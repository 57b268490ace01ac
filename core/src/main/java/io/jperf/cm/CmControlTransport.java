package io.jperf.cm;

import io.jperf.datapath.CompletionBatch;
import io.jperf.datapath.CompletionStatus;
import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.generated.ibv_recv_wr;
import io.jperf.ffi.generated.ibv_send_wr;
import io.jperf.ffi.generated.ibv_sge;
import io.jperf.ffi.generated.rdma_h;
import io.jperf.verbs.Access;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.MemoryRegion;
import io.jperf.verbs.ProtectionDomain;
import io.jperf.verbs.QpCapabilities;
import io.jperf.verbs.QueuePair;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ControlTransport;
import io.jperf.wire.ProtocolException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * perftest's {@code -R} control channel: one reliable RDMA CM connection whose every message is one
 * SEND into a receive the peer posted ({@code rdma_client_connect}/{@code rdma_server_connect} and
 * {@code ctx_xchg_data_rdma} in perftest). The peer's flow control is its single posted receive and
 * RNR retries; this end posts {@value #RECEIVES} receives of {@value ControlChannel#JPERF_CM_RECEIVE}
 * bytes and re-posts each as soon as its message is taken. A message longer than the peer's receive
 * ({@link #limitMessagesTo}) is split; only jperf peers are sent such messages.
 *
 * <p>Lifecycle: {@link #connect} or {@link #accept} returns an established connection with its
 * receives posted; {@link #close} disconnects and frees the QP, buffers and CQs. A disconnect does
 * not complete the peer's posted receive (only this end's QP goes to the error state), so a perftest
 * waiting in one is stopped by {@link #abandon}'s oversized message instead. Threading: one
 * thread drives a transport; not thread-safe.
 */
public final class CmControlTransport implements ControlTransport {
    /** Receives kept posted. */
    static final int RECEIVES = 16;
    private static final int SLOT = ControlChannel.JPERF_CM_RECEIVE;
    private static final long SEND_ID = -1L;
    /**
     * How long {@link #abandon} waits for its oversized message to be taken. perftest polls its control
     * receive with no timeout and never looks at RDMA CM events, so that message is the only thing that
     * stops it; a loaded (emulated) peer may take well over a second to post the receive it lands in.
     */
    private static final Duration ABANDON_WAIT = Duration.ofSeconds(5);
    private static final long RECV_WR_SIZE = ibv_recv_wr.sizeof();
    private static final long SGE_SIZE = ibv_sge.sizeof();
    /** perftest's control connection: no RDMA READ depth, transport and RNR retries 7 (RNR 7 = forever). */
    private static final CmOptions CONTROL = new CmOptions(Duration.ofSeconds(2), 10, java.util.OptionalInt.empty(),
            0, 0, 7, 7, new byte[0]);

    private final CmConnections connections;
    private final Buffers buffers;
    private final InetAddress local;
    private final InetAddress remote;
    private final Deque<byte[]> received = new ArrayDeque<>();
    private int peerLimit = SMALLEST_PEER_RECEIVE;
    private Duration readTimeout;
    private long exchangeDeadline;
    private boolean hasDeadline;
    private boolean closed;

    private CmControlTransport(CmConnections connections, Buffers buffers, CmPath path, Duration readTimeout) {
        this.connections = connections;
        this.buffers = buffers;
        this.local = path.source().map(InetSocketAddress::getAddress).orElse(null);
        this.remote = path.destination().map(InetSocketAddress::getAddress).orElse(null);
        this.readTimeout = readTimeout;
    }

    /**
     * Connects to perftest's (or jperf's) {@code -R} server, as {@code rdma_client_connect} does.
     *
     * @param bindSource the local address to bind ({@code --bind_source_ip}), or null for the route's
     * @throws CmException when the server cannot be reached, e.g. REJECTED when nothing listens on the
     *     port with RDMA CM (a server without {@code -R})
     */
    public static CmControlTransport connect(InetSocketAddress server, InetAddress bindSource, Duration timeout) {
        Objects.requireNonNull(server, "server");
        Buffers buffers = new Buffers();
        CmConnections c = CmClient.connect(server, bindSource, 1, buffers::setUp, CONTROL, timeout);
        return new CmControlTransport(c, buffers, c.get(0).path(), timeout);
    }

    /**
     * Accepts the next client of {@code server} as the control connection ({@code rdma_server_connect}).
     * The listener stays up for the test QPs, which perftest connects to the same port.
     */
    public static CmControlTransport accept(CmServer server, Duration timeout) {
        Buffers buffers = new Buffers();
        CmConnections c = server.accept(1, buffers::setUp, CONTROL, timeout);
        return new CmControlTransport(c, buffers, c.get(0).path(), timeout);
    }

    @Override
    public void write(byte[] message, String step) throws IOException {
        ensureOpen();
        int off = 0;
        do {
            int n = Math.min(peerLimit, message.length - off);
            send(message, off, n, step);
            off += n;
        } while (off < message.length);
    }

    @Override
    public byte[] read(int n, String step) throws IOException {
        ensureOpen();
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            byte[] message = next(step, got, n);
            if (got + message.length > n) {
                throw new ProtocolException("the peer sent a " + message.length + "-byte message during " + step
                        + " where " + (n - got) + " bytes were expected: its version speaks another layout than it"
                        + " reported");
            }
            System.arraycopy(message, 0, out, got, message.length);
            got += message.length;
        }
        return out;
    }

    @Override
    public void deadline(long nanoTime) {
        exchangeDeadline = nanoTime;
        hasDeadline = true;
    }

    @Override
    public void setReadTimeout(Duration timeout) {
        this.readTimeout = timeout;
    }

    @Override
    public Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public void limitMessagesTo(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("a receive holds at least one byte, not " + bytes);
        }
        peerLimit = Math.min(bytes, SLOT);
    }

    @Override
    public boolean messageBased() {
        return true;
    }

    @Override
    public InetAddress localAddress() {
        return local;
    }

    @Override
    public InetAddress remoteAddress() {
        return remote;
    }

    @Override
    public String name() {
        return "RDMA CM";
    }

    /**
     * Sends one message longer than any receive perftest posts (it posts 56 or 320 bytes): the peer's
     * receive completes with a length error, so a perftest busy-polling for the next control message
     * exits instead of waiting forever (it never reads RDMA CM's DISCONNECTED event). Then closes.
     */
    @Override
    public void abandon() {
        if (closed) {
            return;
        }
        try {
            int saved = peerLimit;
            peerLimit = SLOT;
            Duration wait = readTimeout;
            readTimeout = ABANDON_WAIT;
            hasDeadline = false; // an exchange that ran out of time still owes the peer its stop
            try {
                send(new byte[SLOT], 0, SLOT, "breaking off");
            } catch (IOException | RuntimeException expected) {
                // the peer refuses the oversized message (that is the point) or is gone already
            } finally {
                peerLimit = saved;
                readTimeout = wait;
            }
        } finally {
            close();
        }
    }

    /** Disconnects and frees the connection. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connections.close();
        } finally {
            buffers.arena.close();
        }
    }

    private void send(byte[] message, int off, int n, String step) throws IOException {
        MemorySegment.copy(message, off, buffers.sendSlot, ValueLayout.JAVA_BYTE, 0, n);
        buffers.sendSge.set(ValueLayout.JAVA_INT, ibv_sge.length$offset(), n);
        int rc = InlineVerbs.postSend(buffers.qp.postSendFunction(), buffers.qp.handle(), buffers.sendWr, buffers.badWr);
        if (rc != 0) {
            throw new ProtocolException("ibv_post_send of a " + n + "-byte control message failed during " + step
                    + ": " + io.jperf.ffi.Errno.format(rc) + " (the RDMA CM control connection is down)");
        }
        CompletionBatch wc = buffers.sendWc;
        poll(wc, buffers.sendCq, step, "sending");
        if (wc.status(0) != 0) {
            throw new ProtocolException("sending a " + n + "-byte control message during " + step + " failed: "
                    + CompletionStatus.describe(wc.status(0)) + statusHint(wc.status(0)));
        }
    }

    private byte[] next(String step, int got, int n) throws IOException {
        if (!received.isEmpty()) {
            return received.removeFirst();
        }
        CompletionBatch wc = buffers.recvWc;
        int count = poll(wc, buffers.recvCq, step, "waiting for the peer (received " + got + " of " + n + " bytes)");
        for (int i = 0; i < count; i++) {
            if (wc.status(i) != 0) {
                throw new ProtocolException("the peer closed the RDMA CM control connection during " + step
                        + " (receive: " + CompletionStatus.describe(wc.status(i)) + "); see the peer's output for why"
                        + " it stopped");
            }
            int slot = (int) wc.wrId(i);
            int length = wc.byteLength(i);
            byte[] message = new byte[length];
            MemorySegment.copy(buffers.recvSlots, ValueLayout.JAVA_BYTE, (long) slot * SLOT, message, 0, length);
            received.addLast(message);
            buffers.postReceive(slot);
        }
        return received.removeFirst();
    }

    /** Polls until at least one completion arrived: spins briefly, then sleeps in growing steps (at most 1 ms). */
    private int poll(CompletionBatch wc, CompletionQueue cq, String step, String what) throws IOException {
        long start = System.nanoTime();
        long deadline = start + readTimeout.toNanos();
        boolean byExchange = hasDeadline && exchangeDeadline - deadline < 0;
        if (byExchange) {
            deadline = exchangeDeadline;
        }
        int rounds = 0;
        while (true) {
            int count = wc.poll(cq.pollFunction(), cq.handle());
            if (count > 0) {
                return count;
            }
            if (count < 0) {
                throw new ProtocolException("ibv_poll_cq failed on the RDMA CM control connection during " + step);
            }
            long now = System.nanoTime();
            if (now - deadline > 0) {
                if (byExchange) {
                    throw new ProtocolException("the exchange's deadline passed " + what + " during " + step
                            + " on the RDMA CM control connection: the peer is too slow or silent");
                }
                throw new ProtocolException("timed out after " + ControlChannel.seconds(readTimeout) + " " + what
                        + " during " + step + " on the RDMA CM control connection");
            }
            if (++rounds < 2000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(Math.min(1_000_000L, Math.max(20_000L, (now - start) / 100)));
            }
        }
    }

    private static String statusHint(int status) {
        return switch (status) {
            case 9, 10, 11 -> " (the peer could not take the message: it posted a smaller receive, i.e. it speaks"
                    + " another perftest version's layout)";
            case 12, 13 -> " (the peer stopped answering)";
            default -> "";
        };
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the RDMA CM control connection is closed");
        }
    }

    /**
     * The connection's memory: {@value #RECEIVES} receive slots and one send slot in one registered
     * region, the work requests built once, a send and a receive CQ. Created on the device the CM
     * resolved (in {@link #setUp}); the region, PD and CQs go with the borrowed context when the
     * connection closes, the arena with the transport.
     */
    private static final class Buffers {
        final Arena arena = Arena.ofShared();
        MemoryRegion mr;
        MemorySegment recvSlots;
        MemorySegment sendSlot;
        MemorySegment recvWrs;
        MemorySegment recvSges;
        MemorySegment sendWr;
        MemorySegment sendSge;
        MemorySegment badWr;
        CompletionQueue sendCq;
        CompletionQueue recvCq;
        CompletionBatch sendWc;
        CompletionBatch recvWc;
        QueuePair qp;

        QpResources setUp(CmEndpoint endpoint) {
            ProtectionDomain pd = endpoint.context().allocateProtectionDomain();
            mr = pd.allocateAndRegister((long) SLOT * (RECEIVES + 1), 4096, EnumSet.of(Access.LOCAL_WRITE));
            recvSlots = mr.memory().asSlice(0, (long) SLOT * RECEIVES);
            sendSlot = mr.memory().asSlice((long) SLOT * RECEIVES, SLOT);
            sendCq = endpoint.context().createCompletionQueue(4, null);
            recvCq = endpoint.context().createCompletionQueue(RECEIVES, null);
            sendWc = new CompletionBatch(arena, 1);
            recvWc = new CompletionBatch(arena, RECEIVES);
            buildRequests();
            return new QpResources(pd, sendCq, recvCq, new QpCapabilities(2, RECEIVES, 1, 1, 0), new byte[0],
                    this::postAllReceives);
        }

        private void buildRequests() {
            badWr = arena.allocate(ValueLayout.ADDRESS);
            recvWrs = arena.allocate(RECV_WR_SIZE * RECEIVES, 8);
            recvSges = arena.allocate(SGE_SIZE * RECEIVES, 8);
            for (int i = 0; i < RECEIVES; i++) {
                MemorySegment sge = recvSges.asSlice(SGE_SIZE * i, SGE_SIZE);
                ibv_sge.addr(sge, recvSlots.address() + (long) SLOT * i);
                ibv_sge.length(sge, SLOT);
                ibv_sge.lkey(sge, mr.lkey());
                MemorySegment wr = recvWrs.asSlice(RECV_WR_SIZE * i, RECV_WR_SIZE);
                ibv_recv_wr.wr_id(wr, i);
                ibv_recv_wr.next(wr, MemorySegment.NULL);
                ibv_recv_wr.sg_list(wr, sge);
                ibv_recv_wr.num_sge(wr, 1);
            }
            sendSge = arena.allocate(SGE_SIZE, 8);
            ibv_sge.addr(sendSge, sendSlot.address());
            ibv_sge.lkey(sendSge, mr.lkey());
            sendWr = arena.allocate(ibv_send_wr.sizeof(), 8);
            sendWr.fill((byte) 0);
            ibv_send_wr.wr_id(sendWr, SEND_ID);
            ibv_send_wr.next(sendWr, MemorySegment.NULL);
            ibv_send_wr.sg_list(sendWr, sendSge);
            ibv_send_wr.num_sge(sendWr, 1);
            ibv_send_wr.opcode(sendWr, rdma_h.IBV_WR_SEND());
            ibv_send_wr.send_flags(sendWr, rdma_h.IBV_SEND_SIGNALED());
        }

        private void postAllReceives(QueuePair created) {
            qp = created;
            for (int i = 0; i < RECEIVES; i++) {
                postReceive(i);
            }
        }

        void postReceive(int slot) {
            MemorySegment wr = recvWrs.asSlice(RECV_WR_SIZE * slot, RECV_WR_SIZE);
            int rc = InlineVerbs.postRecv(qp.postRecvFunction(), qp.handle(), wr, badWr);
            if (rc != 0) {
                throw io.jperf.verbs.RdmaException.of("ibv_post_recv (RDMA CM control QP, slot " + slot + ")", rc);
            }
        }
    }
}
