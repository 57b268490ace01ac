package io.jperf.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A latency run (write-lat: half round trips; read-lat: whole round trips) as an HdrHistogram interval log ({@code .hlog}) that HdrHistogram's own tools read:
 * one interval per message size, holding every half round trip of that size in {@value #VALUE_UNIT}, in two
 * streams: untagged (HdrHistogram's default stream, so {@code HistogramLogProcessor} without {@code -tag}
 * shows every size in time order, and its {@code .hgrm} the whole run) and tagged {@code size=BYTES} (one
 * stream per size: {@code -tag size=64}). The log states its {@code #[StartTime: ...]} and
 * {@code #[BaseTime: ...]} (both the run's start), so each interval's start is the seconds since the run
 * began and its length is the wall-clock time that size took.
 *
 * <p>{@code HistogramLogProcessor} divides values by {@code -outputValueUnitRatio} (default 1,000,000:
 * milliseconds from nanoseconds); {@code -outputValueUnitRatio 1000} prints microseconds. A reader of
 * every line sees each interval twice, once per stream; {@code Histogram.getTag()} tells them apart.
 *
 * <p>Collect the intervals with {@link #add} (off the data path: the histogram is the one computed after
 * the loop), then {@link #write} once. Not thread-safe.
 */
public final class LatencyHistogramLog {
    /** The unit of every recorded value. */
    public static final String VALUE_UNIT = "nanoseconds";

    private final Instant runStart;
    private final String measured;
    private final List<String> comments;
    private final List<Interval> intervals = new ArrayList<>();

    /** One message size's histogram and the wall-clock time its measurement took. */
    private record Interval(long sizeBytes, Instant start, Instant end, Histogram untagged, Histogram tagged) {
    }

    /**
     * @param runStart the run's start, the log's start and base time
     * @param comments lines written as {@code #} comments after the log's own description (e.g. tool
     *     version, command line, host)
     */
    public LatencyHistogramLog(Instant runStart, List<String> comments) {
        this(runStart, "jperf write-lat: half round-trip latency", comments);
    }

    /**
     * @param measured what the values are, the log's first comment (e.g. {@code jperf read-lat: round-trip
     *     latency})
     */
    public LatencyHistogramLog(Instant runStart, String measured, List<String> comments) {
        this.measured = Objects.requireNonNull(measured, "measured");
        this.runStart = Objects.requireNonNull(runStart, "runStart");
        this.comments = List.copyOf(comments);
    }

    /**
     * Adds the interval of one message size.
     *
     * @param histogram half round trips in {@value #VALUE_UNIT}; copied, the caller's is left untouched
     * @throws IllegalArgumentException if the interval ends before it starts or starts before the run
     */
    public void add(long sizeBytes, Instant start, Instant end, Histogram histogram) {
        if (end.isBefore(start) || start.isBefore(runStart)) {
            throw new IllegalArgumentException("interval " + start + " .. " + end + " is not within the run from "
                    + runStart);
        }
        Histogram untagged = stamped(histogram, start, end, null);
        intervals.add(new Interval(sizeBytes, start, end, untagged, stamped(histogram, start, end, "size=" + sizeBytes)));
    }

    private static Histogram stamped(Histogram histogram, Instant start, Instant end, String tag) {
        Histogram copy = histogram.copy();
        copy.setStartTimeStamp(start.toEpochMilli());
        copy.setEndTimeStamp(end.toEpochMilli());
        copy.setTag(tag);
        return copy;
    }

    /** Writes the log to {@code file}, replacing it. */
    public void write(Path file) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment(measured + ", one interval per message size, written"
                    + " twice: untagged (all sizes) and Tag=size=BYTES (HistogramLogProcessor -tag size=BYTES)");
            writer.outputComment("Value unit: " + VALUE_UNIT
                    + " (HistogramLogProcessor -outputValueUnitRatio 1000 prints microseconds)");
            for (String line : comments) {
                writer.outputComment(line);
            }
            writer.outputLogFormatVersion();
            long base = runStart.toEpochMilli();
            writer.outputStartTime(base);
            writer.setBaseTime(base);
            writer.outputBaseTime(base);
            writer.outputLegend();
            for (Interval i : intervals) {
                double start = seconds(runStart, i.start());
                double end = seconds(runStart, i.end());
                writer.outputIntervalHistogram(start, end, i.untagged(), 1_000_000.0);
                writer.outputIntervalHistogram(start, end, i.tagged(), 1_000_000.0);
            }
            if (out.checkError()) {
                throw new IOException("could not write " + file);
            }
        }
    }

    /** Seconds from {@code from} to {@code to}, to the nanosecond (the log prints milliseconds). */
    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }
}
