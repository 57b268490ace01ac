package io.jperf.path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SequencedMap;
import java.util.stream.Stream;

/**
 * Reads the sysfs and procfs files a path record and {@code jperf doctor} need, under an
 * injectable root ({@code /} in production, a fixture tree in tests). Missing or unreadable files
 * read as "unknown", never as an exception: a path record reports what it could see. Names that
 * could leave their directory ({@code /}, {@code ..}) are never resolved. Stateless and thread-safe.
 */
public final class Sysfs {

    private final Path root;

    /** @param root the file-system root under which {@code sys/} and {@code proc/} are read */
    public Sysfs(Path root) {
        this.root = root;
    }

    /** The running system's files. */
    public static Sysfs live() {
        return new Sysfs(Path.of("/"));
    }

    public Path root() {
        return root;
    }

    /** {@code root/relative}, e.g. {@code sys/module/ib_core}. */
    public Path path(String relative) {
        return root.resolve(relative);
    }

    /** Whether {@code root/relative} exists. */
    public boolean exists(String relative) {
        return Files.exists(root.resolve(relative));
    }

    /** The file's text, stripped; empty when it is missing or unreadable. */
    public Optional<String> read(String relative) {
        return read(root.resolve(relative));
    }

    /** The names in a directory, sorted; empty when it is missing. */
    public List<String> list(String relativeDir) {
        Path dir = root.resolve(relativeDir);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    /** The netdevs: the names under {@code /sys/class/net}. */
    public List<String> netdevs() {
        return list("sys/class/net");
    }

    /** Whether a netdev sits on a device ({@code /sys/class/net/<if>/device} exists): a NIC, not a virtual link. */
    public boolean netdevHasDevice(String netdev) {
        Path p = netPath(netdev, "device");
        return p != null && Files.exists(p);
    }

    /** {@code /sys/class/net/<if>/mtu}. */
    public OptionalInt netdevMtu(String netdev) {
        return readInt(netPath(netdev, "mtu"));
    }

    /** {@code /sys/class/net/<if>/operstate}. */
    public Optional<String> operstate(String netdev) {
        return read(netPath(netdev, "operstate"));
    }

    /** {@code /sys/class/net/<if>/ifindex}. */
    public OptionalInt ifindex(String netdev) {
        return readInt(netPath(netdev, "ifindex"));
    }

    /** {@code /sys/class/net/<if>/carrier}: 1 or 0; empty when the link is down (the kernel refuses the read). */
    public OptionalInt carrier(String netdev) {
        return readInt(netPath(netdev, "carrier"));
    }

    /** {@code /sys/class/net/<if>/speed} in Mb/s; empty when unreadable, -1 when the driver does not know. */
    public OptionalInt speedMbps(String netdev) {
        return readInt(netPath(netdev, "speed"));
    }

    /** The RDMA devices: the names under {@code /sys/class/infiniband}. */
    public List<String> rdmaDevices() {
        return list("sys/class/infiniband");
    }

    /** Whether {@code /sys/class/infiniband} exists (the kernel has RDMA support loaded). */
    public boolean hasRdmaClass() {
        return Files.isDirectory(root.resolve("sys/class/infiniband"));
    }

    /**
     * A port's counters in one directory, {@code counters} (the IB port counters) or
     * {@code hw_counters} (the driver's own), by name; values that are not numbers are left out.
     */
    public SequencedMap<String, Long> portCounters(String rdmaDevice, int port, String directory) {
        SequencedMap<String, Long> out = new LinkedHashMap<>();
        if (!safe(rdmaDevice) || !safe(directory)) {
            return out;
        }
        String dir = "sys/class/infiniband/" + rdmaDevice + "/ports/" + port + "/" + directory;
        for (String name : list(dir)) {
            Optional<String> text = read(dir + "/" + name);
            if (text.isPresent()) {
                try {
                    out.put(name, Long.parseLong(text.get()));
                } catch (NumberFormatException e) {
                    // e.g. lifespan's unit or a driver's table: not a counter
                }
            }
        }
        return out;
    }

    /** The CPUs of a NUMA node, {@code /sys/devices/system/node/node<N>/cpulist}. */
    public Optional<String> nodeCpuList(int node) {
        return node < 0 ? Optional.empty() : read("sys/devices/system/node/node" + node + "/cpulist");
    }

    /**
     * The soft and hard {@code RLIMIT_MEMLOCK} of this process from {@code /proc/self/limits}
     * ("Max locked memory"), in bytes; {@link Long#MAX_VALUE} for unlimited; empty when unreadable.
     */
    public Optional<Limit> memlockLimits() {
        Optional<String> limits = read("proc/self/limits");
        if (limits.isEmpty()) {
            return Optional.empty();
        }
        for (String line : limits.get().split("\n")) {
            if (line.startsWith("Max locked memory")) {
                String[] words = line.substring("Max locked memory".length()).strip().split("\\s+");
                if (words.length >= 2) {
                    try {
                        return Optional.of(new Limit(limit(words[0]), limit(words[1])));
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A resource limit in bytes, {@link Long#MAX_VALUE} meaning unlimited.
     *
     * @param soft the limit in force
     * @param hard the ceiling an unprivileged process may raise the soft limit to
     */
    public record Limit(long soft, long hard) {
    }

    private static long limit(String word) {
        return word.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(word);
    }

    /** This process's effective capabilities, {@code CapEff} of {@code /proc/self/status}; empty when unreadable. */
    public OptionalLong effectiveCapabilities() {
        Optional<String> status = read("proc/self/status");
        if (status.isPresent()) {
            for (String line : status.get().split("\n")) {
                if (line.startsWith("CapEff:")) {
                    try {
                        return OptionalLong.of(Long.parseUnsignedLong(line.substring(7).strip(), 16));
                    } catch (NumberFormatException e) {
                        return OptionalLong.empty();
                    }
                }
            }
        }
        return OptionalLong.empty();
    }

    /** The files in a directory whose names match a glob, e.g. {@code lib*-rdmav*.so}; sorted names. */
    public List<String> glob(String relativeDir, String glob) {
        Path dir = root.resolve(relativeDir);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, glob)) {
            files.forEach(f -> out.add(f.getFileName().toString()));
        } catch (IOException | SecurityException e) {
            return List.of();
        }
        out.sort(null);
        return out;
    }

    /**
     * The NIC's NUMA node: {@code /sys/class/infiniband/<dev>/device/numa_node}, else
     * {@code /sys/class/net/<if>/device/numa_node}; -1 when neither says (or says -1).
     */
    public int nicNumaNode(String rdmaDevice, Optional<String> netdev) {
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
    public int cpuNode(int cpu) {
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
    public OptionalInt vlanId(String netdev) {
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
