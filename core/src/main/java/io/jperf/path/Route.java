package io.jperf.path;

import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * The kernel's answer to "how would a packet to {@code destination} from {@code source} leave
 * this host", obtained with rtnetlink {@code RTM_GETROUTE} exactly like
 * {@code ip route get DST from SRC}. Immutable.
 *
 * @param destination      the address asked about
 * @param source           the source address given with the question, empty if none
 * @param table            the routing table that answered ({@code RTM_F_LOOKUP_TABLE}): 254 main,
 *                         255 local, 253 default, or a per-rail table id; 0 if the kernel did not say
 * @param type             the route type: {@code unicast}, {@code local}, {@code unreachable}...
 * @param egressIfindex    the egress interface index ({@code RTA_OIF}), 0 if none
 * @param egressNetdev     the egress interface name, empty if it could not be resolved
 * @param gateway          the next hop ({@code RTA_GATEWAY}), empty for directly connected destinations
 * @param preferredSource  {@code RTA_PREFSRC}: the source the kernel picks; the kernel omits it when
 *                         the question already fixed the source
 * @param matchedPrefix    the FIB entry that matched, e.g. {@code 0.0.0.0/0} for a default route
 *                         (from a second {@code RTM_F_FIB_MATCH} query), empty if not available
 * @param protocol         who installed the matched entry ({@code rtm_protocol} of the FIB entry:
 *                         2 kernel, 3 boot, 4 static, ...), -1 if unknown
 */
public record Route(InetAddress destination, Optional<InetAddress> source, int table, RouteType type,
                    int egressIfindex, Optional<String> egressNetdev, Optional<InetAddress> gateway,
                    Optional<InetAddress> preferredSource, Optional<Prefix> matchedPrefix, int protocol) {

    public Route {
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(egressNetdev, "egressNetdev");
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(preferredSource, "preferredSource");
        Objects.requireNonNull(matchedPrefix, "matchedPrefix");
    }

    /** @return {@code "main"}, {@code "local"}, {@code "default"} or the number, like {@code ip route} */
    public String tableName() {
        return tableName(table);
    }

    /** @return the name {@code ip} uses for a table id ({@code /etc/iproute2/rt_tables} defaults only) */
    public static String tableName(long table) {
        return switch ((int) table) {
            case 253 -> "default";
            case 254 -> "main";
            case 255 -> "local";
            default -> Long.toString(table);
        };
    }

    /** @return the egress name, or {@code if<N>} when only the index is known, or {@code "-"} */
    public String egressLabel() {
        return egressNetdev.orElse(egressIfindex > 0 ? "if" + egressIfindex : "-");
    }

    /** A copy with the FIB-match facts filled in. */
    Route withMatch(Optional<Prefix> prefix, int protocol) {
        return new Route(destination, source, table, type, egressIfindex, egressNetdev, gateway, preferredSource,
                prefix, protocol);
    }

    /** A copy with the egress name resolved. */
    Route withEgressNetdev(Optional<String> name) {
        return new Route(destination, source, table, type, egressIfindex, name, gateway, preferredSource,
                matchedPrefix, protocol);
    }
}
