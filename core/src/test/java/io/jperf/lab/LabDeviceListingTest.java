package io.jperf.lab;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;
import io.jperf.verbs.Rdma;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The device listing on real rxe devices, checked against sysfs and the netdevs' addresses. */
@Tag("lab")
class LabDeviceListingTest {

    @Test
    void listsTheLabDevicesWithTheirGidTablesAsSysfsHasThem() throws Exception {
        Map<String, DeviceInfo> devices = Rdma.devices().stream()
                .collect(Collectors.toMap(DeviceInfo::name, d -> d));
        assertTrue(devices.keySet().containsAll(LabDevices.DEVICES), "devices listed: " + devices.keySet());

        for (String name : LabDevices.DEVICES) {
            PortInfo port = devices.get(name).port(1).orElseThrow();
            assertEquals(PortState.ACTIVE, port.state(), name + " port 1");
            assertEquals(LinkLayer.ETHERNET, port.linkLayer(), name + " is RoCE");

            List<String> fromJperf = port.gids().stream()
                    .map(g -> g.index() + " " + g.gid() + " " + g.type().label() + " " + g.netdev().orElse("-"))
                    .toList();
            List<String> fromSysfs = LabDevices.sysfsGids(name, 1).stream()
                    .map(g -> g.index() + " " + g.gid() + " " + g.type() + " " + g.netdev())
                    .toList();
            assertEquals(fromSysfs, fromJperf, name + " GID table");
        }
    }

    @Test
    void everyIpv4AddressOfTheNetdevHasARoceV2GidAndIsTheDefaultChoice() throws Exception {
        for (DeviceInfo device : Rdma.devices()) {
            if (!LabDevices.DEVICES.contains(device.name())) {
                continue;
            }
            PortInfo port = device.port(1).orElseThrow();
            String netdev = port.gids().getFirst().netdev().orElseThrow();
            List<InetAddress> ipv4 = NetworkInterface.getByName(netdev).inetAddresses()
                    .filter(a -> a instanceof Inet4Address).toList();
            assertTrue(!ipv4.isEmpty(), netdev + " has an IPv4 address in the lab");
            for (InetAddress address : ipv4) {
                assertTrue(port.gids().stream().anyMatch(g -> g.type() == GidType.ROCE_V2
                                && g.ipAddress().orElseThrow().equals(address)),
                        device.name() + " has a RoCE v2 GID for " + address.getHostAddress());
            }
            GidEntry chosen = GidSelection.perftestDefault(port).orElseThrow();
            assertEquals(GidType.ROCE_V2, chosen.type());
            assertTrue(ipv4.contains(chosen.ipAddress().orElseThrow()),
                    "default GID " + chosen + " stands for one of " + ipv4);
        }
    }
}
