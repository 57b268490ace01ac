package io.jperf.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link Rtnetlink} against the running kernel of this machine: no root, no RDMA needed. */
class RtnetlinkKernelTest {

    private static Rtnetlink rtnl;

    @BeforeAll
    static void open() throws IOException {
        rtnl = Rtnetlink.open();
    }

    @AfterAll
    static void close() {
        rtnl.close();
    }

    @Test
    void loopbackIsTableLocalViaLo() throws IOException {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        Route r = rtnl.route(lo, null);
        // 255 once the local and main tables are split (any custom rule ever added); 254 while
        // the kernel still keeps them merged in one trie (a fresh namespace or host, like this one).
        assertTrue(r.table() == 255 || r.table() == 254, r.toString());
        assertEquals(RouteType.LOCAL, r.type());
        assertEquals(Optional.of("lo"), r.egressNetdev());
        assertEquals(1, r.egressIfindex());
        assertEquals(Optional.of(lo), r.preferredSource());
        assertTrue(r.matchedPrefix().isPresent(), "fibmatch answered: " + r);
        assertTrue(r.matchedPrefix().get().contains(lo), r.matchedPrefix().toString());
    }

    @Test
    void loopbackFromItselfMatchesRuleZero() throws IOException {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        Route r = rtnl.route(lo, lo);
        assertEquals(Optional.of(lo), r.source());
        RuleMatcher.Outcome o = RuleMatcher.match(rtnl.rules(Nl.AF_INET), r);
        assertEquals(0, o.match().orElseThrow(() -> new AssertionError(o.note())).rule().priority());
    }

    @Test
    void standardRulesArePresent() throws IOException {
        List<PolicyRule> rules = rtnl.rules(Nl.AF_INET);
        assertTrue(rules.stream().anyMatch(r -> r.priority() == 0 && r.table() == 255 && r.from().isEmpty()), rules.toString());
        assertTrue(rules.stream().anyMatch(r -> r.priority() == 32766 && r.table() == 254), rules.toString());
        assertTrue(rules.stream().anyMatch(r -> r.priority() == 32767 && r.table() == 253), rules.toString());
        assertEquals("0: from all lookup local", rules.stream().filter(r -> r.priority() == 0).findFirst().orElseThrow().toString());
        assertTrue(rtnl.rules(Nl.AF_INET6).stream().anyMatch(r -> r.priority() == 32766 && r.table() == 254));
    }

    @Test
    void defaultRouteEgressMatchesProcNetRoute() throws IOException {
        Optional<String[]> def = Files.readAllLines(Path.of("/proc/net/route")).stream().skip(1)
                .map(l -> l.trim().split("\\s+"))
                .filter(c -> c.length > 7 && c[1].equals("00000000") && c[7].equals("00000000"))
                .findFirst();
        Assumptions.assumeTrue(def.isPresent(), "no IPv4 default route in /proc/net/route here");
        // TEST-NET-3: never on a local subnet; nothing is sent, the kernel only answers a lookup.
        Route r = rtnl.route(InetAddress.getByName("203.0.113.77"), null);
        assertEquals(def.get()[0], r.egressNetdev().orElseThrow(), r.toString());
        assertEquals(RouteType.UNICAST, r.type());
        assertEquals(254, r.table(), "default route from the main table");
        assertEquals("0.0.0.0/0", r.matchedPrefix().map(Prefix::toString).orElse("?"));
        assertTrue(r.preferredSource().isPresent(), "kernel picks a source: " + r);
        long gw = Long.parseLong(def.get()[2], 16);
        byte[] gwBytes = {(byte) gw, (byte) (gw >> 8), (byte) (gw >> 16), (byte) (gw >> 24)}; // little-endian hex
        assertEquals(Optional.of(InetAddress.getByAddress(gwBytes)), r.gateway());
        RuleMatcher.Outcome o = RuleMatcher.match(rtnl.rules(Nl.AF_INET), r);
        assertEquals(32766, o.match().orElseThrow(() -> new AssertionError(o.note())).rule().priority());
    }

    @Test
    void linkAndAddressesOfLo() throws IOException {
        LinkInfo lo = rtnl.link(1).orElseThrow();
        assertEquals("lo", lo.name());
        assertEquals(Files.readString(Path.of("/sys/class/net/lo/mtu")).strip(), Integer.toString(lo.mtu()));
        assertEquals(Files.readString(Path.of("/sys/class/net/lo/operstate")).strip(), lo.operstate());
        assertTrue(lo.vlanId().isEmpty());
        assertTrue(rtnl.link(0x7ffffff0).isEmpty(), "unknown ifindex is empty, not an error");
        assertTrue(rtnl.addresses(1).contains(InetAddress.getByName("127.0.0.1")), rtnl.addresses(1).toString());
    }

    @Test
    void unroutableSourceIsAnErrorNamingTheCallAndErrno() throws IOException {
        // 198.51.100.250 (TEST-NET-2) is not an address of this host, so it cannot be a source.
        RtnetlinkException e = assertThrows(RtnetlinkException.class, () -> rtnl.route(
                InetAddress.getByName("127.0.0.1"), InetAddress.getByName("198.51.100.250")));
        assertTrue(e.getMessage().startsWith("RTM_GETROUTE to 127.0.0.1 from 198.51.100.250 failed: E"), e.getMessage());
        assertFalse(e.errno() == 0, e.getMessage());
    }
}
