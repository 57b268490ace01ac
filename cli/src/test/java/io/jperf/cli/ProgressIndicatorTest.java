package io.jperf.cli;

import io.jperf.engine.TestListener;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressIndicatorTest {
    private static final long SECOND = 1_000_000_000L;
    private static final String CLEAR = "\r\033[K";

    private final StringWriter err = new StringWriter();
    private final AtomicLong clock = new AtomicLong(5 * SECOND);
    private final List<String> events = new ArrayList<>();
    private final TestListener recorder = new TestListener() {
        @Override
        public void bandwidth(BandwidthResult result) {
            events.add("bw " + result.sizeBytes() + " after [" + err + "]");
        }

        @Override
        public void latency(LatencyResult result) {
            events.add("lat " + result.sizeBytes() + " after [" + err + "]");
        }

        @Override
        public void warning(String message) {
            events.add("warning " + message);
        }
    };

    private ProgressIndicator indicator(boolean terminal, int durationSeconds) {
        return new ProgressIndicator(recorder, new PrintWriter(err), terminal, durationSeconds, clock::get);
    }

    @Test
    void durationShowsElapsedOfTotalFromConnectOnATerminal() {
        ProgressIndicator p = indicator(true, 60);
        p.tick();
        assertEquals("", err.toString(), "nothing before both ends are connected");
        p.connected(null, List.of(), List.of());
        clock.addAndGet(12 * SECOND + SECOND / 2);
        p.tick();
        assertEquals(CLEAR + "[jperf] -D 60: 12/60 s", err.toString());
        clock.addAndGet(SECOND);
        p.tick();
        assertTrue(err.toString().endsWith(CLEAR + "[jperf] -D 60: 13/60 s"), err.toString());
    }

    @Test
    void durationNeverShowsMoreThanTheTotal() {
        ProgressIndicator p = indicator(true, 10);
        p.connected(null, List.of(), List.of());
        clock.addAndGet(14 * SECOND);
        p.tick();
        assertEquals(CLEAR + "[jperf] -D 10: 10/10 s", err.toString());
    }

    @Test
    void theLineIsClearedBeforeTheResultAndNotShownAgain() {
        ProgressIndicator p = indicator(true, 8);
        p.connected(null, List.of(), List.of());
        clock.addAndGet(3 * SECOND);
        p.tick();
        p.bandwidth(new BandwidthResult(65536, 1000, 0, 100, 0.1, BandwidthResult.Unit.MIB_PER_SEC));
        assertEquals(List.of("bw 65536 after [" + CLEAR + "[jperf] -D 8: 3/8 s" + CLEAR + "]"), events);
        String before = err.toString();
        clock.addAndGet(SECOND);
        p.tick();
        p.close();
        assertEquals(before, err.toString(), "after the result the ticker prints nothing and there is nothing to clear");
    }

    @Test
    void closeClearsAShownLineSoAnErrorStartsOnAFreshLine() {
        ProgressIndicator p = indicator(true, 30);
        p.connected(null, List.of(), List.of());
        clock.addAndGet(2 * SECOND);
        p.tick();
        p.close();
        assertTrue(err.toString().endsWith("2/30 s" + CLEAR), err.toString());
        p.close();
        assertTrue(err.toString().endsWith("2/30 s" + CLEAR), "close is idempotent: " + err);
    }

    @Test
    void offATerminalNothingIsPrintedButEventsStillPass() {
        ProgressIndicator p = indicator(false, 60).start();
        p.connected(null, List.of(), List.of());
        clock.addAndGet(30 * SECOND);
        p.tick();
        p.progress(1, 23);
        p.warning("w");
        p.latency(new LatencyResult(2, 1000, 1, 2, 1.5, 1.5, 0.1, 2, 2));
        p.close();
        assertEquals("", err.toString());
        assertEquals(List.of("warning w", "lat 2 after []"), events);
    }

    @Test
    void allSizesCountsSizesAndClearsBeforeEachRowAndWarning() {
        ProgressIndicator p = indicator(true, 0);
        p.progress(1, 3);
        assertEquals(CLEAR + "[jperf] 1/3 sizes done", err.toString());
        p.warning("w");
        assertTrue(err.toString().endsWith("1/3 sizes done" + CLEAR), err.toString());
        p.progress(3, 3);
        assertFalse(err.toString().contains("3/3"), "the last size prints no progress line");
        p.tick();
        assertFalse(err.toString().contains("-D"), "without -D there is no time line");
    }

    @Test
    void theTickerRefreshesOnItsOwnThreadAndStopsAtClose() throws Exception {
        AtomicLong realClock = new AtomicLong();
        ProgressIndicator p = new ProgressIndicator(recorder, new PrintWriter(err), true, 60,
                () -> realClock.get()).start();
        p.connected(null, List.of(), List.of());
        realClock.set(7 * SECOND);
        long deadline = System.nanoTime() + 10 * SECOND;
        while (!err.toString().contains("7/60 s") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        p.close();
        assertTrue(err.toString().contains("[jperf] -D 60: 7/60 s"), err.toString());
        String after = err.toString();
        Thread.sleep(1500);
        assertEquals(after, err.toString(), "nothing printed after close");
    }
}
