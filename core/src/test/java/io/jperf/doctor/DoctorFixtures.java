package io.jperf.doctor;

import io.jperf.path.Sysfs;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The two-rail host of {@code src/test/resources/doctor/two-rails} as a doctor sees it. */
final class DoctorFixtures {
    private DoctorFixtures() {
    }

    static Path tree() {
        try {
            return Path.of(DoctorFixtures.class.getResource("/doctor/two-rails").toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    /** A writable copy of the fixture tree under {@code dir}. */
    static Path copy(Path dir) {
        Path from = tree();
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path to = dir.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    static void write(Path root, String relative, String text) {
        try {
            Path p = root.resolve(relative);
            Files.createDirectories(p.getParent());
            Files.writeString(p, text + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** rxe's GID table for one netdev: fe80 (v1, v2), then each IPv4 address (v1, v2). */
    static List<GidEntry> rxeGids(String netdev, int ifindex, String linkLocal, String... ipv4) {
        List<GidEntry> gids = new ArrayList<>();
        int i = 0;
        for (String a : Stream.concat(Stream.of(linkLocal), Stream.of(ipv4)).toList()) {
            Gid gid = Gid.fromAddress(FakeNetwork.ip(a));
            gids.add(new GidEntry(i++, gid, GidType.ROCE_V1, Optional.of(netdev), ifindex));
            gids.add(new GidEntry(i++, gid, GidType.ROCE_V2, Optional.of(netdev), ifindex));
        }
        return gids;
    }

    static DeviceInfo rxe(String name, PortState state, Mtu active, List<GidEntry> gids) {
        PortInfo port = new PortInfo(1, state, Mtu.MTU_4096, active, LinkLayer.ETHERNET, 0, 1, 1, 1024, gids);
        return new DeviceInfo(name, "5054:00ff:fe4c:0100", "", 0x0, 0, 1048576, 32767, 1048576, -1L, List.of(port));
    }

    /** The multirail host's two rxe devices, healthy. */
    static List<DeviceInfo> healthyDevices() {
        return List.of(
                rxe("rxe0", PortState.ACTIVE, Mtu.MTU_4096, rxeGids("rail0", 3, "fe80::5054:ff:fe4c:100", "10.20.0.1")),
                rxe("rxe1", PortState.ACTIVE, Mtu.MTU_4096, rxeGids("rail1", 4, "fe80::5054:ff:fe4c:101", "10.20.1.1")));
    }

    /** A doctor of the fixture host: no peer, CPU 0, libraries present, no echo and no smoke expected. */
    static Doctor.Builder doctor(Path root, List<DeviceInfo> devices, FakeNetwork network) {
        return Doctor.builder().hostName("fixture").sysfs(new Sysfs(root)).devices(() -> devices)
                .network(() -> network).libraries(Optional::empty).cpu(() -> 0)
                .pinger((netdev, target, timeout) -> {
                    throw new AssertionError("no echo expected");
                })
                .smoke((options, address, timeout) -> {
                    throw new AssertionError("no smoke test expected");
                });
    }
}
