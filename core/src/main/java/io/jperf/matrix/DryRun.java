package io.jperf.matrix;

import io.jperf.engine.ResourceEstimate;
import io.jperf.wire.JperfExtension;

import java.time.Duration;
import java.util.Locale;

/**
 * What a matrix would take, computed from its {@link Schedule} without running anything: rounds,
 * tests, the wall time at a given time per test, and the coordinator's memory for the run.
 * Immutable.
 *
 * <p>The wall time is rounds x time per test: a round's tests run at once and the next round starts
 * when its slowest test has answered. The time per test is the measurement ({@code -D}), the
 * warm-up, and an overhead for connecting, the control exchange, QP set-up, the path probe and
 * clean-up, which the caller gives (it depends on the fabric and was not measured here).
 *
 * <p>The coordinator's memory is what it holds for the run: the {@link ResultMatrix} (dense,
 * {@value ResultMatrix#BYTES_PER_CELL} bytes a cell), at most {@value ResultMatrix#MAX_ERRORS}
 * failure texts, the schedule's host rounds (an int per host per round), and the answers of one
 * round in flight (each at most {@link JperfExtension#MAX_BYTES}), and at the end the analysis's
 * working arrays ({@link MatrixAnalysis#bytesFor}). The path records go to the points file as they
 * arrive and are not held.
 *
 * @param schedule        the schedule
 * @param perTest         the time one test takes, overhead included
 * @param matrixBytes     the result matrix
 * @param errorBytes      the failure texts, at most
 * @param scheduleBytes   the host rounds
 * @param inFlightBytes   one round's answers, at most
 * @param analysisBytes   the analysis's working arrays, at most
 */
public record DryRun(Schedule schedule, Duration perTest, long matrixBytes, long errorBytes, long scheduleBytes,
                     long inFlightBytes, long analysisBytes) {

    /** Bytes of JVM headers and map entry beside each failure text's characters (a String, its array, a node, a key). */
    static final int ERROR_ENTRY_OVERHEAD = 112;

    public static DryRun of(Schedule schedule, Duration perTest) {
        if (perTest.isNegative() || perTest.isZero()) {
            throw new IllegalArgumentException("the time per test must be positive (got " + perTest + ")");
        }
        long matrix = ResultMatrix.bytesFor(schedule.hosts(), schedule.railMode().combinationCount(schedule.rails()));
        long errors = Math.min(schedule.testCount(), ResultMatrix.MAX_ERRORS)
                * (long) (ResultMatrix.MAX_ERROR_CHARS + 3 + ERROR_ENTRY_OVERHEAD);
        long hostRounds = (long) schedule.pattern().roundCount(schedule.hosts());
        long scheduleBytes = schedule.testCount() / schedule.railMode().combinationCount(schedule.rails()) * 2
                * Integer.BYTES + hostRounds * 16;
        long inFlight = (long) schedule.widestRound() * JperfExtension.MAX_BYTES;
        return new DryRun(schedule, perTest, matrix, errors, scheduleBytes, inFlight,
                MatrixAnalysis.bytesFor(schedule.testCount()));
    }

    /** Rounds x time per test. */
    public Duration wallTime() {
        return perTest.multipliedBy(schedule.roundCount());
    }

    /** Everything the coordinator holds for the run, in bytes. */
    public long coordinatorBytes() {
        return matrixBytes + errorBytes + scheduleBytes + inFlightBytes + analysisBytes;
    }

    /** The figures as a few lines of text. */
    public String describe(Duration measure, Duration warmup, Duration overhead) {
        Schedule s = schedule;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "jperf matrix --dry-run: %d hosts x %d rails, %s, %s%n", s.hosts(), s.rails(),
                s.pattern().label(), s.railMode().label()));
        sb.append(String.format(Locale.ROOT, "  rounds:     %,d (at most %,d tests at once)%n", s.roundCount(),
                s.widestRound()));
        sb.append(String.format(Locale.ROOT, "  tests:      %,d%n", s.testCount()));
        sb.append(String.format(Locale.ROOT, "  per test:   %s = %s measured + %s warm-up + %s set-up/teardown"
                + " overhead (assumed, --test-overhead)%n", seconds(perTest), seconds(measure), seconds(warmup),
                seconds(overhead)));
        sb.append(String.format(Locale.ROOT, "  wall time:  %s (%,d s)%n", human(wallTime()), wallTime().toSeconds()));
        sb.append(String.format(Locale.ROOT, "  coordinator memory: %s = results %s + failure texts <= %s + schedule %s"
                        + " + one round's answers <= %s + analysis <= %s%n", ResourceEstimate.format(coordinatorBytes()),
                ResourceEstimate.format(matrixBytes), ResourceEstimate.format(errorBytes),
                ResourceEstimate.format(scheduleBytes), ResourceEstimate.format(inFlightBytes),
                ResourceEstimate.format(analysisBytes)));
        return sb.toString();
    }

    private static String seconds(Duration d) {
        double s = d.toNanos() / 1e9;
        return s == Math.rint(s) ? String.format(Locale.ROOT, "%d s", (long) s) : String.format(Locale.ROOT, "%.2f s", s);
    }

    /** {@code 2 d 03:04:05}. */
    static String human(Duration d) {
        long s = d.toSeconds();
        long days = s / 86_400;
        String hms = String.format(Locale.ROOT, "%02d:%02d:%02d", s % 86_400 / 3600, s % 3600 / 60, s % 60);
        return days > 0 ? days + " d " + hms : hms;
    }
}
