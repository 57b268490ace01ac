package io.jperf.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What the lab tests compare jperf against: sysfs and the {@code rdma} tool, read independently. */
final class LabDevices {
    static final List<String> DEVICES = List.of("rxe0", "rxe1");

    private LabDevices() {
    }

    /** A valid GID read from sysfs. */
    record SysfsGid(int index, String gid, String type, String netdev) {
    }

    static List<SysfsGid> sysfsGids(String device, int port) throws IOException {
        Path base = Path.of("/sys/class/infiniband", device, "ports", Integer.toString(port));
        List<SysfsGid> result = new ArrayList<>();
        try (var files = Files.list(base.resolve("gids"))) {
            for (Path p : files.toList()) {
                String value = Files.readString(p).strip();
                if (value.equals("0000:0000:0000:0000:0000:0000:0000:0000")) {
                    continue;
                }
                String name = p.getFileName().toString();
                String type;
                String netdev;
                try {
                    type = Files.readString(base.resolve("gid_attrs/types/" + name)).strip();
                    netdev = Files.readString(base.resolve("gid_attrs/ndevs/" + name)).strip();
                } catch (IOException e) {
                    continue;
                }
                result.add(new SysfsGid(Integer.parseInt(name), value, type, netdev));
            }
        }
        result.sort((a, b) -> Integer.compare(a.index(), b.index()));
        return result;
    }

    /** {@code rdma resource show}: per device, the counts of pd, cq, qp, mr, ctx... */
    static Map<String, String> resourceCounts() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("rdma resource show failed: " + out);
        }
        Map<String, String> counts = new LinkedHashMap<>();
        for (String line : out.strip().split("\n")) {
            String[] parts = line.strip().split(":", 3);
            if (parts.length == 3) {
                counts.put(parts[1].strip(), parts[2].strip());
            }
        }
        return counts;
    }
}
