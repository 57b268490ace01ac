package io.jperf.cm;

import io.jperf.ffi.Errno;

import java.time.Duration;

/**
 * Texts for RDMA CM failures: event statuses, IB CM reject reasons, durations, and the hint for
 * each kind of failure. Pure functions, no native access except {@link Errno#name}; thread-safe.
 */
final class CmErrors {

    static final int ETIMEDOUT = 110;
    static final int ENETUNREACH = 101;
    static final int EHOSTUNREACH = 113;
    static final int ECONNREFUSED = 111;
    static final int EADDRNOTAVAIL = 99;
    static final int EADDRINUSE = 98;
    static final int ENODEV = 19;
    static final int EINVAL = 22;

    /** IB CM reject reason "invalid service id": nothing listens on that port of the peer. */
    static final int REJ_INVALID_SERVICE_ID = 8;
    /** IB CM reject reason "consumer defined": the peer application called rdma_reject. */
    static final int REJ_CONSUMER_DEFINED = 28;

    private CmErrors() {
    }

    /**
     * @return e.g. {@code -110 ETIMEDOUT} for a negated errno, or {@code 8 (IB CM reject reason:
     *     invalid service id)} for a REJECTED event
     */
    static String statusText(CmEventType type, int status) {
        if (type == CmEventType.REJECTED && status > 0) {
            return status + " (IB CM reject reason: " + rejectReason(status) + ")";
        }
        if (status < 0) {
            return status + " " + Errno.name(-status);
        }
        return Integer.toString(status);
    }

    /** @return the IB CM reject reason ({@code enum ib_cm_rej_reason}) in words */
    static String rejectReason(int reason) {
        return switch (reason) {
            case 1 -> "no QP";
            case 2 -> "no EEC";
            case 3 -> "no resources";
            case 4 -> "timeout";
            case 5 -> "unsupported";
            case 6 -> "invalid comm id";
            case 7 -> "invalid comm instance";
            case REJ_INVALID_SERVICE_ID -> "invalid service id";
            case 9 -> "invalid transport type";
            case 10 -> "stale connection";
            case 12 -> "invalid GID";
            case 13 -> "invalid LID";
            case 14 -> "invalid SL";
            case 15 -> "invalid traffic class";
            case 16 -> "invalid hop limit";
            case 17 -> "invalid packet rate";
            case 26 -> "invalid MTU";
            case 27 -> "insufficient responder resources";
            case REJ_CONSUMER_DEFINED -> "consumer defined";
            case 29 -> "invalid RNR retry";
            case 30 -> "duplicate local comm id";
            case 31 -> "invalid class version";
            case 32 -> "invalid flow label";
            default -> "reason " + reason;
        };
    }

    /** @return {@code 2 s}, {@code 500 ms} */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 == 0) {
            return ms / 1000 + " s";
        }
        return ms + " ms";
    }

    /**
     * The hint for a failed step whose route looks consistent (a route problem is its own hint). Never null, may be empty.
     *
     * @param call   the failing call, e.g. {@code rdma_resolve_addr}
     * @param event  the event that reported the failure, null for a synchronous failure or a timeout
     * @param status the event status, or the negated errno of a synchronous failure, 0 on a timeout
     */
    static String hint(String call, CmEventType event, int status) {
        int errno = status < 0 ? -status : 0;
        if (event == null && call.startsWith("rdma_bind_addr")) {
            return switch (errno) {
                case EADDRNOTAVAIL -> "the address is not configured on this host: give an IP of an RDMA netdev"
                        + " (`ip -br addr`, `rdma link`)";
                case ENODEV -> "no RDMA device has that address: its netdev has no RDMA device on top"
                        + " (`rdma link`; for soft-RoCE `rdma link add rxe0 type rxe netdev <netdev>`)";
                case EADDRINUSE -> "the port is in use: another server (or a previous run still in TIME_WAIT) holds it;"
                        + " use another port";
                default -> "";
            };
        }
        if (event == null && status == 0) {
            return "no RDMA CM event arrived in time: the peer or the kernel did not answer; check the peer runs and"
                    + " listens on that address and port, and that both directions of the path use the same rail";
        }
        if (event == null) {
            return switch (errno) {
                case ENETUNREACH, EHOSTUNREACH -> "the kernel has no route for this pair: add a route to the"
                        + " destination through the source address's netdev (and a rule `ip rule add from SRC"
                        + " lookup TABLE` on multi-rail hosts)";
                case ENODEV -> "the route leaves through a netdev without an RDMA device";
                default -> "";
            };
        }
        return switch (event) {
            case ADDR_ERROR -> errno == ETIMEDOUT
                    ? "the address did not resolve in time: the neighbour (ARP/ND) of"
                      + " the destination or gateway did not answer on the egress netdev; check the peer is up,"
                      + " owns the address, and answers ARP on that link (arp_ignore/arp_filter, rp_filter)"
                    : "address resolution failed: check the destination is reachable from the source's netdev";
            case ROUTE_ERROR -> "route resolution failed: on RoCE it needs a RoCE GID for the source address on the"
                    + " device (`rdma link`, the GID table) and the netdev up; on InfiniBand a subnet manager";
            case UNREACHABLE -> errno == ETIMEDOUT
                    ? "the peer did not answer the connection request: check the server listens on that address"
                      + " and port, and that its replies come back over the same rail (asymmetric routing, F3)"
                    : "the peer is unreachable at the transport level";
            case REJECTED -> status == REJ_INVALID_SERVICE_ID
                    ? "nothing listens on that port of the peer: start the server first, with the same port"
                    : status == REJ_CONSUMER_DEFINED
                    ? "the server application rejected the connection (see its private data / log)"
                    : "the peer's RDMA CM rejected the connection";
            case CONNECT_ERROR -> "the connection failed after the peer accepted: QP transition or the final"
                    + " handshake failed; check MTU, GID and that the peer did not go away";
            case DEVICE_REMOVAL -> "the RDMA device was removed (driver unloaded, `rdma link delete`, hot unplug)";
            case ADDR_CHANGE -> "the address of the connection changed: the source netdev went down or its IP moved";
            case DISCONNECTED -> "the peer disconnected before the connection was set up";
            default -> "";
        };
    }
}
