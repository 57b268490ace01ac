package io.jperf.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * perftest's {@code --cpu_util}: the two fields of {@code /proc/stat}'s first line ({@code cpu  user nice system
 * idle ...}, clock ticks of all CPUs) that perftest reads, user and idle. The utilization between two readings
 * is perftest's {@code user / (user + idle) * 100} of the differences (system, iowait and the rest are left
 * out, as perftest leaves them out).
 *
 * @param user the first number (time in user mode)
 * @param idle the fourth number (idle time)
 */
record CpuTimes(long user, long idle) {
    /** Where Linux keeps the counters. */
    static final Path PROC_STAT = Path.of("/proc/stat");

    /**
     * Parses {@code /proc/stat}'s first line.
     *
     * @throws IllegalArgumentException when it is not a {@code cpu} line with at least four numbers
     */
    static CpuTimes parse(String firstLine) {
        String[] f = firstLine == null ? new String[0] : firstLine.strip().split("\\s+");
        if (f.length < 5 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not /proc/stat's 'cpu' line: " + firstLine);
        }
        try {
            return new CpuTimes(Long.parseLong(f[1]), Long.parseLong(f[4]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not /proc/stat's 'cpu' line: " + firstLine, e);
        }
    }

    /**
     * Reads the first line of {@code file} (normally {@link #PROC_STAT}).
     *
     * @throws IOException when it cannot be read, or its first line is not a {@code cpu} line
     */
    static CpuTimes read(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file)) {
            return parse(r.readLine());
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** The percentage of user time in {@code user + idle} from {@code before} to {@code after}; 0 when none passed. */
    static double utilization(CpuTimes before, CpuTimes after) {
        long user = after.user - before.user;
        long idle = after.idle - before.idle;
        return user + idle == 0 ? 0 : (double) user / (user + idle) * 100;
    }

    /** perftest's column: {@code %-3.2f}. */
    static String format(double percent) {
        return String.format(Locale.ROOT, "%-3.2f", percent);
    }
}
