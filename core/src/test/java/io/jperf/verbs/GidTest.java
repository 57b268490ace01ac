package io.jperf.verbs;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GidTest {
    @Test
    void ipv4MappedGidRoundTripsThroughSysfsForm() throws Exception {
        Gid gid = Gid.fromAddress(InetAddress.getByName("10.20.0.1"));
        assertEquals("0000:0000:0000:0000:0000:ffff:0a14:0001", gid.toString());
        assertEquals(gid, Gid.parse("0000:0000:0000:0000:0000:ffff:0a14:0001"));
        assertTrue(gid.isIpv4Mapped());
        assertFalse(gid.isLinkLocal());
        assertEquals(InetAddress.getByName("10.20.0.1"), gid.toInetAddress());
    }

    @Test
    void linkLocalGidIsRecognised() {
        Gid gid = Gid.parse("fe80:0000:0000:0000:5054:00ff:fe12:3456");
        assertTrue(gid.isLinkLocal());
        assertFalse(gid.isIpv4Mapped());
        assertEquals("fe80:0:0:0:5054:ff:fe12:3456", gid.toInetAddress().getHostAddress());
    }

    @Test
    void malformedGidIsRefusedWithTheText() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Gid.parse("fe80::1"));
        assertEquals("not a GID: 'fe80::1'", e.getMessage());
    }

    @Test
    void perftestDefaultPrefersIpv4MappedRoceV2OverLinkLocalAndV1() {
        GidEntry linkLocal = entry(0, "fe80:0000:0000:0000:5054:00ff:fe12:3456", GidType.ROCE_V2);
        GidEntry v1 = entry(1, "0000:0000:0000:0000:0000:ffff:0a14:0001", GidType.ROCE_V1);
        GidEntry v2 = entry(2, "0000:0000:0000:0000:0000:ffff:0a14:0001", GidType.ROCE_V2);
        PortInfo port = port(LinkLayer.ETHERNET, List.of(linkLocal, v1, v2));
        assertEquals(Optional.of(v2), GidSelection.perftestDefault(port));
    }

    @Test
    void perftestDefaultTakesTheLowestIndexOnTies() {
        GidEntry a = entry(3, "0000:0000:0000:0000:0000:ffff:0a14:0001", GidType.ROCE_V2);
        GidEntry b = entry(5, "0000:0000:0000:0000:0000:ffff:0a1e:0001", GidType.ROCE_V2);
        assertEquals(Optional.of(a), GidSelection.perftestDefault(port(LinkLayer.ETHERNET, List.of(b, a))));
    }

    @Test
    void infinibandNeedsNoGid() {
        GidEntry ib = entry(0, "fe80:0000:0000:0000:0002:c903:0001:0002", GidType.IB);
        assertEquals(Optional.empty(), GidSelection.perftestDefault(port(LinkLayer.INFINIBAND, List.of(ib))));
    }

    @Test
    void portRateComesFromWidthAndSpeedCodes() {
        PortInfo p = new PortInfo(1, PortState.ACTIVE, Mtu.MTU_4096, Mtu.MTU_4096, LinkLayer.ETHERNET, 0, 2, 64, 256,
                List.of());
        assertEquals(200.0, p.rateGbps(), "4x HDR = 4 lanes x 50 Gb/s");
    }

    private static GidEntry entry(int index, String gid, GidType type) {
        return new GidEntry(index, Gid.parse(gid), type, Optional.of("eth0"), 2);
    }

    private static PortInfo port(LinkLayer layer, List<GidEntry> gids) {
        return new PortInfo(1, PortState.ACTIVE, Mtu.MTU_4096, Mtu.MTU_1024, layer, 0, 1, 1, 16, gids);
    }
}
