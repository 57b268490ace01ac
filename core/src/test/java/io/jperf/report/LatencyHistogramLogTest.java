package io.jperf.report;

import io.jperf.stats.LatencyStats;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code .hlog} a write-lat run writes, built the way {@code LatencyMeasurement} builds it (ping-pong
 * timestamps through {@link LatencyStats}, one interval per size), read back by HdrHistogram's own reader
 * and processed by its {@code HistogramLogProcessor} in a child JVM.
 */
class LatencyHistogramLogTest {
    /** 2026-12-06T07:00:00Z, a start HdrHistogram must print back. */
    private static final Instant RUN_START = Instant.parse("2026-12-06T07:00:00Z");

    /**
     * Ping-pong timestamps whose round trips are {@code fast} ns for the first {@code fastCount} rounds and
     * {@code slow} ns after: half round trips of fast/2 and slow/2 ns.
     */
    private static long[] timestamps(int fastCount, long fast, int slowCount, long slow) {
        long[] t = new long[fastCount + slowCount + 1];
        for (int i = 1; i < t.length; i++) {
            t[i] = t[i - 1] + (i <= fastCount ? fast : slow);
        }
        return t;
    }

    private static Path writeTwoSizes(Path dir) throws IOException {
        LatencyHistogramLog log = new LatencyHistogramLog(RUN_START,
                List.of("jperf 0.1.0 on host lab-a", "command line: jperf write-lat -a --hlog x.hlog 10.0.0.2"));
        // size 2: 990 half round trips of 1,000 ns and 10 of 10,000 ns, measured from +1.5 s to +2.25 s
        long[] small = timestamps(990, 2_000, 10, 20_000);
        log.add(2, RUN_START.plusMillis(1_500), RUN_START.plusMillis(2_250),
                LatencyStats.fromTimestamps(small, small.length).histogram());
        // size 4096: 1000 of 3,000 ns, from +2.25 s to +3.0 s
        long[] large = timestamps(1000, 6_000, 0, 0);
        log.add(4096, RUN_START.plusMillis(2_250), RUN_START.plusMillis(3_000),
                LatencyStats.fromTimestamps(large, large.length).histogram());
        Path file = dir.resolve("run.hlog");
        log.write(file);
        return file;
    }

    @Test
    void hdrHistogramsReaderSeesTheRunsStartTimesAndCounts(@TempDir Path dir) throws IOException {
        Path file = writeTwoSizes(dir);
        String text = Files.readString(file);
        assertTrue(text.contains("#[StartTime: 1796540400.000"), text);
        assertTrue(text.contains("#[BaseTime: 1796540400.000"), text);
        assertTrue(text.contains("#Value unit: nanoseconds"), text);
        assertTrue(text.contains("#command line: jperf write-lat -a --hlog x.hlog 10.0.0.2"), text);

        HistogramLogReader reader = new HistogramLogReader(file.toString());
        List<Histogram> intervals = new ArrayList<>();
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
            intervals.add((Histogram) h);
        }
        assertEquals(RUN_START.getEpochSecond(), reader.getStartTimeSec(), 0.001);
        // each size twice: untagged (the default stream) then tagged size=BYTES, same times and counts
        assertEquals(4, intervals.size());
        assertNull(intervals.get(0).getTag());
        assertNull(intervals.get(2).getTag());
        for (int i = 0; i < 4; i += 2) {
            assertEquals(intervals.get(i + 1).getStartTimeStamp(), intervals.get(i).getStartTimeStamp());
            assertEquals(intervals.get(i + 1).getEndTimeStamp(), intervals.get(i).getEndTimeStamp());
            assertEquals(intervals.get(i + 1).getTotalCount(), intervals.get(i).getTotalCount());
        }

        Histogram small = intervals.get(1);
        assertEquals("size=2", small.getTag());
        assertEquals(RUN_START.plusMillis(1_500).toEpochMilli(), small.getStartTimeStamp());
        assertEquals(750, small.getEndTimeStamp() - small.getStartTimeStamp());
        assertEquals(1000, small.getTotalCount());
        assertEquals(990, small.getCountAtValue(1_000));
        assertEquals(10, small.getCountBetweenValues(9_990, 10_010));

