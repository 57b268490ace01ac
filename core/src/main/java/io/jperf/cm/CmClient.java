package io.jperf.cm;

import io.jperf.verbs.Context;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The active side: {@code count} RC connections to one server (jperf {@code -R -q N}).
 *
 * <p>For each connection, in order, on one event channel: {@code rdma_create_id}, {@code
 * rdma_bind_addr} to {@code bindSource} (so the source address, the device and the kernel's route
 * lookup are the ones the user chose, not whatever the main table picks), {@code
 * rdma_resolve_addr}, TOS, {@code rdma_resolve_route}, the engine's {@link QpSetup} on the
 * resolved device context, {@code rdma_create_qp}, {@code rdma_connect}, wait for ESTABLISHED.
 * Stateless and thread-safe (each call has its own channel).
 */
public final class CmClient {
    private CmClient() {
    }

    /**
     * Connects with perftest's options ({@link CmOptions#perftest()}) and the given TOS.
     *
     * @see #connect(InetSocketAddress, InetAddress, int, QpSetup, CmOptions, Duration)
     */
    public static CmConnections connect(InetSocketAddress server, InetAddress bindSource, Integer tos, int count,
                                        QpSetup setup, Duration timeout) {
        return connect(server, bindSource, count, setup, CmOptions.perftest().withTos(tos), timeout);
    }

    /**
     * Opens {@code count} connections to {@code server}.
     *
     * @param server     the server's IP address (on its RDMA netdev) and CM port
     * @param bindSource the local IP to bind every CM id to, null to let the kernel's routing choose
     * @param count      the number of connections (QPs), at least 1
     * @param setup      gives the PD, CQs and QP sizes for each connection, on the resolved context
     * @param options    resolution timeouts and tries, TOS, connection parameters, private data
     * @param timeout    the limit for the whole call; nothing waits longer
     * @return the established connections; close them when done
     * @throws CmException                                when a CM step fails or times out
     * @throws io.jperf.verbs.RdmaUnavailableException when this host has no RDMA CM
     */
    public static CmConnections connect(InetSocketAddress server, InetAddress bindSource, int count, QpSetup setup,
                                        CmOptions options, Duration timeout) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(setup, "setup");
        Objects.requireNonNull(options, "options");
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, not " + count);
        }
        if (options.privateData().length > CmOptions.MAX_CONNECT_PRIVATE_DATA) {
            throw new IllegalArgumentException("a connect request carries at most "
                    + CmOptions.MAX_CONNECT_PRIVATE_DATA + " bytes of private data, not " + options.privateData().length);
        }
        Deadline deadline = Deadline.after(timeout);
        CmEventChannel channel = CmEventChannel.create();
        CmConnections connections = new CmConnections(channel);
        try {
            for (int i = 0; i < count; i++) {
                CmId id = channel.createId();
                connections.track(id);
                if (bindSource != null) {
                    id.bind(new InetSocketAddress(bindSource, 0));
                }
                id.resolveAddress(server, options.resolveTimeout(), options.resolveTries(), deadline.left());
                if (options.tos().isPresent()) {
                    id.setTos(options.tos().getAsInt());
                }
                id.resolveRoute(options.resolveTimeout(), options.resolveTries(), deadline.left());
                CmPath path = id.path();
                Context context = connections.context(id.verbsHandle(), path.device());
                QpResources resources = setup.resources(new CmEndpoint(i, context, path.port(), path));
                id.createQp(resources.pd(), resources.sendCq(), resources.recvCq(), resources.caps());
                resources.prepare().accept(id.queuePair());
                CmOptions own = resources.applyTo(options);
                if (own.privateData().length > CmOptions.MAX_CONNECT_PRIVATE_DATA) {
                    throw new IllegalArgumentException("a connect request carries at most "
                            + CmOptions.MAX_CONNECT_PRIVATE_DATA + " bytes of private data, not " + own.privateData().length);
                }
                CmEvent established = id.connect(own, deadline.left());
                connections.add(new CmConnection(i, id, id.queuePair(), path, established.privateData(), context));
            }
            return connections;
        } catch (RuntimeException | Error e) {
            try {
                connections.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
