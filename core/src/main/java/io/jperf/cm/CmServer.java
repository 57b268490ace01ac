package io.jperf.cm;

import io.jperf.verbs.Context;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The passive side: a listening CM id on its own event channel, accepting RC connections
 * (jperf {@code -R} server; perftest listens with backlog = number of QPs).
 *
 * <p>Lifecycle: {@link #listen}, {@link #accept} (once or more), {@link #close()}: closes the
 * accepted connections (see {@link CmConnections#close()}), rejects connect requests nobody
 * accepted, destroys the listener and the channel. Threading: not thread-safe; drive a server from
 * one thread. {@code close()} must not race with {@code accept}.
 */
public final class CmServer implements AutoCloseable {
    private final CmEventChannel channel;
    private final CmId listener;
    private final InetSocketAddress bound;
    private final List<CmConnections> accepted = new ArrayList<>();

    private CmServer(CmEventChannel channel, CmId listener, InetSocketAddress bound) {
        this.channel = channel;
        this.listener = listener;
        this.bound = bound;
    }

    /**
     * Binds to {@code bind} (an IP of an RDMA netdev, or the wildcard address) and listens.
     *
     * @throws CmException                                e.g. EADDRINUSE, EADDRNOTAVAIL, ENODEV
     * @throws io.jperf.verbs.RdmaUnavailableException when this host has no RDMA CM
     */
    public static CmServer listen(InetSocketAddress bind, int backlog) {
        Objects.requireNonNull(bind, "bind");
        CmEventChannel channel = CmEventChannel.create();
        try {
            CmId listener = channel.createId();
            listener.bind(bind);
            listener.listen(backlog);
            return new CmServer(channel, listener, bind);
        } catch (RuntimeException | Error e) {
            channel.close();
            throw e;
        }
    }

    /** @return the address the listener was bound to */
    public InetSocketAddress bindAddress() {
        return bound;
    }

    /** @return the listening id */
    public CmId listener() {
        return listener;
    }

    /**
     * Waits up to {@code wait} for a client's connect request and leaves it queued for {@link #accept}.
     *
     * @return whether one is waiting
     */
    public boolean awaitRequest(Duration wait) {
        return channel.hasEventFor(listener.address(), wait);
    }

    /** Accepts {@code count} connections with perftest's options. */
    public CmConnections accept(int count, QpSetup setup, Duration timeout) {
        return accept(count, setup, CmOptions.perftest(), timeout);
    }

    /**
     * Waits for {@code count} connect requests and accepts each: adopt the new id, the engine's
     * {@link QpSetup} on its device context, {@code rdma_create_qp}, {@code rdma_accept} (with
     * {@code options}' private data), wait for ESTABLISHED.
     *
     * @param timeout the limit for the whole call, including waiting for the clients
     * @throws CmException when no request arrives in time, or a step fails
     */
    public CmConnections accept(int count, QpSetup setup, CmOptions options, Duration timeout) {
        Objects.requireNonNull(setup, "setup");
        Objects.requireNonNull(options, "options");
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, not " + count);
        }
        Deadline deadline = Deadline.after(timeout);
        CmConnections connections = new CmConnections(null);
        accepted.add(connections);
        try {
            for (int i = 0; i < count; i++) {
                CmEvent request = awaitRequest(i, count, deadline);
                CmId id = CmId.adoptRequest(channel, request, bound);
                connections.track(id);
                CmPath path;
                Context context;
                QpResources resources;
                try {
                    path = id.path();
                    context = connections.context(id.verbsHandle(), path.device());
                    resources = setup.resources(new CmEndpoint(i, context, path.port(), path));
                    id.createQp(resources.pd(), resources.sendCq(), resources.recvCq(), resources.caps());
                    resources.prepare().accept(id.queuePair());
                } catch (RuntimeException | Error e) {
                    rejectQuietly(id);
                    throw e;
                }
                id.accept(resources.applyTo(options), request, deadline.left());
                connections.add(new CmConnection(i, id, id.queuePair(), path, request.privateData(), context));
            }
            return connections;
        } catch (RuntimeException | Error e) {
            try {
                connections.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            accepted.remove(connections);
            throw e;
        }
    }

    private CmEvent awaitRequest(int index, int count, Deadline deadline) {
        String call = "rdma_listen (waiting for connect request " + (index + 1) + " of " + count + ")";
        Optional<CmEvent> event = channel.awaitFor(listener.address(), deadline.left());
        if (event.isEmpty()) {
            throw CmException.of(call, CmException.Kind.TIMEOUT, null, 0, bound, null, 1, deadline.total(), null);
        }
        CmEvent e = event.get();
        if (e.type() != CmEventType.CONNECT_REQUEST) {
            throw CmException.of(call, e.type().isError() ? CmException.Kind.ERROR_EVENT
                    : CmException.Kind.UNEXPECTED_EVENT, e, 0, bound, null, 1, deadline.total(), null);
        }
        return e;
    }

    private static void rejectQuietly(CmId id) {
        try {
            id.reject(new byte[0]);
        } catch (RuntimeException e) {
            // the id is destroyed next anyway
        }
    }

    /** Closes the accepted connections, then the listener and the channel. Idempotent. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (CmConnections c : accepted) {
            try {
                c.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : add(failure, e);
            }
        }
        accepted.clear();
        try {
            channel.close();
        } catch (RuntimeException e) {
            failure = failure == null ? e : add(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(RuntimeException first, RuntimeException next) {
        first.addSuppressed(next);
        return first;
    }
}
