package io.jperf.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;

/**
 * How control messages travel between the two ends. perftest has two: a TCP connection
 * ({@link TcpTransport}, the default) and, with {@code -R}, a reliable RDMA CM queue pair on which
 * every message is one SEND into a receive the peer posted ({@code io.jperf.cm.CmControlTransport}).
 * A transport moves bytes or whole messages; which messages go in which order is
 * {@link ControlChannel}'s and {@link PerftestHandshake}'s business.
 *
 * <p>Lifecycle: connected when created; {@link #close} is idempotent and unblocks nothing (one
 * thread drives a transport). Not thread-safe.
 */
public interface ControlTransport extends AutoCloseable {

    /**
     * Sends one message. A message-based transport splits a message longer than
     * {@link #limitMessagesTo the peer's receive} into several; only jperf peers are sent such messages.
     *
     * @param step what the exchange is for, named in errors
     * @throws ProtocolException when the peer is gone
     */
    void write(byte[] message, String step) throws IOException;

    /**
     * Reads exactly {@code n} bytes, waiting at most the {@linkplain #readTimeout read timeout}. A
     * message-based transport requires whole messages: a message that would run past {@code n} bytes
     * is a protocol error (the peer speaks another layout).
     *
     * @throws ProtocolException naming {@code step} when the peer closes, stalls or sends another size
     */
    byte[] read(int n, String step) throws IOException;

    /** Sets how long each {@link #read} may wait, e.g. longer while the peer measures. */
    void setReadTimeout(Duration timeout) throws IOException;

    /** The current read timeout. */
    Duration readTimeout();

    /**
     * Bounds every later {@link #read} by {@code nanoTime} ({@link System#nanoTime()} scale) as well as by
     * the read timeout; once it has passed, a read fails at once naming the deadline.
     */
    void deadline(long nanoTime);

    /**
     * The largest message the peer can take in one piece (the receive it posted). Only message-based
     * transports care; they start at {@link #SMALLEST_PEER_RECEIVE}, which every perftest posts.
     */
    default void limitMessagesTo(int bytes) {
    }

    /** Whether messages keep their boundaries (RDMA CM) or form a byte stream (TCP). */
    boolean messageBased();

    /** This end's address of the connection (on a server: the address the client reached). */
    InetAddress localAddress();

    /** The peer's address of the connection. */
    InetAddress remoteAddress();

    /** A short name for messages: "TCP" or "RDMA CM". */
    String name();

    /** Closes the connection. Idempotent. */
    @Override
    void close() throws IOException;

    /**
     * Breaks the exchange off and closes: the peer must stop too, not wait. Over TCP closing is enough
     * (the peer reads end-of-file). perftest never looks at RDMA CM events while it waits for a control
     * message, so a message-based transport first sends one longer than any receive perftest posts: its
     * receive fails and it exits.
     */
    default void abandon() throws IOException {
        close();
    }

    /** The receive every perftest posts on its RDMA CM control QP: {@code sizeof(struct pingpong_dest)} of 6.06. */
    int SMALLEST_PEER_RECEIVE = 56;
}
