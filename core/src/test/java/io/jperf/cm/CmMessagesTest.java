package io.jperf.cm;

import io.jperf.path.Addr;
import io.jperf.path.LinkInfo;
import io.jperf.path.NetworkView;
import io.jperf.path.PolicyRule;
import io.jperf.path.Prefix;
import io.jperf.path.Route;
import io.jperf.path.RouteType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Event decoding into {@link CmException} messages, with hand-built routes: each names the call,
 * the addresses, the event/status or errno, the tries, the kernel's route and a hint.
 */
class CmMessagesTest {

    static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static final List<PolicyRule> STANDARD_RULES = List.of(
            PolicyRule.lookup(2, 0, null, null, 255),
            PolicyRule.lookup(2, 32766, null, null, 254),
            PolicyRule.lookup(2, 32767, null, null, 253));

    /** A view answering one route (or an error) and the standard rules. */
    static NetworkView view(Route route, String error, List<PolicyRule> rules) {
        return new NetworkView() {
            @Override
            public Route route(InetAddress destination, InetAddress sourceOrNull) throws IOException {
                if (route == null) {
                    throw new IOException(error);
                }
                return route;
            }

            @Override
            public List<PolicyRule> rules(int family) {
                return rules;
            }

            @Override
            public Optional<LinkInfo> link(int ifindex) {
                return Optional.empty();
            }

            @Override
            public List<InetAddress> addresses(int ifindex) {
                return List.of();
            }
        };
    }

    static Route route(String dst, String src, int table, String egress, int ifindex) {
        return new Route(ip(dst), Optional.ofNullable(src).map(CmMessagesTest::ip), table, RouteType.UNICAST, ifindex,
                Optional.of(egress), Optional.empty(), Optional.empty(), Optional.of(new Prefix(ip("10.30.0.0"), 24)), 2);
    }

    static RouteExplainer explainer(NetworkView view, Map<String, RouteExplainer.Netdev> netdevs) {
        return new RouteExplainer(view, a -> Optional.ofNullable(netdevs.get(Addr.text(a))));
    }

    static final InetSocketAddress SRC = new InetSocketAddress(ip("10.30.0.11"), 0);
    static final InetSocketAddress DST = new InetSocketAddress(ip("10.30.0.12"), 18515);

    @Test
    void addrErrorOnTheWrongRailNamesEverythingAndSuggestsASourceRule() {
        RouteReport report = explainer(view(route("10.30.0.12", "10.30.0.11", 254, "r0", 2), null, STANDARD_RULES),
                Map.of("10.30.0.11", new RouteExplainer.Netdev("r1", 3))).explain(SRC.getAddress(), DST.getAddress());
        assertFalse(report.consistent());
        assertEquals(Optional.of(32766L), report.rule().map(PolicyRule::priority));

        CmException e = CmException.of("rdma_resolve_addr", CmException.Kind.ERROR_EVENT,
                CmEvent.of(CmEventType.ADDR_ERROR, -110, 0x1000), 0, SRC, DST, 10, Duration.ofSeconds(2), report);
        assertEquals("rdma_resolve_addr 10.30.0.11 -> 10.30.0.12:18515 failed: RDMA_CM_EVENT_ADDR_ERROR"
                + " (status -110 ETIMEDOUT) after 10 tries of 2 s; the kernel routes 10.30.0.12 from 10.30.0.11 via r0"
                + " (table main, rule 32766 'from all lookup main'), but the source address 10.30.0.11 is on r1: the"
                + " RDMA CM follows the kernel's route, so add a rule for the source (`ip rule add from 10.30.0.11"
                + " table 103`) with a route through r1 in that table (`ip route add 10.30.0.12 dev r1 src 10.30.0.11"
                + " table 103`)", e.getMessage());
        assertEquals(-110, e.status());
        assertEquals(10, e.tries());
        assertEquals(CmEventType.ADDR_ERROR, e.event().orElseThrow().type());
        assertEquals(Optional.of("r0"), e.route().orElseThrow().egressNetdev());
    }

