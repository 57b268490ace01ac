package io.jperf.cm;

import io.jperf.verbs.Context;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The connections of one {@link CmClient#connect} or {@link CmServer#accept}, with the borrowed
 * device contexts their QPs live on.
 *
 * <p>{@link #close()} tears down children first: {@code rdma_disconnect} every connection, destroy
 * every QP ({@code rdma_destroy_qp}), close the borrowed contexts (which closes whatever the engine
 * created on them: PDs, MRs, CQs), destroy the CM ids, and (client side) the event channel.
 * Idempotent; failures are collected and the first is rethrown with the others suppressed.
 *
 * <p>Threading: not thread-safe; {@code close()} from any one thread once the data path stopped.
 */
public final class CmConnections implements AutoCloseable {
    private final List<CmConnection> connections = new ArrayList<>();
    private final List<CmId> ids = new ArrayList<>();
    private final Map<Long, Context> contexts = new LinkedHashMap<>();
    private final CmEventChannel ownedChannel;
    private boolean closed;

    CmConnections(CmEventChannel ownedChannel) {
        this.ownedChannel = ownedChannel;
    }

    /** @return the established connections, in order */
    public List<CmConnection> list() {
        return List.copyOf(connections);
    }

    /** @return connection {@code index} */
    public CmConnection get(int index) {
        return connections.get(index);
    }

    public int size() {
        return connections.size();
    }

    /** @return the borrowed device contexts, one per device the connections resolved to */
    public List<Context> contexts() {
        return List.copyOf(contexts.values());
    }

    /** Tracks an id so a failure half-way closes it. */
    void track(CmId id) {
        ids.add(id);
    }

    void add(CmConnection connection) {
        connections.add(connection);
    }

    /** The one borrowed {@link Context} for a librdmacm device context. */
    Context context(MemorySegment verbs, String deviceName) {
        return contexts.computeIfAbsent(verbs.address(), a -> Context.borrow(deviceName, verbs));
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (CmId id : ids) {
            if (!id.isClosed()) {
                try {
                    id.disconnect();
                } catch (RuntimeException e) {
                    // best effort
                }
            }
        }
        for (CmId id : ids) {
            failure = run(failure, id::releaseQp);
        }
        for (Context ctx : contexts.values()) {
            failure = run(failure, ctx::close);
        }
        for (CmId id : ids.reversed()) {
            failure = run(failure, id::close);
        }
        if (ownedChannel != null) {
            failure = run(failure, ownedChannel::close);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** @return {@code true} once {@link #close()} ran */
    public boolean isClosed() {
        return closed;
    }

    private static RuntimeException run(RuntimeException first, Runnable step) {
        try {
            step.run();
            return first;
        } catch (RuntimeException e) {
            if (first == null) {
                return e;
            }
            first.addSuppressed(e);
            return first;
        }
    }
}
