package io.jperf.cm;

import io.jperf.verbs.Gid;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * What the RDMA CM resolved for one id: the device and port it chose, the addresses it actually
 * uses, the GIDs of the path, and the kernel's route for the pair. Reported on success too, so
 * the engine can compare it with what the user asked (e.g. {@code -d rxe1} but resolved through
 * rxe0 is a warning). Immutable.
 *
 * @param device      the RDMA device ({@code ibv_get_device_name(cm_id->verbs->device)})
 * @param port        the port number ({@code cm_id->port_num})
 * @param source      the local address and port in use ({@code cm_id->route.addr.src_addr})
 * @param destination the peer's address and port ({@code cm_id->route.addr.dst_addr})
 * @param sgid        the source GID ({@code cm_id->route.addr.addr.ibaddr.sgid}); on RoCE v2 the
 *                    {@code ::ffff:IPv4} GID of {@code source}
 * @param dgid        the destination GID
 * @param route       the kernel's route from {@code source} to {@code destination}, its rule and
 *                    the source's netdev; for a server connection, the route back to the client
 */
public record CmPath(String device, int port, Optional<InetSocketAddress> source,
                     Optional<InetSocketAddress> destination, Gid sgid, Gid dgid, RouteReport route) {

    public CmPath {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(sgid, "sgid");
        Objects.requireNonNull(dgid, "dgid");
        Objects.requireNonNull(route, "route");
    }

    /** e.g. {@code rxe1 port 1, 10.20.0.2:40123 -> 10.20.0.1:18515, sgid ::ffff:10.20.0.2; the kernel routes ...}. */
    public String describe() {
        return device + " port " + port + ", " + SockAddrs.text(source.orElse(null)) + " -> "
                + SockAddrs.text(destination.orElse(null)) + ", sgid " + sgid + "; " + route;
    }
}
