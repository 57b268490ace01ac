package io.jperf.cm;

import io.jperf.verbs.Context;

import java.util.Objects;

/**
 * Where one connection's QP will live, handed to the {@link QpSetup}: the device context
 * librdmacm chose for it and the resolved path.
 *
 * @param index   the connection's number, 0 .. count-1, in connect/accept order
 * @param context the device context the CM resolved to ({@code cm_id->verbs}), borrowed: the same
 *                instance for every connection of one {@link CmConnections} on that device, so the
 *                engine can allocate its PD, CQs and register its buffers once per device
 * @param port    the device port the CM chose ({@code cm_id->port_num})
 * @param path    the resolved device, addresses, GIDs and route of this connection
 */
public record CmEndpoint(int index, Context context, int port, CmPath path) {
    public CmEndpoint {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(path, "path");
    }
}