    @Test
    void addrErrorOnAConsistentRouteBlamesTheNeighbour() {
        List<PolicyRule> rules = List.of(PolicyRule.lookup(2, 0, null, null, 255),
                PolicyRule.lookup(2, 101, new Prefix(ip("10.30.0.11"), 32), null, 101),
                PolicyRule.lookup(2, 32766, null, null, 254));
        RouteReport report = explainer(view(route("10.30.0.12", "10.30.0.11", 101, "r1", 3), null, rules),
                Map.of("10.30.0.11", new RouteExplainer.Netdev("r1", 3))).explain(SRC.getAddress(), DST.getAddress());
        assertTrue(report.consistent());
        CmException e = CmException.of("rdma_resolve_addr", CmException.Kind.ERROR_EVENT,
                CmEvent.of(CmEventType.ADDR_ERROR, -110, 1), 0, SRC, DST, 2, Duration.ofMillis(500), report);
        assertTrue(e.getMessage().contains("after 2 tries of 500 ms; the kernel routes 10.30.0.12 from 10.30.0.11"
                + " via r1 (table 101, rule 101 'from 10.30.0.11 lookup 101')"), e.getMessage());
        assertTrue(e.getMessage().contains("Hint: the address did not resolve in time: the neighbour (ARP/ND)"),
                e.getMessage());
    }

    @Test
    void theRuleIsFoundByThePathPackagesFullRuleWalk() {
        // 'not from 10.99.0.0/16 lookup main' matches 10.30.0.11: an inverted rule is not passed over
        PolicyRule notFrom = new PolicyRule(2, 90, Optional.of(new Prefix(ip("10.99.0.0"), 16)), Optional.empty(),
                Optional.empty(), Optional.empty(), 0, 0, 0, io.jperf.path.RuleAction.TO_TABLE, 254, 0, true, -1,
                List.of());
        List<PolicyRule> rules = List.of(PolicyRule.lookup(2, 0, null, null, 255), notFrom,
                PolicyRule.lookup(2, 32766, null, null, 254), PolicyRule.lookup(10, 1, null, null, 254));
        RouteReport report = explainer(view(route("10.30.0.12", "10.30.0.11", 254, "r1", 3), null, rules),
                Map.of("10.30.0.11", new RouteExplainer.Netdev("r1", 3))).explain(SRC.getAddress(), DST.getAddress());
        assertEquals(Optional.of(90L), report.rule().map(PolicyRule::priority), "the IPv6 rule is ignored too");
    }

    @Test
    void noRouteSaysSoAndHowToAddOne() {
        RouteReport report = explainer(view(null, "RTM_GETROUTE to 192.0.2.1 from 10.20.0.2 failed: ENETUNREACH (101):"
                        + " Network is unreachable", STANDARD_RULES),
                Map.of("10.20.0.2", new RouteExplainer.Netdev("veth1", 4))).explain(ip("10.20.0.2"), ip("192.0.2.1"));
        CmException e = CmException.of("rdma_resolve_addr", CmException.Kind.CALL_FAILED, null, 101,
                new InetSocketAddress(ip("10.20.0.2"), 0), new InetSocketAddress(ip("192.0.2.1"), 18515), 1,
                Duration.ofSeconds(2), report);
        assertTrue(e.getMessage().startsWith("rdma_resolve_addr 10.20.0.2 -> 192.0.2.1:18515 failed: ENETUNREACH"
                + " (101): "), e.getMessage());
        assertTrue(e.getMessage().contains("; the kernel has no route to 192.0.2.1 from 10.20.0.2 (RTM_GETROUTE to"
                + " 192.0.2.1 from 10.20.0.2 failed: ENETUNREACH (101): Network is unreachable), there is no route:"
                + " add a route to 192.0.2.1 through veth1"), e.getMessage());
        assertEquals(-101, e.status());
        assertEquals(101, e.errno());
    }

    @Test
    void rejectedCarriesTheReasonAndPrivateData() {
        byte[] data = new byte[148];
        data[0] = (byte) 0xca;
        data[1] = (byte) 0xfe;
        CmEvent rejected = new CmEvent(CmEventType.REJECTED, 8, 28, 1, 0, data, 0, 0);
        CmException e = CmException.of("rdma_connect", CmException.Kind.ERROR_EVENT, rejected, 0, SRC, DST, 1,
                Duration.ofSeconds(5), null);
        assertEquals("rdma_connect 10.30.0.11 -> 10.30.0.12:18515 failed: RDMA_CM_EVENT_REJECTED (status 28 (IB CM"
                + " reject reason: consumer defined)), private data cafe. Hint: the server application rejected the"
                + " connection (see its private data / log)", e.getMessage());
        assertEquals(148, e.rejectPrivateData().length);

        CmException noListener = CmException.of("rdma_connect", CmException.Kind.ERROR_EVENT,
                CmEvent.of(CmEventType.REJECTED, 8, 1), 0, SRC, DST, 1, Duration.ofSeconds(5), null);
        assertTrue(noListener.getMessage().contains("(status 8 (IB CM reject reason: invalid service id)). Hint:"
                + " nothing listens on that port of the peer"), noListener.getMessage());
    }

