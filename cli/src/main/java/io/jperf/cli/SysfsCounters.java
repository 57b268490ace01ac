package io.jperf.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * perftest's {@code -W/--report-counters LIST}: counter files of a device's port, named relative to
 * {@code /sys/class/infiniband/DEV/ports/PORT/} (e.g. {@code counters/port_xmit_data,hw_counters/out_of_buffer}),
 * read before and after a measurement; {@link #differences} prints each change as perftest does
 * ({@code \tNAME=DELTA}, then an empty line). The sysfs root is a parameter so that tests use a directory
 * of their own.
 *
 * <p>Not thread-safe: one test thread reads it (never from the data path).
 */
final class SysfsCounters {
    /** The root perftest reads. */
    static final Path SYSFS_ROOT = Path.of("/sys/class/infiniband");

    private final List<String> names;
    private final List<Path> files;
    private final long[] before;

    private SysfsCounters(List<String> names, List<Path> files) {
        this.names = names;
        this.files = files;
        this.before = new long[names.size()];
    }

    /**
     * Checks every counter of {@code list} and reads its first value.
     *
     * @param root normally {@link #SYSFS_ROOT}
     * @throws IllegalArgumentException with one line naming the counter and its file when the list is empty, a
     *     name leaves the port's directory, or a file is missing, unreadable or holds no number
     */
    static SysfsCounters open(Path root, String device, int port, String list) {
        Path portDir = root.resolve(device).resolve("ports").resolve(Integer.toString(port));
        List<String> names = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (String name : list.split(",", -1)) {
            String n = name.strip();
            if (n.isEmpty()) {
                throw new IllegalArgumentException("-W/--report-counters '" + list + "': an empty counter name"
                        + " (a comma-separated list such as counters/port_xmit_data,hw_counters/out_of_buffer)");
            }
            Path file = portDir.resolve(n).normalize();
            if (Path.of(n).isAbsolute() || !file.startsWith(portDir)) {
                throw new IllegalArgumentException("-W/--report-counters " + n + ": not a counter under " + portDir);
            }
            names.add(n);
            files.add(file);
        }
        SysfsCounters counters = new SysfsCounters(List.copyOf(names), List.copyOf(files));
        counters.mark();
        return counters;
    }

    /** The counter names, as given. */
    List<String> names() {
        return names;
    }

    /** Reads every counter as the start of the next difference. */
    void mark() {
        for (int i = 0; i < files.size(); i++) {
            before[i] = read(i);
        }
    }

    /**
     * Reads every counter again and returns perftest's lines of the changes since the last {@link #mark}
     * (or the last call), {@code \tNAME=DELTA} each, then an empty line.
     */
    String differences() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < files.size(); i++) {
            long now = read(i);
            sb.append('\t').append(names.get(i)).append('=').append(Long.toUnsignedString(now - before[i]))
                    .append('\n');
            before[i] = now;
        }
        return sb.append('\n').toString();
    }

    private long read(int i) {
        Path file = files.get(i);
        String text;
        try {
            text = Files.readString(file).strip();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("-W/--report-counters " + names.get(i) + ": no such counter (" + file
                    + " does not exist; ls " + file.getParent() + " lists them)");
        } catch (IOException e) {
            throw new IllegalArgumentException("-W/--report-counters " + names.get(i) + ": cannot read " + file
                    + " (" + e.getMessage() + ")");
        }
        try {
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-W/--report-counters " + names.get(i) + ": " + file
                    + " holds no counter value ('" + text + "')");
        }
    }
}
