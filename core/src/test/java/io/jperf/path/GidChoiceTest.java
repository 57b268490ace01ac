package io.jperf.path;

import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;
import io.jperf.verbs.RdmaUnavailableException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The one place every part of jperf resolves a GID: -x, perftest's default, and the sentences when neither works. */
class GidChoiceTest {
    private static final GidEntry LINK_LOCAL = entry(0, "fe80:0000:0000:0000:5054:00ff:fe12:3456", GidType.ROCE_V2);
    private static final GidEntry V2 = entry(1, "0000:0000:0000:0000:0000:ffff:0a14:0001", GidType.ROCE_V2);

    @Test
    void anExplicitIndexIsTakenAsItIs() {
        GidChoice c = GidChoice.of("rxe0", port(LinkLayer.ETHERNET, List.of(LINK_LOCAL, V2)), 0);
        assertEquals(Optional.of(LINK_LOCAL), c.require());
    }

    @Test
    void withoutAnIndexPerftestsDefaultIsChosen() {
        GidChoice c = GidChoice.of("rxe0", port(LinkLayer.ETHERNET, List.of(LINK_LOCAL, V2)), -1);
        assertEquals(Optional.of(V2), c.gid());
        assertEquals(Optional.empty(), c.problem());
    }

    @Test
    void aMissingIndexNamesTheValidEntriesAndRequireThrowsIt() {
        GidChoice c = GidChoice.of("rxe0", port(LinkLayer.ETHERNET, List.of(LINK_LOCAL, V2)), 7);
        String expected = "GID index 7 does not exist on rxe0 port 1; valid entries: 0=RoCE v2/fe80:0:0:0:5054:ff:fe12:3456,"
                + " 1=RoCE v2/10.20.0.1 (see `jperf devices -d rxe0`)";
        assertEquals(Optional.of(expected), c.problem());
        RdmaUnavailableException e = assertThrows(RdmaUnavailableException.class, c::require);
        assertEquals(expected, e.getMessage());
    }

    @Test
    void aRocePortWithoutGidsSaysTheNetdevNeedsAnAddress() {
        GidChoice c = GidChoice.of("rxe1", port(LinkLayer.ETHERNET, List.of()), -1);
        assertEquals(Optional.of("rxe1 port 1 has no GID: the RoCE netdev needs an IP address and must be up (`ip addr`)"),
                c.problem());
        assertThrows(RdmaUnavailableException.class, c::require);
    }

    @Test
    void infinibandWithoutAnIndexNeedsNoGid() {
        GidEntry ib = entry(0, "fe80:0000:0000:0000:0002:c903:0001:0002", GidType.IB);
        GidChoice c = GidChoice.of("mlx5_0", port(LinkLayer.INFINIBAND, List.of(ib)), -1);
        assertEquals(Optional.empty(), c.require());
    }

    private static GidEntry entry(int index, String gid, GidType type) {
        return new GidEntry(index, Gid.parse(gid), type, Optional.of("eth0"), 2);
    }

    private static PortInfo port(LinkLayer layer, List<GidEntry> gids) {
        return new PortInfo(1, PortState.ACTIVE, Mtu.MTU_4096, Mtu.MTU_1024, layer, 0, 1, 1, 16, gids);
    }
}
