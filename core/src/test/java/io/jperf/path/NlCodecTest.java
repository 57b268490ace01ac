package io.jperf.path;

import static io.jperf.path.Fixtures.ip;
import static io.jperf.path.NlBytes.attr;
import static io.jperf.path.NlBytes.cat;
import static io.jperf.path.NlBytes.cstr;
import static io.jperf.path.NlBytes.hex;
import static io.jperf.path.NlBytes.ipv4;
import static io.jperf.path.NlBytes.msg;
import static io.jperf.path.NlBytes.u16;
import static io.jperf.path.NlBytes.u32;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Byte-exact building and parsing of rtnetlink messages against hand-built arrays. */
class NlCodecTest {

    @BeforeAll
    static void littleEndianHost() {
        // The expected arrays below are little-endian, the host order of every platform jperf targets.
        org.junit.jupiter.api.Assumptions.assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN,
                "expected bytes are written for little-endian hosts");
    }

    // ------------------------------------------------------------------ requests

    @Test
    void routeGetIpv4FromSource() {
        byte[] expected = hex("""
                2c000000 1a00 0100 04030201 00000000
                02 20 20 00  00 00 00 00  00100000
                0800 0100 0a000207
                0800 0200 0a000105
                """);
        assertArrayEquals(expected, NlCodec.routeGetRequest(0x01020304, ip("10.0.2.7"), ip("10.0.1.5"), 0, false));
    }

    @Test
    void routeGetIpv6WithOifAndFibMatch() {
        byte[] expected = hex("""
                38000000 1a00 0100 05000000 00000000
                0a 80 00 00  00 00 00 00  00300000
                1400 0100 fd000000000000000000000000000001
                0800 0400 05000000
                """);
        assertArrayEquals(expected, NlCodec.routeGetRequest(5, ip("fd00::1"), null, 5, true));
    }

    @Test
    void routeGetRejectsMixedFamilies() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NlCodec.routeGetRequest(1, ip("10.0.0.1"), ip("fd00::1"), 0, false));
        assertTrue(e.getMessage().contains("different families"), e.getMessage());
    }

    @Test
    void ruleDumpLinkGetAndAddressDump() {
        assertEquals("1c000000" + "2200" + "0103" + "07000000" + "00000000" + "02000000000000" + "00" + "00000000",
                hex(NlCodec.ruleDumpRequest(7, 2)));
        assertEquals("20000000" + "1200" + "0100" + "09000000" + "00000000"
                        + "00" + "00" + "0000" + "05000000" + "00000000" + "00000000",
                hex(NlCodec.linkGetRequest(9, 5)));
        assertEquals("18000000" + "1600" + "0103" + "0b000000" + "00000000" + "0a000000" + "00000000",
                hex(NlCodec.addressDumpRequest(11, 10)));
    }

    // ------------------------------------------------------------------ datagrams and errors

    @Test
    void datagramWithTwoMessagesAndPadding() {
        byte[] first = msg(Nl.RTM_NEWRULE, Nl.NLM_F_MULTI, 3, new byte[] {1, 2, 3, 4, 5}); // 21 bytes, padded to 24
        byte[] done = msg(Nl.NLMSG_DONE, Nl.NLM_F_MULTI, 3, u32(0));
        List<NlMessage> ms = NlCodec.parseDatagram(cat(first, new byte[3], done));
        assertEquals(2, ms.size());
        assertEquals(Nl.RTM_NEWRULE, ms.get(0).type());
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, ms.get(0).payload());
        assertEquals(Nl.NLMSG_DONE, ms.get(1).type());
        assertEquals(3, ms.get(1).seq());
        assertEquals(Nl.NLM_F_MULTI, ms.get(1).flags());
    }

    @Test
    void malformedLengthsAreReportedNotIndexErrors() {
        byte[] tooLong = msg(Nl.RTM_NEWROUTE, 0, 1, new byte[12]);
        tooLong[0] = 100;
        var e = assertThrows(NlCodec.MalformedNetlinkException.class, () -> NlCodec.parseDatagram(tooLong));
        assertTrue(e.getMessage().contains("claims 100 bytes"), e.getMessage());
        byte[] tooShort = msg(Nl.RTM_NEWROUTE, 0, 1);
        tooShort[0] = 8;
        assertThrows(NlCodec.MalformedNetlinkException.class, () -> NlCodec.parseDatagram(tooShort));
        byte[] badAttr = cat(new byte[12], u16(40), u16(Nl.RTA_OIF), u32(1));
        var a = assertThrows(NlCodec.MalformedNetlinkException.class,
                () -> NlCodec.attributes(badAttr, 12, "RTM_NEWROUTE"));
        assertTrue(a.getMessage().contains("attribute type 4"), a.getMessage());
    }

    @Test
    void errorWithExtendedAck() {
        byte[] echoed = msg(Nl.RTM_GETROUTE, Nl.NLM_F_REQUEST, 42); // capped: header only
        byte[] payload = cat(u32(-101), echoed, attr(Nl.NLMSGERR_ATTR_MSG, cstr("No route to destination")));
        NlMessage m = NlCodec.parseDatagram(msg(Nl.NLMSG_ERROR, Nl.NLM_F_CAPPED | Nl.NLM_F_ACK_TLVS, 42, payload)).get(0);
        NlCodec.NlError err = NlCodec.parseError(m);
        assertEquals(101, err.errno());
        assertEquals(Optional.of("No route to destination"), err.kernelMessage());
    }

    @Test
    void ackIsErrnoZeroWithoutText() {
        byte[] payload = cat(u32(0), msg(Nl.RTM_GETROUTE, 1, 42, new byte[12]));
        NlCodec.NlError err = NlCodec.parseError(NlCodec.parseDatagram(msg(Nl.NLMSG_ERROR, 0, 42, payload)).get(0));
        assertEquals(0, err.errno());
        assertEquals(Optional.empty(), err.kernelMessage());
    }

    // ------------------------------------------------------------------ routes

    /** What the kernel answers to "198.51.100.7 from 10.11.0.2" on a host with a table-101 rail route. */
    static byte[] routeAnswer(int seq) {
        byte[] rtmsg = cat(new byte[] {2, 32, 32, 0, 101, 0, 0, 1}, u32(0x200));
        return msg(Nl.RTM_NEWROUTE, 0, seq, rtmsg,
                attr(Nl.RTA_TABLE, u32(101)),
                attr(Nl.RTA_DST, ipv4(198, 51, 100, 7)),
                attr(Nl.RTA_SRC, ipv4(10, 11, 0, 2)),
                attr(Nl.RTA_OIF, u32(4)),
                attr(Nl.RTA_GATEWAY, ipv4(10, 11, 0, 1)),
                attr(25 /* RTA_UID */, u32(0)),
                attr(12 /* RTA_CACHEINFO */, new byte[32]));
    }

    @Test
    void routeAnswer() {
        NlMessage m = NlCodec.parseDatagram(routeAnswer(1)).get(0);
        Route r = NlCodec.parseRoute(m, ip("198.51.100.7"), ip("10.11.0.2"), false);
        assertEquals(101, r.table());
        assertEquals(RouteType.UNICAST, r.type());
        assertEquals(4, r.egressIfindex());
        assertEquals(Optional.of(ip("10.11.0.1")), r.gateway());
        assertEquals(Optional.empty(), r.preferredSource(), "the kernel omits PREFSRC when the source was given");
        assertEquals(Optional.of(ip("10.11.0.2")), r.source());
        assertEquals(Optional.empty(), r.matchedPrefix());
        assertEquals(-1, r.protocol());
        assertEquals("if4", r.egressLabel());
    }

    @Test
    void fibMatchAnswerGivesPrefixProtocolAndLargeTable() {
        byte[] rtmsg = cat(new byte[] {2, 0, 0, 0, (byte) 252, 3, 0, 1}, u32(0));
        byte[] bytes = msg(Nl.RTM_NEWROUTE, 0, 2, rtmsg,
                attr(Nl.RTA_TABLE, u32(1000)),
                attr(Nl.RTA_GATEWAY, ipv4(10, 11, 0, 1)),
                attr(Nl.RTA_OIF, u32(4)));
        Route r = NlCodec.parseRoute(NlCodec.parseDatagram(bytes).get(0), ip("198.51.100.7"), null, true);
        assertEquals(1000, r.table(), "RTA_TABLE wins over rtm_table 252 (RT_TABLE_COMPAT)");
        assertEquals("1000", r.tableName());
        assertEquals(Optional.of(new Prefix(ip("0.0.0.0"), 0)), r.matchedPrefix());
        assertEquals(3, r.protocol());
    }

    @Test
    void localRouteWithPrefsrc() {
        byte[] rtmsg = cat(new byte[] {2, 32, 0, 0, (byte) 255, 0, (byte) 254, 2}, u32(0x80000200));
        byte[] bytes = msg(Nl.RTM_NEWROUTE, 0, 2, rtmsg,
                attr(Nl.RTA_TABLE, u32(255)),
                attr(Nl.RTA_DST, ipv4(127, 0, 0, 1)),
                attr(Nl.RTA_OIF, u32(1)),
                attr(Nl.RTA_PREFSRC, ipv4(127, 0, 0, 1)));
        Route r = NlCodec.parseRoute(NlCodec.parseDatagram(bytes).get(0), ip("127.0.0.1"), null, false);
        assertEquals("local", r.tableName());
        assertEquals(RouteType.LOCAL, r.type());
        assertEquals(Optional.of(ip("127.0.0.1")), r.preferredSource());
    }

    @Test
    void wrongMessageTypeIsMalformed() {
        NlMessage m = NlCodec.parseDatagram(msg(Nl.RTM_NEWLINK, 0, 1, new byte[16])).get(0);
        var e = assertThrows(NlCodec.MalformedNetlinkException.class, () -> NlCodec.parseRoute(m, ip("1.1.1.1"), null, false));
        assertTrue(e.getMessage().contains("expected RTM_NEWROUTE, got RTM_NEWLINK"), e.getMessage());
    }

    // ------------------------------------------------------------------ rules

    static byte[] ruleMessage(int seq, byte[] hdr, byte[]... attrs) {
        return msg(Nl.RTM_NEWRULE, Nl.NLM_F_MULTI, seq, cat(hdr), cat(attrs));
    }

    @Test
    void perRailRule() {
        byte[] hdr = cat(new byte[] {2, 0, 32, 0, 101, 0, 0, 1}, u32(0));
        byte[] bytes = ruleMessage(1, hdr,
                attr(Nl.FRA_TABLE, u32(101)),
                attr(Nl.FRA_PRIORITY, u32(1000)),
                attr(Nl.FRA_SRC, ipv4(10, 11, 0, 2)),
                attr(21 /* FRA_PROTOCOL */, new byte[] {0}));
        PolicyRule r = NlCodec.parseRule(NlCodec.parseDatagram(bytes).get(0));
        assertEquals(1000, r.priority());
        assertEquals(Optional.of(new Prefix(ip("10.11.0.2"), 32)), r.from());
        assertEquals(Optional.empty(), r.to());
        assertEquals(RuleAction.TO_TABLE, r.action());
        assertEquals(101, r.table());
        assertEquals("1000: from 10.11.0.2 lookup 101", r.toString());
        assertTrue(r.unevaluated().isEmpty());
    }

    @Test
    void ruleZeroHasNoPriorityAttribute() {
        byte[] hdr = cat(new byte[] {2, 0, 0, 0, (byte) 255, 0, 0, 1}, u32(0));
        PolicyRule r = NlCodec.parseRule(NlCodec.parseDatagram(ruleMessage(1, hdr, attr(Nl.FRA_TABLE, u32(255)))).get(0));
        assertEquals(0, r.priority());
        assertEquals("0: from all lookup local", r.toString());
    }

    @Test
    void invertedRuleWithIifFwmarkGotoAndUidrange() {
        byte[] hdr = cat(new byte[] {2, 24, 0, 0, 0, 0, 0, 2}, u32(Nl.FIB_RULE_INVERT));
        byte[] bytes = ruleMessage(1, hdr,
                attr(Nl.FRA_PRIORITY, u32(500)),
                attr(Nl.FRA_DST, ipv4(10, 20, 0, 0)),
                attr(Nl.FRA_IIFNAME, cstr("eth1")),
                attr(Nl.FRA_FWMARK, u32(0x10)),
                attr(Nl.FRA_FWMASK, u32(0xff)),
                attr(Nl.FRA_GOTO, u32(900)),
                attr(Nl.FRA_UID_RANGE, cat(u32(1000), u32(2000))));
        PolicyRule r = NlCodec.parseRule(NlCodec.parseDatagram(bytes).get(0));
        assertTrue(r.invert());
        assertEquals(Optional.of(new Prefix(ip("10.20.0.0"), 24)), r.to());
        assertEquals(Optional.of("eth1"), r.iifName());
        assertEquals(0x10, r.fwmark());
        assertEquals(0xff, r.fwmask());
        assertEquals(RuleAction.GOTO, r.action());
        assertEquals(900, r.gotoTarget());
        assertEquals(0, r.table());
        assertEquals(List.of("uidrange"), r.unevaluated());
        assertEquals("500: not from all to 10.20.0.0/24 fwmark 0x10/0xff iif eth1 uidrange goto 900", r.toString());
    }

    @Test
    void selectorLengthWithoutAddressIsMalformed() {
        byte[] hdr = cat(new byte[] {2, 0, 32, 0, 101, 0, 0, 1}, u32(0));
        NlMessage m = NlCodec.parseDatagram(ruleMessage(1, hdr, attr(Nl.FRA_TABLE, u32(101)))).get(0);
        assertThrows(NlCodec.MalformedNetlinkException.class, () -> NlCodec.parseRule(m));
    }

    // ------------------------------------------------------------------ links and addresses

    @Test
    void vlanLinkWithNestedLinkInfo() {
        byte[] ifinfo = cat(new byte[] {0, 0}, u16(1), u32(7), u32(0x11043), u32(0));
        byte[] info = cat(attr(Nl.IFLA_INFO_KIND, cstr("vlan")),
                attr(Nl.IFLA_INFO_DATA | 0x8000, cat(attr(Nl.IFLA_VLAN_ID, u16(100)), attr(5, u16(0x0081)))));
        byte[] bytes = msg(Nl.RTM_NEWLINK, 0, 4, ifinfo,
                attr(Nl.IFLA_IFNAME, cstr("eth2.100")),
                attr(Nl.IFLA_MTU, u32(9000)),
                attr(Nl.IFLA_OPERSTATE, new byte[] {6}),
                attr(Nl.IFLA_LINKINFO | 0x8000, info));
        LinkInfo l = NlCodec.parseLink(NlCodec.parseDatagram(bytes).get(0));
        assertEquals(new LinkInfo(7, "eth2.100", 9000, "up", OptionalInt.of(100)), l);
    }

    @Test
    void plainLinkHasNoVlan() {
        byte[] ifinfo = cat(new byte[] {0, 0}, u16(1), u32(3), u32(0), u32(0));
        byte[] bytes = msg(Nl.RTM_NEWLINK, 0, 4, ifinfo, attr(Nl.IFLA_IFNAME, cstr("eth0")),
                attr(Nl.IFLA_OPERSTATE, new byte[] {2}),
                attr(Nl.IFLA_LINKINFO, attr(Nl.IFLA_INFO_KIND, cstr("veth"))));
        LinkInfo l = NlCodec.parseLink(NlCodec.parseDatagram(bytes).get(0));
        assertEquals("down", l.operstate());
        assertFalse(l.vlanId().isPresent());
    }

    @Test
    void addressPrefersIfaLocal() {
        byte[] ifaddr = cat(new byte[] {2, 24, 0, 0}, u32(3));
        byte[] bytes = msg(Nl.RTM_NEWADDR, Nl.NLM_F_MULTI, 5, ifaddr,
                attr(Nl.IFA_ADDRESS, ipv4(10, 9, 9, 9)), attr(Nl.IFA_LOCAL, ipv4(10, 0, 0, 5)));
        NlCodec.AddressEntry a = NlCodec.parseAddress(NlCodec.parseDatagram(bytes).get(0)).orElseThrow();
        assertEquals(new NlCodec.AddressEntry(3, ip("10.0.0.5"), 24), a);
    }
}
