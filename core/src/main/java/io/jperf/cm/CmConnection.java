package io.jperf.cm;

import io.jperf.verbs.Context;
import io.jperf.verbs.QueuePair;

import java.util.Objects;

/**
 * One established RDMA CM connection: its connected RC {@link QueuePair} (RTS, made with
 * {@code rdma_create_qp} on the engine's PD), the {@link CmPath} it resolved to, and the peer's
 * private data. Part of a {@link CmConnections}, which closes it.
 *
 * <p>Threading: the QP may be handed to the engine's data-path thread; {@link #close()} is safe from
 * any thread once that thread stopped using the QP.
 */
public final class CmConnection implements AutoCloseable {
    private final int index;
    private final CmId id;
    private final QueuePair queuePair;
    private final CmPath path;
    private final byte[] peerPrivateData;
    private final Context context;

    CmConnection(int index, CmId id, QueuePair queuePair, CmPath path, byte[] peerPrivateData, Context context) {
        this.index = index;
        this.id = Objects.requireNonNull(id, "id");
        this.queuePair = Objects.requireNonNull(queuePair, "queuePair");
        this.path = Objects.requireNonNull(path, "path");
        this.peerPrivateData = peerPrivateData.clone();
        this.context = Objects.requireNonNull(context, "context");
    }

    /** @return 0 .. count-1, in connect/accept order */
    public int index() {
        return index;
    }

    /** @return the connected QP (RTS); closing it destroys it with {@code rdma_destroy_qp} */
    public QueuePair queuePair() {
        return queuePair;
    }

    /** @return what the CM resolved: device, port, addresses, GIDs, the kernel's route */
    public CmPath path() {
        return path;
    }

    /**
     * @return the peer's private data: on the client, what the server sent with its accept; on the
     *     server, what the client sent with its connect request; zero-padded by the transport
     */
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    /** @return the borrowed device context the QP (and the engine's PD/CQs) live on */
    public Context context() {
        return context;
    }

    /** @return the CM id, for what this class does not wrap */
    public CmId id() {
        return id;
    }

    /** {@code rdma_disconnect} (best effort), then the QP and the id. Idempotent. */
    @Override
    public void close() {
        if (id.isClosed()) {
            return;
        }
        try {
            id.disconnect();
        } catch (RuntimeException e) {
            // best effort: the peer may be gone already
        }
        id.close();
    }

    @Override
    public String toString() {
        return "connection " + index + ": QP 0x" + Integer.toHexString(queuePair.qpn()) + ", " + path.describe();
    }
}
