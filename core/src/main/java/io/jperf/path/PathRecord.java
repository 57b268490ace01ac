package io.jperf.path;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Linux path one end of a test ran on: the evidence behind a result. Built by
 * {@link PathProbe}, checked by {@link Verdicts}, written by {@link PathJson} and
 * {@link PathSummary}. Immutable and thread-safe; everything is a snapshot taken when the record
 * was made.
 *
 * @param rdma          device, port and chosen GID
 * @param source        the source IP (the GID's address on RoCE), empty on InfiniBand or for
 *                      a link-local/other-family GID
 * @param destination   the peer's IP the test connects to
 * @param route         the kernel's route for source to destination; empty when the kernel has
 *                      none (see {@code gaps})
 * @param rule          the policy rule that selected the route's table, when determinable
 * @param unboundSource the source the kernel would pick for the destination if nothing were
 *                      bound (what an unbound TCP socket or RDMA CM without a source uses)
 * @param netdev        the GID's netdev state, empty on InfiniBand or if unreadable
 * @param trafficClass  the traffic class / TOS the test uses
 * @param numa          NIC and thread NUMA placement
 * @param gaps          what could not be determined, and why, one sentence each
 */
public record PathRecord(RdmaEnd rdma, Optional<InetAddress> source, InetAddress destination,
                         Optional<Route> route, Optional<RuleMatch> rule, Optional<InetAddress> unboundSource,
                         Optional<NetdevState> netdev, TrafficClass trafficClass, NumaPlacement numa,
                         List<String> gaps) {

    public PathRecord {
        Objects.requireNonNull(rdma, "rdma");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(unboundSource, "unboundSource");
        Objects.requireNonNull(netdev, "netdev");
        Objects.requireNonNull(trafficClass, "trafficClass");
        Objects.requireNonNull(numa, "numa");
        gaps = List.copyOf(gaps);
    }
}
