package io.jperf.cm;

import io.jperf.path.Addr;
import io.jperf.path.PolicyRule;
import io.jperf.path.Route;
import io.jperf.path.RouteType;

import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * What the kernel says about one source/destination pair, the {@code ip route get DST from SRC}
 * of an RDMA CM resolution, with the netdev that owns the source address. RDMA CM resolves with
 * the kernel's IP routing, so when the egress netdev is not the source's netdev the connection
 * takes (or fails on) another rail. Immutable.
 *
 * @param source        the source address asked about, empty when the CM id was not bound
 * @param destination   the destination address
 * @param route         the kernel's answer, empty when the lookup failed
 * @param lookupError   why the lookup failed (e.g. {@code ... ENETUNREACH (101): Network is unreachable})
 * @param rule          the policy rule that selected the route's table, when it could be determined
 * @param sourceNetdev  the netdev that has the source address, empty if unknown or no source
 * @param sourceIfindex that netdev's index, 0 if unknown
 */
public record RouteReport(Optional<InetAddress> source, InetAddress destination, Optional<Route> route,
                          Optional<String> lookupError, Optional<PolicyRule> rule, Optional<String> sourceNetdev,
                          int sourceIfindex) {

    public RouteReport {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(lookupError, "lookupError");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(sourceNetdev, "sourceNetdev");
    }

    /** @return the egress netdev of the route, if the kernel named one */
    public Optional<String> egressNetdev() {
        return route.flatMap(Route::egressNetdev);
    }

    /**
     * @return {@code true} when the route exists, is unicast or local, and (if both are known)
     *     leaves through the netdev that owns the source address
     */
    public boolean consistent() {
        if (route.isEmpty()) {
            return false;
        }
        RouteType type = route.get().type();
        if (type != RouteType.UNICAST && type != RouteType.LOCAL) {
            return false;
        }
        if (type == RouteType.LOCAL || sourceNetdev.isEmpty() || egressNetdev().isEmpty()) {
            return true;
        }
        return sourceNetdev.get().equals(egressNetdev().get());
    }

    /**
     * One clause, e.g. {@code the kernel routes 10.30.0.12 from 10.30.0.11 via r0 (table main,
     * rule 32766 'from all lookup main')}, or {@code the kernel has no route to ... (...)}.
     */
    public String describe() {
        String pair = Addr.text(destination) + source.map(s -> " from " + Addr.text(s)).orElse("");
        if (route.isEmpty()) {
            return "the kernel has no route to " + pair + lookupError.map(e -> " (" + e + ")").orElse("");
        }
        Route r = route.get();
        StringBuilder sb = new StringBuilder("the kernel routes ").append(pair);
        if (r.type() != RouteType.UNICAST) {
            sb.append(" as ").append(r.type().label());
        }
        sb.append(" via ");
        r.gateway().ifPresent(g -> sb.append(Addr.text(g)).append(" dev "));
        sb.append(r.egressLabel());
        sb.append(" (table ").append(r.tableName());
        rule.ifPresent(p -> sb.append(", rule ").append(p.priority()).append(" '").append(ruleText(p)).append('\''));
        sb.append(')');
        if (source.isEmpty()) {
            r.preferredSource().ifPresent(s -> sb.append(", source ").append(Addr.text(s)));
        }
        return sb.toString();
    }

    /**
     * What is wrong with the path and how to fix it, e.g. {@code but the source address
     * 10.30.0.11 is on r1: add a rule for the source (ip rule add from 10.30.0.11 table 103) ...};
     * empty when the path looks consistent.
     */
    public Optional<String> problem() {
        String src = source.map(Addr::text).orElse(null);
        String dst = Addr.text(destination);
        int table = sourceIfindex > 0 ? 100 + sourceIfindex : 100;
        String dev = sourceNetdev.orElse("<netdev of " + (src == null ? "the source" : src) + ">");
        if (route.isEmpty() || (route.get().type() != RouteType.UNICAST && route.get().type() != RouteType.LOCAL)) {
            String why = route.isEmpty() ? "there is no route" : "the route is " + route.get().type().label();
            if (src == null) {
                return Optional.of(why + ": add a route to " + dst + " through the RDMA netdev, and bind the source"
                        + " address (jperf binds the CM id to the chosen source)");
            }
            return Optional.of(why + ": add a route to " + dst + " through " + dev + " for this source, e.g. `ip route"
                    + " add " + dst + " dev " + dev + " src " + src + " table " + table + "` and `ip rule add from "
                    + src + " table " + table + "`");
        }
        if (consistent()) {
            return Optional.empty();
        }
        return Optional.of("but the source address " + src + " is on " + dev + ": the RDMA CM follows the kernel's"
                + " route, so add a rule for the source (`ip rule add from " + src + " table " + table + "`) with a"
                + " route through " + dev + " in that table (`ip route add " + dst + " dev " + dev + " src " + src
                + " table " + table + "`)");
    }

    /** A rule as {@code ip rule} prints it, without the priority: {@code from all lookup main}. */
    static String ruleText(PolicyRule rule) {
        String text = rule.toString();
        int colon = text.indexOf(": ");
        return colon >= 0 ? text.substring(colon + 2) : text;
    }

    /** {@link #describe()} and, when there is one, {@link #problem()}, as one sentence. */
    @Override
    public String toString() {
        return describe() + problem().map(p -> ", " + p).orElse("");
    }
}
