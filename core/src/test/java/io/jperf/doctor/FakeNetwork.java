package io.jperf.doctor;

import io.jperf.path.LinkInfo;
import io.jperf.path.NetworkView;
import io.jperf.path.PolicyRule;
import io.jperf.path.Prefix;
import io.jperf.path.Route;
import io.jperf.path.RtnetlinkException;
import io.jperf.path.RouteType;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A scripted kernel: links, addresses with prefixes, policy rules and routing tables, with a
 * lookup that walks the rules by priority and takes the longest matching prefix of the table,
 * as {@code ip route get DST from SRC} does (without the local table).
 */
final class FakeNetwork implements NetworkView {
    record Entry(long table, Prefix prefix, int ifindex, Optional<InetAddress> gateway) {
    }

    final Map<Integer, String> names = new LinkedHashMap<>();
    final Map<Integer, List<Prefix>> prefixes = new LinkedHashMap<>();
    final List<PolicyRule> rules = new ArrayList<>();
    final List<Entry> routes = new ArrayList<>();
    final List<String> asked = new ArrayList<>();

    static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static Prefix prefix(String cidr) {
        int slash = cidr.indexOf('/');
        return new Prefix(ip(cidr.substring(0, slash)), Integer.parseInt(cidr.substring(slash + 1)));
    }

    FakeNetwork link(int ifindex, String name, String... cidrs) {
        names.put(ifindex, name);
        prefixes.put(ifindex, new ArrayList<>(List.of(cidrs).stream().map(FakeNetwork::prefix).toList()));
        return this;
    }

    FakeNetwork rule(long priority, String fromCidrOrNull, long table) {
        rules.add(PolicyRule.lookup(2, priority, fromCidrOrNull == null ? null : prefix(fromCidrOrNull), null, table));
        rules.sort(Comparator.comparingLong(PolicyRule::priority));
        return this;
    }

    FakeNetwork route(long table, String cidr, int ifindex, String gatewayOrNull) {
        routes.add(new Entry(table, prefix(cidr), ifindex, Optional.ofNullable(gatewayOrNull).map(FakeNetwork::ip)));
        return this;
    }

    /** The lab's multirail guest A: per-rail tables selected by source, eth0 with the default route. */
    static FakeNetwork multirail() {
        return new FakeNetwork()
                .link(2, "eth0", "192.168.1.10/24")
                .link(3, "rail0", "10.20.0.1/24", "fe80::5054:ff:fe4c:100/64")
                .link(4, "rail1", "10.20.1.1/24", "fe80::5054:ff:fe4c:101/64")
                .rule(100, "10.20.0.1/32", 100).rule(101, "10.20.1.1/32", 101).rule(32766, null, 254)
                .route(100, "10.20.0.0/24", 3, null).route(101, "10.20.1.0/24", 4, null)
                .route(254, "192.168.1.0/24", 2, null).route(254, "10.20.0.0/24", 3, null)
                .route(254, "10.20.1.0/24", 4, null).route(254, "0.0.0.0/0", 2, "192.168.1.1");
    }

    /** single-default-route: no per-rail tables or rules, no connected routes, one default out of rail0. */
    static FakeNetwork singleDefaultRoute() {
        return new FakeNetwork()
                .link(2, "eth0", "192.168.1.10/24")
                .link(3, "rail0", "10.20.0.1/24")
                .link(4, "rail1", "10.20.1.1/24")
                .rule(32766, null, 254)
                .route(254, "192.168.1.0/24", 2, null).route(254, "0.0.0.0/0", 3, null);
    }

    @Override
    public Route route(InetAddress destination, InetAddress sourceOrNull) throws IOException {
        asked.add(destination.getHostAddress() + (sourceOrNull == null ? "" : " from " + sourceOrNull.getHostAddress()));
        for (PolicyRule rule : rules) {
            if (rule.from().isPresent() && (sourceOrNull == null || !rule.from().get().contains(sourceOrNull))) {
                continue;
            }
            Optional<Entry> best = routes.stream().filter(e -> e.table() == rule.table() && e.prefix().contains(destination))
                    .max(Comparator.comparingInt(e -> e.prefix().length()));
            if (best.isPresent()) {
                Entry e = best.get();
                Optional<InetAddress> prefsrc = sourceOrNull != null ? Optional.empty()
                        : prefixes.getOrDefault(e.ifindex(), List.of()).stream().filter(Prefix::isIpv4)
                                .map(Prefix::address).findFirst();
                return new Route(destination, Optional.ofNullable(sourceOrNull), (int) e.table(), RouteType.UNICAST,
                        e.ifindex(), Optional.ofNullable(names.get(e.ifindex())), e.gateway(), prefsrc,
                        Optional.of(e.prefix()), 4);
            }
        }
        // what Rtnetlink throws when no table has a route (the lab's scenarios without a default route)
        throw RtnetlinkException.refused("RTM_GETROUTE to " + destination.getHostAddress(), 101);
    }

    @Override
    public List<PolicyRule> rules(int family) {
        return List.copyOf(rules);
    }

    @Override
    public Optional<LinkInfo> link(int ifindex) {
        return Optional.ofNullable(names.get(ifindex)).map(n -> new LinkInfo(ifindex, n, 9000, "up", OptionalInt.empty()));
    }

    @Override
    public List<InetAddress> addresses(int ifindex) {
        return prefixes(ifindex).stream().map(Prefix::address).toList();
    }

    @Override
    public List<Prefix> prefixes(int ifindex) {
        return List.copyOf(prefixes.getOrDefault(ifindex, List.of()));
    }
}
