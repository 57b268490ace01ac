package io.jperf.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What an interleaved Java-vs-C benchmark ({@code PostPollBenchmark.javaVsC},
 * {@code BandwidthLoopBenchmark.engineVsC}, {@code LatencyLoopBenchmark.engineVsC}) measured in
 * one iteration. Each invocation runs the Java loop and the C loop on the same number of WRs
 * (a "chunk"), back to back, and {@link #record}s both times. JMH reports the public fields as
 * secondary results (unit "#", summed over the measurement iterations):
 * <ul>
 *   <li>{@code javaNs}, {@code cNs}, {@code wrs}: total time in each loop and WRs each moved;</li>
 *   <li>{@code javaMinNs}, {@code cMinNs}, {@code chunkWrs}: the fastest chunk of each loop in
 *       the iteration, and the WRs of one chunk.</li>
 * </ul>
 * The CI gate (GateCheck) uses {@code javaMinNs / cMinNs}: a preemption or an interrupt only
 * ever adds time to a chunk, and on a shared machine it lands on a 5 µs C chunk or a 20 µs Java
 * chunk unevenly, while the fastest of a few thousand chunks of each is the undisturbed cost.
 * A benchmark class becomes gateable by taking this state and calling {@link #record}.
 */
@AuxCounters(AuxCounters.Type.EVENTS)
@State(Scope.Thread)
public class InterleavedCounters {
    public long javaNs;
    public long cNs;
    public long wrs;
    public long javaMinNs;
    public long cMinNs;
    public long chunkWrs;
    private long invocations;

    @Setup(Level.Iteration)
    public void clear() {
        javaNs = 0;
        cNs = 0;
        wrs = 0;
        javaMinNs = 0;
        cMinNs = 0;
        chunkWrs = 0;
    }

    /** Alternates which loop goes first, so neither always runs on the other's warm caches. */
    boolean javaFirst() {
        return (invocations++ & 1) == 0;
    }

    /** One invocation: both loops moved {@code chunk} WRs, in {@code java} and {@code c} nanoseconds. */
    void record(long java, long c, long chunk) {
        javaNs += java;
        cNs += c;
        wrs += chunk;
        // JMH zeroes the counters before each iteration itself: 0 means "no chunk yet".
        javaMinNs = javaMinNs == 0 ? java : Math.min(javaMinNs, java);
        cMinNs = cMinNs == 0 ? c : Math.min(cMinNs, c);
        chunkWrs = chunk;
    }
}
