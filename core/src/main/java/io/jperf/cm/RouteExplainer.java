package io.jperf.cm;

import io.jperf.path.NetworkView;
import io.jperf.path.PolicyRule;
import io.jperf.path.Route;
import io.jperf.path.RouteType;
import io.jperf.path.RuleAction;
import io.jperf.path.Rtnetlink;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Asks the kernel how a source/destination pair is routed ({@code ip route get DST from SRC}
 * over rtnetlink, never by running {@code ip}), which policy rule chose the table, and which
 * netdev owns the source address: the facts behind every {@link CmException} and every resolved
 * {@link CmPath}.
 *
 * <p>It never throws: a failed lookup is part of the {@link RouteReport}. Threading: the live
 * explainer opens its own netlink socket per call and is thread-safe; one built on a given
 * {@link NetworkView} is as thread-safe as that view.
 */
public final class RouteExplainer {

    private static final long MAIN_TABLE = 254;
    private static final long LOCAL_TABLE = 255;

    /** The netdev that has an address: name and index. */
    record Netdev(String name, int ifindex) {
    }

    private final NetworkView network;
    private final Function<InetAddress, Optional<Netdev>> netdevOf;

    RouteExplainer(NetworkView network, Function<InetAddress, Optional<Netdev>> netdevOf) {
        this.network = network;
        this.netdevOf = netdevOf;
    }

    /** An explainer of the running system: rtnetlink per call, source netdev from the JDK. */
    public static RouteExplainer live() {
        return new RouteExplainer(null, RouteExplainer::netdevOfAddress);
    }

    /**
     * @param sourceOrNull the source address the CM id was bound to, or null if unbound
     * @param destination  the destination address
     */
    public RouteReport explain(InetAddress sourceOrNull, InetAddress destination) {
        if (network != null) {
            return explain(network, sourceOrNull, destination);
        }
        try (Rtnetlink rtnl = Rtnetlink.open()) {
            return explain(rtnl, sourceOrNull, destination);
        } catch (IOException | RuntimeException e) {
            return new RouteReport(Optional.ofNullable(sourceOrNull), destination, Optional.empty(),
                    Optional.of("rtnetlink unavailable: " + e.getMessage()), Optional.empty(),
                    Optional.empty(), 0);
        }
    }

    private RouteReport explain(NetworkView view, InetAddress source, InetAddress destination) {
        Optional<Netdev> dev = source == null ? Optional.empty() : netdevOf.apply(source);
        Optional<Route> route = Optional.empty();
        Optional<String> error = Optional.empty();
        try {
            route = Optional.of(view.route(destination, source));
        } catch (IOException | RuntimeException e) {
            error = Optional.of(e.getMessage());
        }
        Optional<PolicyRule> rule = Optional.empty();
        if (route.isPresent()) {
            try {
                rule = ruleFor(view.rules(destination instanceof Inet4Address ? 2 : 10), route.get());
            } catch (IOException | RuntimeException e) {
                // the route stands without its rule
            }
        }
        return new RouteReport(Optional.ofNullable(source), destination, route, error, rule,
                dev.map(Netdev::name), dev.map(Netdev::ifindex).orElse(0));
    }

    /**
     * The first rule by priority whose from/to selectors match the output lookup and whose table is
     * the one the kernel answered from. A simplified walk (no goto, no suppress_prefixlength, rules
     * with iif other than {@code lo}, oif, fwmark or unevaluated selectors are skipped); the full
     * walk is {@code io.jperf.path}'s package-private RuleMatcher.
     */
    static Optional<PolicyRule> ruleFor(List<PolicyRule> rules, Route route) {
        if (route.table() == 0) {
            return Optional.empty();
        }
        InetAddress src = route.source().orElse(null);
        boolean localRoute = route.type() == RouteType.LOCAL || route.type() == RouteType.BROADCAST;
        return rules.stream()
                .sorted(Comparator.comparingLong(PolicyRule::priority))
                .filter(r -> r.action() == RuleAction.TO_TABLE && !r.invert() && r.unevaluated().isEmpty())
                .filter(r -> r.iifName().map("lo"::equals).orElse(true) && r.oifName().isEmpty()
                        && r.fwmark() == 0 && r.tos() == 0)
                .filter(r -> r.from().map(p -> src == null ? p.length() == 0 : p.contains(src)).orElse(true))
                .filter(r -> r.to().map(p -> p.contains(route.destination())).orElse(true))
                .filter(r -> r.table() == route.table()
                        || (r.table() == LOCAL_TABLE && route.table() == MAIN_TABLE && localRoute))
                .findFirst();
    }

    static Optional<Netdev> netdevOfAddress(InetAddress address) {
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(address);
            return nif == null ? Optional.empty() : Optional.of(new Netdev(nif.getName(), nif.getIndex()));
        } catch (SocketException e) {
            return Optional.empty();
        }
    }
}
