package io.jperf.path;

import static io.jperf.path.Fixtures.ip;
import static io.jperf.path.NlBytes.attr;
import static io.jperf.path.NlBytes.cat;
import static io.jperf.path.NlBytes.cstr;
import static io.jperf.path.NlBytes.msg;
import static io.jperf.path.NlBytes.u16;
import static io.jperf.path.NlBytes.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The request/reply logic of {@link Rtnetlink} over canned datagrams. */
class RtnetlinkTest {

    @BeforeAll
    static void littleEndianHost() {
        org.junit.jupiter.api.Assumptions.assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN);
    }

    /** Answers each request with the datagrams a function of its sequence number produces. */
    static final class Fake implements Rtnetlink.Transport {
        final List<byte[]> sent = new ArrayList<>();
        final Deque<IntFunction<List<byte[]>>> script = new ArrayDeque<>();
        final Deque<byte[]> pending = new ArrayDeque<>();
        boolean closed;

        Fake then(IntFunction<List<byte[]>> reply) {
            script.add(reply);
            return this;
        }

        @Override
        public void send(byte[] datagram) {
            sent.add(datagram);
            int seq = java.nio.ByteBuffer.wrap(datagram).order(ByteOrder.nativeOrder()).getInt(8);
            pending.addAll(script.removeFirst().apply(seq));
        }

        @Override
        public byte[] receive() throws IOException {
            if (pending.isEmpty()) {
                throw new IOException("recv timed out (fake)");
            }
            return pending.removeFirst();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static byte[] rule(int seq, int prio, int table) {
        byte[] hdr = cat(new byte[] {2, 0, 0, 0, (byte) Math.min(table, 252), 0, 0, 1}, u32(0));
        return msg(Nl.RTM_NEWRULE, Nl.NLM_F_MULTI, seq, hdr, attr(Nl.FRA_TABLE, u32(table)),
                prio == 0 ? new byte[0] : attr(Nl.FRA_PRIORITY, u32(prio)));
    }

    static byte[] done(int seq) {
        return msg(Nl.NLMSG_DONE, Nl.NLM_F_MULTI, seq, u32(0));
    }

    static byte[] error(int seq, int errno) {
        return msg(Nl.NLMSG_ERROR, Nl.NLM_F_CAPPED, seq, u32(-errno), msg(Nl.RTM_GETROUTE, 1, seq));
    }

    static byte[] link(int seq, int index, String name) {
        byte[] ifinfo = cat(new byte[] {0, 0}, u16(1), u32(index), u32(0), u32(0));
        return msg(Nl.RTM_NEWLINK, 0, seq, ifinfo, attr(Nl.IFLA_IFNAME, cstr(name)), attr(Nl.IFLA_MTU, u32(1500)),
                attr(Nl.IFLA_OPERSTATE, new byte[] {6}));
    }

    @Test
    void ruleDumpAcrossTwoDatagramsSkippingStaleReplies() throws IOException {
        Fake fake = new Fake().then(s -> List.of(
                cat(rule(s - 1, 5, 7), rule(s, 0, 255)),          // a stale reply from an earlier request comes first
                cat(rule(s, 32766, 254), rule(s, 32767, 253), done(s))));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 100)) {
            List<PolicyRule> rules = rtnl.rules(Nl.AF_INET);
            assertEquals(List.of(0L, 32766L, 32767L), rules.stream().map(PolicyRule::priority).toList());
            assertEquals(101, java.nio.ByteBuffer.wrap(fake.sent.get(0)).order(ByteOrder.nativeOrder()).getInt(8));
        }
        assertTrue(fake.closed);
    }

    @Test
    void interruptedDumpIsRepeated() throws IOException {
        Fake fake = new Fake()
                .then(s -> List.of(cat(msg(Nl.RTM_NEWRULE, Nl.NLM_F_MULTI | Nl.NLM_F_DUMP_INTR, s,
                        cat(new byte[] {2, 0, 0, 0, 1, 0, 0, 1}, u32(0))), done(s))))
                .then(s -> List.of(cat(rule(s, 0, 255), done(s))));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            assertEquals(1, rtnl.rules(Nl.AF_INET).size());
            assertEquals(2, fake.sent.size());
        }
    }

    @Test
    void routeLookupAsksRouteThenFibMatchThenLinkName() throws IOException {
        Fake fake = new Fake()
                .then(s -> List.of(NlCodecTest.routeAnswer(s)))
                .then(s -> List.of(msg(Nl.RTM_NEWROUTE, 0, s, cat(new byte[] {2, 0, 0, 0, 101, 3, 0, 1}, u32(0)),
                        attr(Nl.RTA_TABLE, u32(101)), attr(Nl.RTA_OIF, u32(4)))))
                .then(s -> List.of(link(s, 4, "eth2")));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            Route r = rtnl.route(ip("198.51.100.7"), ip("10.11.0.2"));
            assertEquals(Optional.of("eth2"), r.egressNetdev());
            assertEquals(Optional.of(new Prefix(ip("0.0.0.0"), 0)), r.matchedPrefix());
            assertEquals(3, r.protocol());
            assertEquals(101, r.table());
        }
        assertEquals(Nl.RTM_GETROUTE, fake.sent.get(0)[4]);
        assertEquals(0x10, fake.sent.get(0)[16 + 9], "first query: RTM_F_LOOKUP_TABLE only");
        assertEquals(0x30, fake.sent.get(1)[16 + 9], "second query: LOOKUP_TABLE | FIB_MATCH");
        assertEquals(Nl.RTM_GETLINK, fake.sent.get(2)[4]);
    }

    @Test
    void fibMatchRefusalLeavesThePrefixEmpty() throws IOException {
        Fake fake = new Fake()
                .then(s -> List.of(NlCodecTest.routeAnswer(s)))
                .then(s -> List.of(error(s, 22)))
                .then(s -> List.of(link(s, 4, "eth2")));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            Route r = rtnl.route(ip("198.51.100.7"), ip("10.11.0.2"));
            assertEquals(Optional.empty(), r.matchedPrefix());
            assertEquals(Optional.of("eth2"), r.egressNetdev());
        }
    }

    @Test
    void kernelRefusalNamesRequestErrnoAndMeaning() {
        Fake fake = new Fake().then(s -> List.of(error(s, 101)));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            RtnetlinkException e = assertThrows(RtnetlinkException.class,
                    () -> rtnl.route(ip("203.0.113.9"), ip("10.0.0.1")));
            assertEquals("RTM_GETROUTE to 203.0.113.9 from 10.0.0.1 failed: ENETUNREACH (101): Network is unreachable",
                    e.getMessage());
            assertEquals(101, e.errno());
            assertEquals("RTM_GETROUTE to 203.0.113.9 from 10.0.0.1", e.request());
        }
    }

    @Test
    void unknownLinkIsEmptyAndDumpErrorInDoneIsReported() throws IOException {
        Fake fake = new Fake().then(s -> List.of(error(s, 19)))
                .then(s -> List.of(msg(Nl.NLMSG_DONE, Nl.NLM_F_MULTI, s, u32(-22))));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            assertEquals(Optional.empty(), rtnl.link(99));
            RtnetlinkException e = assertThrows(RtnetlinkException.class, () -> rtnl.rules(Nl.AF_INET));
            assertTrue(e.getMessage().startsWith("RTM_GETRULE dump (IPv4) failed: EINVAL (22)"), e.getMessage());
        }
    }

    @Test
    void malformedReplyIsAnRtnetlinkExceptionNamingTheRequest() {
        Fake fake = new Fake().then(s -> List.of(new byte[] {(byte) 200, 0, 0, 0, 24, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            RtnetlinkException e = assertThrows(RtnetlinkException.class, () -> rtnl.route(ip("10.0.0.1"), null));
            assertTrue(e.getMessage().startsWith("RTM_GETROUTE to 10.0.0.1 failed: malformed reply: "), e.getMessage());
        }
    }

    @Test
    void timeoutPropagates() {
        Fake fake = new Fake().then(s -> List.of());
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            IOException e = assertThrows(IOException.class, () -> rtnl.rules(Nl.AF_INET));
            assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        }
    }

    @Test
    void addressesFilterByIfindexOverBothFamilies() throws IOException {
        Fake fake = new Fake()
                .then(s -> List.of(cat(
                        msg(Nl.RTM_NEWADDR, Nl.NLM_F_MULTI, s, cat(new byte[] {2, 8, 0, (byte) 254}, u32(1)),
                                attr(Nl.IFA_LOCAL, NlBytes.ipv4(127, 0, 0, 1))),
                        msg(Nl.RTM_NEWADDR, Nl.NLM_F_MULTI, s, cat(new byte[] {2, 24, 0, 0}, u32(3)),
                                attr(Nl.IFA_LOCAL, NlBytes.ipv4(10, 0, 0, 5))),
                        done(s))))
                .then(s -> List.of(done(s)));
        try (Rtnetlink rtnl = new Rtnetlink(fake, 0)) {
            assertEquals(List.of(ip("10.0.0.5")), rtnl.addresses(3));
        }
    }
}