    @Test
    void everyErrorEventHasItsOwnHint() {
        Map<CmEventType, String> expected = Map.of(
                CmEventType.ROUTE_ERROR, "route resolution failed",
                CmEventType.UNREACHABLE, "the peer did not answer the connection request",
                CmEventType.CONNECT_ERROR, "the connection failed after the peer accepted",
                CmEventType.ADDR_CHANGE, "the address of the connection changed",
                CmEventType.DEVICE_REMOVAL, "the RDMA device was removed");
        expected.forEach((type, hint) -> {
            int status = type == CmEventType.UNREACHABLE ? -110 : type == CmEventType.ROUTE_ERROR ? -22 : 0;
            CmException e = CmException.of("rdma_connect", CmException.Kind.ERROR_EVENT, CmEvent.of(type, status, 1), 0,
                    SRC, DST, 1, Duration.ofSeconds(1), null);
            assertTrue(e.getMessage().contains(type.cName()), e.getMessage());
            assertTrue(e.getMessage().contains("Hint: " + hint), e.getMessage());
        });
    }

    @Test
    void timeoutSaysNoEventWithinTheWait() {
        CmException e = CmException.of("rdma_connect", CmException.Kind.TIMEOUT, null, 0, SRC, DST, 1,
                Duration.ofMillis(1500), null);
        assertEquals(CmException.Kind.TIMEOUT, e.kind());
        assertTrue(e.getMessage().startsWith("rdma_connect 10.30.0.11 -> 10.30.0.12:18515 failed: no RDMA CM event"
                + " within 1500 ms. Hint: no RDMA CM event arrived in time"), e.getMessage());
        assertEquals(0, e.status());
    }

    @Test
    void bindFailuresExplainTheAddress() {
        CmException e = CmException.of("rdma_bind_addr", CmException.Kind.CALL_FAILED, null, 19,
                new InetSocketAddress(ip("10.9.9.9"), 0), null, 1, Duration.ZERO, null);
        assertTrue(e.getMessage().startsWith("rdma_bind_addr 10.9.9.9 -> * failed: ENODEV (19): "), e.getMessage());
        assertTrue(e.getMessage().contains("Hint: no RDMA device has that address"), e.getMessage());
    }

    @Test
    void unexpectedEventIsLabelled() {
        CmException e = CmException.of("rdma_connect", CmException.Kind.UNEXPECTED_EVENT,
                CmEvent.of(CmEventType.TIMEWAIT_EXIT, 0, 1), 0, SRC, DST, 1, Duration.ofSeconds(1), null);
        assertTrue(e.getMessage().contains("failed: unexpected RDMA_CM_EVENT_TIMEWAIT_EXIT"), e.getMessage());
    }

    @Test
    void unknownEventNumbersAreKept() {
        CmEvent e = new CmEvent(CmEventType.fromNative(99), 99, 0, 1, 0, null, 0, 0);
        assertEquals(CmEventType.OTHER, e.type());
        assertEquals("RDMA CM event 99", e.describe());
    }

    @Test
    void connectRequestsAreRoutedToTheirListener() {
        CmEvent request = new CmEvent(CmEventType.CONNECT_REQUEST, 4, 0, 0x2000, 0x1000, new byte[0], 1, 1);
        assertEquals(0x1000, request.routingKey());
        assertEquals(0x2000, CmEvent.of(CmEventType.ESTABLISHED, 0, 0x2000).routingKey());
    }

    @Test
    void localRouteIsConsistentAndUnboundSourceShowsThePreferredOne() {
        Route r = new Route(ip("10.30.0.12"), Optional.empty(), 254, RouteType.UNICAST, 2, Optional.of("r0"),
                Optional.of(ip("10.30.0.254")), Optional.of(ip("10.30.0.10")), Optional.empty(), 2);
        RouteReport report = explainer(view(r, null, STANDARD_RULES), Map.of()).explain(null, ip("10.30.0.12"));
        assertTrue(report.consistent());
        assertEquals("the kernel routes 10.30.0.12 via 10.30.0.254 dev r0 (table main, rule 32766 'from all lookup"
                + " main'), source 10.30.0.10", report.toString());
    }
}
