package io.jperf.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

/** The sysfs/procfs readers on the fixture tree {@code path/two-nodes}. */
class SysfsTest {

    private final Sysfs sys = new Sysfs(Fixtures.root("two-nodes"));

    @Test
    void netdevMtuAndOperstate() {
        assertEquals(OptionalInt.of(9000), sys.netdevMtu("eth2"));
        assertEquals(Optional.of("up"), sys.operstate("eth2"));
        assertEquals(Optional.of("down"), sys.operstate("eth3"));
        assertEquals(OptionalInt.empty(), sys.netdevMtu("eth9"));
        assertEquals(OptionalInt.empty(), sys.netdevMtu("../../devices"), "names with '/' are never resolved");
    }

    @Test
    void nicNodeFromInfinibandThenNetdevThenNone() {
        assertEquals(1, sys.nicNumaNode("mlx5_1", Optional.of("eth3")), "the RDMA device's own node wins");
        assertEquals(0, sys.nicNumaNode("mlx5_0", Optional.of("eth3")), "-1 there: fall back to the netdev");
        assertEquals(1, sys.nicNumaNode("rxe0", Optional.of("eth2")), "no infiniband entry: the netdev");
        assertEquals(-1, sys.nicNumaNode("rxe0", Optional.of("eth2.100")), "no device dir: none");
        assertEquals(-1, sys.nicNumaNode("rxe0", Optional.empty()));
    }

    @Test
    void cpuToNode() {
        assertEquals(0, sys.cpuNode(0));
        assertEquals(0, sys.cpuNode(9));
        assertEquals(1, sys.cpuNode(4));
        assertEquals(1, sys.cpuNode(15));
        assertEquals(-1, sys.cpuNode(16));
        assertEquals(-1, sys.cpuNode(-1));
        assertEquals(-1, new Sysfs(Path.of("/nonexistent")).cpuNode(0));
    }

    @Test
    void vlanFromProcConfig() {
        assertEquals(OptionalInt.of(100), sys.vlanId("eth2.100"));
        assertEquals(OptionalInt.empty(), sys.vlanId("eth2"));
        assertEquals(OptionalInt.empty(), new Sysfs(Path.of("/nonexistent")).vlanId("eth2.100"));
    }

    @Test
    void cpuListSyntax() {
        BitSet expected = new BitSet();
        expected.set(0, 4);
        expected.set(8);
        expected.set(10, 12);
        assertEquals(expected, Sysfs.parseCpuList("0-3,8,10-11\n"));
        assertEquals(new BitSet(), Sysfs.parseCpuList(""));
        assertThrows(IllegalArgumentException.class, () -> Sysfs.parseCpuList("3-1"));
        assertThrows(IllegalArgumentException.class, () -> Sysfs.parseCpuList("a"));
    }

    @Test
    void realSysfsOfThisHostIsReadable() {
        Sysfs real = new Sysfs(Path.of("/"));
        org.junit.jupiter.api.Assertions.assertTrue(real.netdevMtu("lo").isPresent(), "lo has an MTU in /sys/class/net");
        org.junit.jupiter.api.Assertions.assertTrue(real.operstate("lo").isPresent());
        int cpu = io.jperf.path.PathProbe.schedGetcpu();
        org.junit.jupiter.api.Assertions.assertTrue(cpu >= 0, "sched_getcpu works here");
        org.junit.jupiter.api.Assertions.assertTrue(real.cpuNode(cpu) >= 0 || !java.nio.file.Files.isDirectory(
                Path.of("/sys/devices/system/node/node0")), "this host's CPU " + cpu + " maps to a node");
    }
}
