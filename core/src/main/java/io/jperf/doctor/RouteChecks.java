package io.jperf.doctor;

import io.jperf.path.Addr;
import io.jperf.path.CheckResult;
import io.jperf.path.Evidence;
import io.jperf.path.NetworkView;
import io.jperf.path.PathChecks;
import io.jperf.path.PolicyRule;
import io.jperf.path.Prefix;
import io.jperf.path.Route;
import io.jperf.path.RouteType;
import io.jperf.path.RtnetlinkException;
import io.jperf.path.RuleMatch;
import io.jperf.path.RuleMatcher;
import io.jperf.path.Severity;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The IP layer: an IPv4 address on each RoCE netdev (F6), each rail's route to its own subnet
 * leaving through the rail (F2, the record a test of that port starts from), the unbound source
 * (F2), a source rule per rail where rails share the host (F2), and the default route.
 */
final class RouteChecks {
    private static final int AF_INET = 2;
    /** TEST-NET-2 (RFC 5737): never a real host, so its route is the default one. */
    private static final String OFF_SUBNET = "198.51.100.1";

    private RouteChecks() {
    }

    static List<Check> run(HostFacts facts) {
        List<Check> out = new ArrayList<>();
        for (HostFacts.Netdev n : facts.netdevs) {
            out.add(new Check(Layer.IP, n.name(), n.roce() ? PathChecks.ipv4("local", n.state()) : address(n)));
        }
        if (facts.network.isEmpty()) {
            out.add(new Check(Layer.IP, "-", CheckResult.finding("", "routes", Severity.WARNING,
                    "cannot ask the kernel for routes and rules: " + facts.networkProblem.orElse("?"),
                    new Evidence().with("problem", facts.networkProblem.orElse("?")),
                    "run where rtnetlink is available (a network namespace with its own routes, not a sandbox that"
                            + " blocks netlink sockets)")));
            return out;
        }
        NetworkView network = facts.network.get();
        for (HostFacts.Port p : facts.ports) {
            if (!p.roce()) {
                continue;
            }
            String subject = p.netdev().map(n -> n.name() + " (" + p.subject() + ")").orElse(p.subject());
            if (p.record().isPresent()) {
                out.add(new Check(Layer.IP, subject, PathChecks.egressNetdev("local", p.record().get())));
                out.add(new Check(Layer.IP, subject, PathChecks.unboundSource("local", p.record().get())));
            } else {
                out.add(new Check(Layer.IP, subject, CheckResult.skip("F2", "egress-netdev", "local end: no route to check: "
                        + p.recordProblem().orElse("?"), new Evidence().with("local.device", p.subject()))));
            }
        }
        for (HostFacts.Netdev n : facts.netdevs) {
            if (!n.roce()) {
                plainEgress(network, n).ifPresent(r -> out.add(new Check(Layer.IP, n.name(), r)));
            }
        }
        Map<String, InetAddress> rails = new LinkedHashMap<>();
        for (HostFacts.Netdev n : facts.netdevs) {
            if (n.roce() && !n.ipv4().isEmpty()) {
                rails.putIfAbsent(n.name(), n.ipv4().getFirst().address());
            }
        }
        if (rails.size() >= 2) {
            try {
                List<PolicyRule> rules = network.rules(AF_INET);
                rails.forEach((netdev, address) -> out.add(new Check(Layer.IP, netdev,
                        PathChecks.sourceRule("local", address, netdev, rules))));
            } catch (IOException | RtnetlinkException e) {
                out.add(new Check(Layer.IP, "-", CheckResult.finding("F2", "source-rule", Severity.WARNING,
                        "cannot read the policy rules: " + e.getMessage(), new Evidence().with("problem", e.getMessage()),
                        "check `ip rule` by hand: one 'from <rail address> lookup <rail table>' per rail")));
            }
        }
        out.add(new Check(Layer.IP, "-", defaultRoute(network)));
        return out;
    }

    private static CheckResult address(HostFacts.Netdev n) {
        Evidence ev = new Evidence().with("local.netdev", n.name())
                .with("local.addresses", n.prefixes().stream().map(Prefix::toString).toList());
        if (n.ipv4().isEmpty()) {
            return CheckResult.skip("", "ipv4-address", "local end: " + n.name() + " has no IPv4 address (not an RDMA"
                    + " netdev here)", ev);
        }
        return CheckResult.pass("", "ipv4-address", "local end: " + n.name() + " has IPv4 "
                + n.ipv4().stream().map(Prefix::toString).toList(), ev);
    }

    /** F2 for a netdev without RDMA: its own subnet is reached through it. */
    private static Optional<CheckResult> plainEgress(NetworkView network, HostFacts.Netdev n) {
        for (Prefix p : n.ipv4()) {
            Optional<InetAddress> dst = HostFacts.neighbour(p);
            if (dst.isEmpty()) {
                continue;
            }
            try {
                Route route = network.route(dst.get(), p.address());
                Optional<RuleMatch> rule = RuleMatcher.match(network, route).match();
                return Optional.of(PathChecks.routeEgress("local", "address", "netdev", n.name(), n.ifindex(),
                        Optional.of(p.address()), dst.get(), route, rule));
            } catch (IOException | RtnetlinkException e) {
                return Optional.of(CheckResult.finding("F2", "egress-netdev", Severity.ERROR,
                        "local end: no route from " + Addr.text(p.address()) + " to its own subnet (" + Addr.text(dst.get())
                                + "): " + e.getMessage(),
                        new Evidence().with("local.netdev", n.name()).with("local.source", Addr.text(p.address()))
                                .with("local.destination", Addr.text(dst.get())).with("local.gap", e.getMessage()),
                        "add the subnet's route: ip route add " + p + " dev " + n.name() + " src " + Addr.text(p.address())));
            }
        }
        return Optional.empty();
    }

    private static CheckResult defaultRoute(NetworkView network) {
        InetAddress far;
        try {
            far = InetAddress.getByName(OFF_SUBNET);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        try {
            Route r = network.route(far, null);
            Evidence ev = new Evidence().with("local.default.egress", r.egressLabel())
                    .with("local.default.gateway", r.gateway().map(Addr::text).orElse("-"))
                    .with("local.default.table", r.tableName())
                    .with("local.default.source", r.preferredSource().map(Addr::text).orElse("-"));
            if (r.type() != RouteType.UNICAST) {
                return CheckResult.skip("", "default-route", "local end: no default route (" + r.type()
                        + "): only directly routed subnets are reachable", ev);
            }
            return CheckResult.pass("", "default-route", "local end: default route"
                    + r.gateway().map(g -> " via " + Addr.text(g)).orElse("") + " dev " + r.egressLabel()
                    + " (table " + r.tableName() + ")", ev);
        } catch (IOException | RtnetlinkException e) {
            return CheckResult.skip("", "default-route", "local end: no default route (" + e.getMessage()
                    + "): only directly routed subnets are reachable", new Evidence().with("local.default", "-"));
        }
    }
}
