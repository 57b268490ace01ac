package io.jperf.cm;

import io.jperf.path.NetworkView;
import io.jperf.path.PolicyRule;
import io.jperf.path.Route;
import io.jperf.path.RuleMatch;
import io.jperf.path.RuleMatcher;
import io.jperf.path.Rtnetlink;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
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
                rule = RuleMatcher.match(view, route.get()).match().map(RuleMatch::rule);
            } catch (IOException | RuntimeException e) {
                // the route stands without its rule
            }
        }
        return new RouteReport(Optional.ofNullable(source), destination, route, error, rule,
                dev.map(Netdev::name), dev.map(Netdev::ifindex).orElse(0));
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
