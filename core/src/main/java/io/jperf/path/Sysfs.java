package io.jperf.path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the sysfs and procfs files a path record needs, under an injectable root ({@code /} in
 * production, a fixture tree in tests). Missing or unreadable files read as "unknown", never as
 * an exception: a path record reports what it could see. Stateless and thread-safe.
 */
final class Sysfs {

    private final Path root;

    Sysfs(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** {@code /sys/class/net/<if>/mtu}. */
    OptionalInt netdevMtu(String netdev) {
        return readInt(netPath(netdev, "mtu"));
    }

    /** {@code /sys/class/net/<if>/operstate}. */
    Optional<String> operstate(String netdev) {
        return read(netPath(netdev, "operstate"));
    }

    /**
     * The NIC's NUMA node: {@code /sys/class/infiniband/<dev>/device/numa_node}, else
     * {@code /sys/class/net/<if>/device/numa_node}; -1 when neither says (or says -1).
     */
    int nicNumaNode(String rdmaDevice, Optional<String> netdev) {
        if (safe(rdmaDevice)) {
            OptionalInt node = readInt(root.resolve("sys/class/infiniband").resolve(rdmaDevice).resolve("device/numa_node"));
            if (node.isPresent() && node.getAsInt() >= 0) {
                return node.getAsInt();
            }
        }
        if (netdev.isPresent()) {
            Path p = netPath(netdev.get(), "device/numa_node");
            OptionalInt node = p == null ? OptionalInt.empty() : readInt(p);
            if (node.isPresent() && node.getAsInt() >= 0) {
                return node.getAsInt();
            }
        }
        return -1;
    }

    /** The NUMA node whose {@code /sys/devices/system/node/nodeN/cpulist} contains {@code cpu}, or -1. */
    int cpuNode(int cpu) {
        if (cpu < 0) {
            return -1;
        }
        Path nodes = root.resolve("sys/devices/system/node");
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(nodes, "node[0-9]*")) {
            for (Path dir : dirs) {
                Optional<String> list = read(dir.resolve("cpulist"));
                if (list.isPresent() && parseCpuList(list.get()).get(cpu)) {
                    return Integer.parseInt(dir.getFileName().toString().substring(4));
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            return -1;
        }
        return -1;
    }

    /**
     * The VLAN id of {@code netdev} from {@code /proc/net/vlan/config} (present when the 8021q
     * module is loaded and VLAN devices exist): lines {@code name | id | parent} after two header lines.
     */
    OptionalInt vlanId(String netdev) {
        Optional<String> config = read(root.resolve("proc/net/vlan/config"));
        if (config.isEmpty()) {
            return OptionalInt.empty();
        }
        for (String line : config.get().split("\n")) {
            String[] cols = line.split("\\|");
            if (cols.length >= 2 && cols[0].strip().equals(netdev)) {
                try {
                    return OptionalInt.of(Integer.parseInt(cols[1].strip()));
                } catch (NumberFormatException e) {
                    return OptionalInt.empty();
                }
            }
        }
        return OptionalInt.empty();
    }

    /** Parses a kernel cpulist such as {@code 0-3,8,10-11} (empty string = no CPUs). */
    static BitSet parseCpuList(String text) {
        BitSet cpus = new BitSet();
        String s = text.strip();
        if (s.isEmpty()) {
            return cpus;
        }
        for (String part : s.split(",")) {
            int dash = part.indexOf('-');
            try {
                if (dash < 0) {
                    cpus.set(Integer.parseInt(part.strip()));
                } else {
                    int from = Integer.parseInt(part.substring(0, dash).strip());
                    int to = Integer.parseInt(part.substring(dash + 1).strip());
                    if (to < from) {
                        throw new IllegalArgumentException("bad cpulist range '" + part + "'");
                    }
                    cpus.set(from, to + 1);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad cpulist '" + text + "'", e);
            }
        }
        return cpus;
    }

    private Path netPath(String netdev, String file) {
        return safe(netdev) ? root.resolve("sys/class/net").resolve(netdev).resolve(file) : null;
    }

    /** Interface and device names never contain '/' and are never "." or "..". */
    private static boolean safe(String name) {
        return name != null && !name.isEmpty() && !name.contains("/") && !name.equals(".") && !name.equals("..");
    }

    private static Optional<String> read(Path p) {
        if (p == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(p, StandardCharsets.US_ASCII).strip());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static OptionalInt readInt(Path p) {
        Optional<String> s = read(p);
        try {
            return s.isPresent() ? OptionalInt.of(Integer.parseInt(s.get())) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