        Histogram large = intervals.get(3);
        assertEquals("size=4096", large.getTag());
        assertEquals(RUN_START.plusMillis(2_250).toEpochMilli(), large.getStartTimeStamp());
        assertEquals(RUN_START.plusMillis(3_000).toEpochMilli(), large.getEndTimeStamp());
        assertEquals(1000, large.getTotalCount());
        assertEquals(3_000, large.getValueAtPercentile(50), 3);
        assertNull(reader.nextIntervalHistogram());
    }

    @Test
    void hdrHistogramsLogProcessorPrintsThePercentilesOfOneSize(@TempDir Path dir) throws Exception {
        Path file = writeTwoSizes(dir);
        Path out = dir.resolve("processed");
        processor(file, out, "-tag", "size=2", "-outputValueUnitRatio", "1000");

        // The .hgrm holds the whole distribution of size 2 in microseconds: 99 % at 1 us, the top 1 % at 10 us.
        String hgrm = Files.readString(Path.of(out + ".hgrm"));
        assertEquals(1.0, valueAt(hgrm, 0.5), 0.001, hgrm);
        assertEquals(1.0, valueAt(hgrm, 0.98), 0.001, hgrm);
        assertEquals(10.0, valueAt(hgrm, 0.995), 0.01, hgrm);
        assertTrue(hgrm.contains("#[Max     =       10.007, Total count    =         1000]"), hgrm);
        assertTrue(hgrm.contains("#[StartTime: 1796540400.000 (seconds since epoch)"), hgrm);

        // The interval file: one row for size 2, 1.5 s after the start, 1000 counts, 50 % at 1 us.
        String intervals = Files.readString(out);
        Matcher row = Pattern.compile("(?m)^([0-9.]+): I:(\\d+) \\(\\s*([0-9.]+)\\s+[0-9.]+\\s+([0-9.]+)\\s*\\) T:(\\d+)")
                .matcher(intervals);
        assertTrue(row.find(), intervals);
        assertEquals(2.25, Double.parseDouble(row.group(1)), 0.001, intervals); // interval end, seconds from the start
        assertEquals(1000, Long.parseLong(row.group(2)), intervals);
        assertEquals(1.0, Double.parseDouble(row.group(3)), 0.001, intervals);
        assertEquals(10.0, Double.parseDouble(row.group(4)), 0.01, intervals);
        assertEquals(1000, Long.parseLong(row.group(5)), intervals);
        assertTrue(!row.find(), "one interval tagged size=2:\n" + intervals);
        System.out.println("HistogramLogProcessor -tag size=2 -outputValueUnitRatio 1000:\n" + intervals + hgrm);
    }

    @Test
    void withoutATagTheProcessorShowsEverySizeInTimeOrder(@TempDir Path dir) throws Exception {
        Path file = writeTwoSizes(dir);
        Path out = dir.resolve("all");
        processor(file, out, "-outputValueUnitRatio", "1000");
        List<String> rows = Files.readAllLines(out).stream().filter(l -> l.matches("^[0-9.]+: I:.*")).toList();
        assertEquals(2, rows.size(), String.join("\n", rows));
        assertTrue(rows.get(0).startsWith("2.250: I:1000 (   1.000   1.000  10.007 )"), rows.get(0));
        assertTrue(rows.get(1).startsWith("3.000: I:1000 (   3.001   3.001   3.001 ) T:2000"), rows.get(1));
        String hgrm = Files.readString(Path.of(out + ".hgrm"));
        assertTrue(hgrm.contains("Total count    =         2000]"), hgrm);
    }

    /** Runs HistogramLogProcessor, from HdrHistogram's jar, in a child JVM. */
    private static String processor(Path log, Path out, String... options) throws Exception {
        String hdrJar = Path.of(HistogramLogProcessor.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI()).toString();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", hdrJar, HistogramLogProcessor.class.getName(), "-i", log.toString(), "-o",
                out.toString()));
        command.addAll(List.of(options));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String console = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "HistogramLogProcessor did not finish");
        assertEquals(0, p.exitValue(), console);
        assertTrue(!console.contains("Exception"), console);
        return console;
    }

    @Test
    void refusesAnIntervalOutsideTheRun() {
        LatencyHistogramLog log = new LatencyHistogramLog(RUN_START, List.of());
        Histogram h = new Histogram(3);
        assertThrows(IllegalArgumentException.class, () -> log.add(2, RUN_START.minusSeconds(1), RUN_START, h));
        assertThrows(IllegalArgumentException.class,
                () -> log.add(2, RUN_START.plus(Duration.ofSeconds(2)), RUN_START.plusSeconds(1), h));
    }

    /** The value of the .hgrm row at {@code percentile} (0..1) or the first row past it. */
    private static double valueAt(String hgrm, double percentile) {
        for (String line : hgrm.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && !line.startsWith("#") && f[0].matches("[0-9.]+")
                    && Double.parseDouble(f[1]) >= percentile) {
                return Double.parseDouble(f[0]);
            }
        }
        throw new AssertionError("no row at " + percentile + " in\n" + hgrm);
    }
}
