package io.jperf.path;

import static io.jperf.path.Fixtures.healthy;
import static io.jperf.path.Fixtures.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.report.JsonReader;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortState;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/** {@link PathJson#read}: the exact inverse of {@link PathJson#write}, and its errors for bad peer input. */
class PathJsonReadTest {

    /** Every Optional empty, no gaps, unknown NUMA. */
    static PathRecord minimal() {
        RdmaEnd d = new RdmaEnd("mlx5_0", 1, LinkLayer.ETHERNET, PortState.DOWN, Mtu.MTU_256, 0,
                Gid.fromAddress(ip("10.0.0.1")), GidType.ROCE_V2, Optional.empty(), 0, OptionalInt.empty(), false);
        return new PathRecord(d, Optional.empty(), ip("10.0.0.2"), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), new TrafficClass(0), new NumaPlacement(-1, -1, -1), List.of());
    }

    /** The golden record of {@link PathOutputTest}: route, lookup rule, netdev, VLAN 100, a gap. */
    static PathRecord fullIpv4() {
        return PathOutputTest.vlanRecord();
    }

    /** IPv6 throughout, and every rule field away from its default. */
    static PathRecord fullIpv6() {
        RdmaEnd d = new RdmaEnd("rxe0", 2, LinkLayer.ETHERNET, PortState.ACTIVE_DEFER, Mtu.MTU_1024, 7,
                Gid.fromAddress(ip("fd00:1::5")), GidType.ROCE_V1, Optional.of("eth3.42"), 12, OptionalInt.of(42), true);
        Route route = new Route(ip("fd00:2::7"), Optional.of(ip("fd00:1::5")), 254, RouteType.UNICAST, 12,
                Optional.of("eth3.42"), Optional.of(ip("fe80::1")), Optional.of(ip("fd00:1::5")),
                Optional.of(new Prefix(ip("fd00:2::"), 64)), -1);
        PolicyRule rule = new PolicyRule(10, 32765, Optional.of(new Prefix(ip("fd00:1::"), 48)),
                Optional.of(new Prefix(ip("fd00:2::7"), 128)), Optional.of("lo"), Optional.of("eth3.42"), 0x10,
                0xffffffffL, 0x20, RuleAction.GOTO, 0, 32766, true, 0, List.of("uidrange 1000-2000", "ipproto tcp"));
        NetdevState nd = new NetdevState("eth3.42", 1500, "lowerlayerdown",
                List.of(ip("fd00:1::5"), ip("fe80::fc:ff:fe00:1"), ip("10.9.8.7"), ip("::"), mapped("10.1.2.3")));
        return new PathRecord(d, Optional.of(ip("fd00:1::5")), ip("fd00:2::7"), Optional.of(route),
                Optional.of(new RuleMatch(rule, "fwmark \"quoted\"\nsecond line \u00e9")), Optional.of(ip("fd00:1::9")),
                Optional.of(nd), new TrafficClass(255), new NumaPlacement(0, 63, 1), List.of("gap one", "", "gap \"3\""));
    }

    /** An Inet6Address holding an IPv4-mapped address (InetAddress.getByName would give an Inet4Address). */
    private static InetAddress mapped(String ipv4) {
        try {
            byte[] b = new byte[16];
            b[10] = (byte) 0xff;
            b[11] = (byte) 0xff;
            System.arraycopy(ip(ipv4).getAddress(), 0, b, 12, 4);
            return Inet6Address.getByAddress(null, b, null);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static PathRecord roundTrip(PathRecord r) {
        PathRecord back = PathJson.read(PathJson.toJson(r));
        assertEquals(r, back);
        assertEquals(PathJson.toJson(r), PathJson.toJson(back));
        return back;
    }

    @Test
    void recordsCompareByValue() {
        // the round trips below rely on equals() of every component being by value
        assertEquals(fullIpv6(), fullIpv6(), "fresh InetAddress, Gid, List and Optional objects compare equal");
        assertEquals(fullIpv6().hashCode(), fullIpv6().hashCode());
        assertEquals(ip("10.0.0.1"), InetAddress.ofLiteral("10.0.0.1"), "the host name is not compared");
        assertNotEquals(ip("::ffff:10.0.0.1"), mapped("10.0.0.1"), "Inet4Address and mapped Inet6Address differ");
        PathRecord a = fullIpv6();
        assertNotEquals(a, new PathRecord(a.rdma(), a.source(), a.destination(), a.route(), a.rule(), a.unboundSource(),
                a.netdev(), a.trafficClass(), a.numa(), List.of("gap one", "", "gap \"3\"", "more")));
        RdmaEnd d = a.rdma();
        assertNotEquals(d, new RdmaEnd(d.device(), d.port(), LinkLayer.INFINIBAND, d.portState(), d.activeMtu(),
                d.gidIndex(), d.gid(), d.gidType(), d.netdev(), d.ifindex(), d.vlanId(), d.portHasIpGid()));
        PolicyRule p = a.rule().get().rule();
        assertNotEquals(p, new PolicyRule(p.family(), p.priority(), p.from(), p.to(), p.iifName(), p.oifName(),
                p.fwmark(), p.fwmask(), p.tos(), p.action(), p.table(), p.gotoTarget(), p.invert(),
                p.suppressPrefixLength(), List.of("uidrange 1000-2000")));
    }

    @Test
    void minimalRecordWithEveryOptionalEmpty() {
        PathRecord back = roundTrip(minimal());
        assertTrue(back.route().isEmpty() && back.rule().isEmpty() && back.netdev().isEmpty());
        assertTrue(back.source().isEmpty() && back.unboundSource().isEmpty() && back.rdma().netdev().isEmpty());
        assertTrue(back.rdma().vlanId().isEmpty());
        assertTrue(back.gaps().isEmpty());
    }

    @Test
    void fullIpv4RecordWithRouteRuleNetdevAndVlan() {
        PathRecord back = roundTrip(fullIpv4());
        assertEquals(OptionalInt.of(100), back.rdma().vlanId());
        assertEquals("1000: from 10.0.1.5 lookup 101", back.rule().get().rule().toString());
        assertEquals(List.of("example gap"), back.gaps());
    }

    @Test
    void fullIpv6RecordWithEveryRuleField() {
        PathRecord back = roundTrip(fullIpv6());
        assertInstanceOf(Inet6Address.class, back.destination());
        assertEquals(-1, back.route().get().protocol(), "null protocol is -1");
        assertEquals(List.of("uidrange 1000-2000", "ipproto tcp"), back.rule().get().rule().unevaluated());
        List<InetAddress> addresses = back.netdev().get().addresses();
        assertInstanceOf(Inet4Address.class, addresses.get(2));
        assertInstanceOf(Inet6Address.class, addresses.get(4), "an IPv4-mapped IPv6 address stays IPv6");
    }

    @Test
    void everyEnumConstantRoundTrips() {
        PathRecord base = fullIpv6();
        for (LinkLayer ll : LinkLayer.values()) {
            for (PortState ps : PortState.values()) {
                roundTrip(withRdma(base, ll, ps, Mtu.MTU_2048, GidType.IB));
            }
        }
        for (Mtu m : Mtu.values()) {
            for (GidType g : GidType.values()) {
                roundTrip(withRdma(base, LinkLayer.UNSPECIFIED, PortState.INIT, m, g));
            }
        }
        for (RouteType t : RouteType.values()) {
            Route r = base.route().get();
            roundTrip(with(base, Optional.of(new Route(r.destination(), Optional.empty(), 255, t, 0, Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), 255)), base.rule()));
        }
        for (RuleAction a : RuleAction.values()) {
            PolicyRule p = new PolicyRule(2, 0, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    0xffffffffL, 0, 0, a, 0xffffffffL, 0, false, -1, List.of());
            roundTrip(with(base, base.route(), Optional.of(new RuleMatch(p, ""))));
        }
    }

    private static PathRecord withRdma(PathRecord r, LinkLayer ll, PortState ps, Mtu mtu, GidType type) {
        RdmaEnd d = r.rdma();
        return Fixtures.withRdma(r, new RdmaEnd(d.device(), d.port(), ll, ps, mtu, d.gidIndex(), d.gid(), type,
                d.netdev(), d.ifindex(), d.vlanId(), d.portHasIpGid()));
    }

    private static PathRecord with(PathRecord r, Optional<Route> route, Optional<RuleMatch> rule) {
        return new PathRecord(r.rdma(), r.source(), r.destination(), route, rule, r.unboundSource(), r.netdev(),
                r.trafficClass(), r.numa(), r.gaps());
    }

    @Test
    @SuppressWarnings("unchecked")
    void recordsInsideTheVerdictDocument() {
        PathRecord local = fullIpv4();
        PathRecord peer = healthy("10.0.2.7", "10.0.1.5", "eth5");
        List<Verdict> verdicts = Verdicts.evaluate(local, peer);
        Map<String, Object> doc = JsonReader.parseObject(PathJson.toJson(local, peer, verdicts));
        assertEquals(local, PathJson.read((Map<String, Object>) doc.get("local")));
        assertEquals(peer, PathJson.read((Map<String, Object>) doc.get("peer")));
        assertNull(JsonReader.parseObject(PathJson.toJson(local, null, verdicts)).get("peer"));
    }

    @Test
    void verdictsOnAReadPeerMatchTheOriginal() {
        PathRecord local = healthy("10.0.1.5", "10.0.2.7", "eth2");
        for (PathRecord peer : List.of(healthy("10.0.2.7", "10.0.1.5", "eth5"), fullIpv6(), minimal())) {
            PathRecord read = PathJson.read(PathJson.toJson(peer));
            assertEquals(Verdicts.evaluate(local, peer, Verdicts.Option.QOS_EXPECTED),
                    Verdicts.evaluate(local, read, Verdicts.Option.QOS_EXPECTED));
        }
    }

    @Test
    void unknownAndDerivedMembersAreIgnored() {
        PathRecord r = fullIpv4();
        String json = PathJson.toJson(r)
                .replace("\"rdma\": {", "\"future\": {\"x\": [1, 2.5, null]}, \"rdma\": {\"futureRdma\": true, ")
                .replace("\"tableName\": \"101\"", "\"tableName\": \"renamed\"")
                .replace("\"text\": \"1000: from 10.0.1.5 lookup 101\"", "\"text\": \"a newer rendering\"")
                .replace("\"dscp\": 26", "\"dscp\": 0")
                .replace("\"linkLayer\": \"Ethernet\"", "\"linkLayer\": \"something\"");
        assertTrue(json.contains("futureRdma") && json.contains("a newer rendering"), json);
        assertEquals(r, PathJson.read(json));
    }

    private static String readError(PathRecord r, Consumer<Map<String, Object>> edit) {
        Map<String, Object> doc = JsonReader.parseObject(PathJson.toJson(r));
        edit.accept(doc);
        return assertThrows(IllegalArgumentException.class, () -> PathJson.read(doc)).getMessage();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Map<String, Object> doc, String path) {
        Map<String, Object> m = doc;
        for (String name : path.split("\\.")) {
            m = (Map<String, Object>) m.get(name);
        }
        return m;
    }

    @Test
    void missingRequiredMembersAreNamed() {
        PathRecord r = fullIpv6();
        assertEquals("path record: field 'rdma.gid.value' is missing",
                readError(r, doc -> at(doc, "rdma.gid").remove("value")));
        assertEquals("path record: field 'rdma.portHasIpGid' is missing",
                readError(r, doc -> at(doc, "rdma").remove("portHasIpGid")));
        assertEquals("path record: field 'rdma' is missing", readError(r, doc -> doc.remove("rdma")));
        assertEquals("path record: field 'route.source' is missing",
                readError(r, doc -> at(doc, "route").remove("source")));
        assertEquals("path record: field 'rule.unevaluated' is missing",
                readError(r, doc -> at(doc, "rule").remove("unevaluated")));
        assertEquals("path record: field 'numa.cpuNode' is missing",
                readError(r, doc -> at(doc, "numa").remove("cpuNode")));
        assertEquals("path record: field 'gaps' is missing", readError(r, doc -> doc.remove("gaps")));
        assertEquals("path record: field 'unboundSource' is missing", readError(r, doc -> doc.remove("unboundSource")),
                "an empty Optional is null, never absent");
    }

    @Test
    void wrongTypesAndValuesAreNamed() {
        PathRecord r = fullIpv6();
        assertEquals("path record: field 'destination' is null, expected a string",
                readError(r, doc -> doc.put("destination", null)));
        assertEquals("path record: field 'rdma.port' is a string, expected an integer",
                readError(r, doc -> at(doc, "rdma").put("port", "1")));
        assertEquals("path record: field 'rdma.port' is a fractional number, expected an integer",
                readError(r, doc -> at(doc, "rdma").put("port", 1.0)));
        assertEquals("path record: field 'rdma.port' is 4294967296, out of the 32-bit range",
                readError(r, doc -> at(doc, "rdma").put("port", 4294967296L)));
        assertEquals("path record: field 'rdma.portState' is \"ZOMBIE\", expected one of"
                        + " NOP, DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER, UNKNOWN",
                readError(r, doc -> at(doc, "rdma").put("portState", "ZOMBIE")));
        assertEquals("path record: field 'rdma.gid.type' is an integer, expected one of IB, RoCE v1, RoCE v2",
                readError(r, doc -> at(doc, "rdma.gid").put("type", 2L)));
        assertEquals("path record: field 'rdma.activeMtu' is MTU 4000 is not one of 256, 512, 1024, 2048, 4096",
                readError(r, doc -> at(doc, "rdma").put("activeMtu", 4000L)));
        assertEquals("path record: field 'rdma.gid.value' is \"fe80::1\", not a GID",
                readError(r, doc -> at(doc, "rdma.gid").put("value", "fe80::1")));
        assertEquals("path record: field 'rule.invert' is a string, expected true or false",
                readError(r, doc -> at(doc, "rule").put("invert", "true")));
        assertEquals("path record: field 'route' is an array, expected an object",
                readError(r, doc -> doc.put("route", List.of())));
        assertEquals("path record: field 'gaps[1]' is an integer, expected a string",
                readError(r, doc -> doc.put("gaps", List.of("a", 1L))));
        assertEquals("path record: field 'netdev.addresses' is a string, expected an array",
                readError(r, doc -> at(doc, "netdev").put("addresses", "fd00::1")));
        assertEquals("path record: invalid value in 'trafficClass': traffic class 300 is not a byte (0..255)",
                readError(r, doc -> at(doc, "trafficClass").put("value", 300L)));
    }

    @Test
    void addressesAreLiteralsOnly() {
        PathRecord r = fullIpv6();
        assertEquals("path record: field 'destination' is \"localhost\", not an IP address",
                readError(r, doc -> doc.put("destination", "localhost")), "no DNS lookup for peer input");
        assertEquals("path record: field 'netdev.addresses[0]' is \"10.0.0.256\", not an IP address",
                readError(r, doc -> at(doc, "netdev").put("addresses", List.of("10.0.0.256"))));
        assertEquals("path record: field 'route.gateway' is \"\\u000a\", not an IP address",
                readError(r, doc -> at(doc, "route").put("gateway", "\n")));
        assertEquals("path record: field 'rule.from' is \"10.0.0.0/33\": prefix length 33 outside 0..32",
                readError(r, doc -> at(doc, "rule").put("from", "10.0.0.0/33")));
        assertEquals("path record: field 'route.matchedPrefix' is \"10.0.0.0\", not an address/length prefix",
                readError(r, doc -> at(doc, "route").put("matchedPrefix", "10.0.0.0")));
        assertEquals("path record: field 'rule.to' is \"fd00::/+1\", not an address/length prefix",
                readError(r, doc -> at(doc, "rule").put("to", "fd00::/+1")));
        String longText = "x".repeat(1000);
        String msg = readError(r, doc -> doc.put("source", longText));
        assertTrue(msg.length() < 120, "peer text is shortened in messages: " + msg);
    }

    @Test
    void malformedTextFailsWithTheParserMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PathJson.read("{\"rdma\": {\"device\": \"mlx5_0\" \"port\": 1}}"));
        assertInstanceOf(JsonReader.JsonException.class, e);
        assertEquals("expected ',' or '}' at offset 29", e.getMessage());
        assertEquals("expected a JSON object as the top-level value at offset 0",
                assertThrows(IllegalArgumentException.class, () -> PathJson.read("[]")).getMessage());
        String truncated = PathJson.toJson(fullIpv6());
        assertThrows(JsonReader.JsonException.class, () -> PathJson.read(truncated.substring(0, truncated.length() / 2)));
    }
}
