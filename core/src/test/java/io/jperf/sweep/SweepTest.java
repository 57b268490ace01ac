package io.jperf.sweep;

import static io.jperf.sweep.SweepFixtures.RAIL0;
import static io.jperf.sweep.SweepFixtures.RAIL1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.PathRecord;
import io.jperf.path.Severity;
import io.jperf.path.Verdict;
import io.jperf.path.Verdicts;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class SweepTest {

    /** rail (rxe0, rxe1) x size (4K, 64K) against 10.20.0.2. */
    private static SweepPlan railsBySize() {
        return SweepPlan.builder(TestOptions.builder(TestKind.WRITE_BW).serverHost(SweepFixtures.PEER).build())
                .values(SweepDimension.RAIL, List.of(RAIL0.label(), RAIL1.label()))
                .values(SweepDimension.SIZE, List.of("4K", "64K"))
                .build();
    }

    private static SweepFixtures.Rail rail(SweepChoice c) {
        return c.options().target().device().equals("rxe0") ? RAIL0 : RAIL1;
    }

    /** A result as the engine makes it; rail1 collapsed onto rail0's route (F2 ERROR). */
    private static PerfTestResult result(SweepChoice c, double mib) {
        SweepFixtures.Rail rail = rail(c);
        PathRecord local = rail == RAIL1 ? SweepFixtures.collapsedRecord(rail, 0) : SweepFixtures.healthyRecord(rail, 0);
        PathRecord peer = SweepFixtures.peerRecord(rail, 0);
        return SweepFixtures.result(c.options(), local, peer, Verdicts.evaluate(local, peer),
                List.of(SweepFixtures.bandwidth(c.options().params().size(), mib)), List.of(), List.of());
    }

    /** A healthy rail0 result at the choice's size, whatever its device. */
    private static PerfTestResult plainResult(SweepChoice c) {
        PathRecord local = SweepFixtures.healthyRecord(RAIL0, 0);
        PathRecord peer = SweepFixtures.peerRecord(RAIL0, 0);
        return SweepFixtures.result(c.options(), local, peer, List.of(),
                List.of(SweepFixtures.bandwidth(c.options().params().size(), 1000)), List.of(), List.of());
    }

    private static Sweep sweep(SweepPlan plan, Sweep.PointRunner runner, LocalPathCheck check) {
        return Sweep.of(plan).runner(runner).pathCheck(check).sourceLocator(SweepPlan.SourceLocator.NONE);
    }

    @Test
    void everyPointRunsInOrderAndRowsTakeVerdictsAndPathFromTheResult() {
        List<String> ran = new ArrayList<>();
        SweepResult r = sweep(railsBySize(), c -> {
            ran.add(c.label());
            return result(c, 1000 + c.index());
        }, LocalPathCheck.NONE).run();
        assertEquals(List.of("rail=rxe0>10.20.0.2 size=4K", "rail=rxe0>10.20.0.2 size=64K",
                "rail=rxe1>10.20.1.2 size=4K", "rail=rxe1>10.20.1.2 size=64K"), ran);
        assertEquals(TestKind.WRITE_BW, r.kind());
        assertEquals(SweepFixtures.PEER, r.peerHost());
        assertEquals(List.of("rail", "size"), r.dimensions());
        assertEquals(4, r.rows().size());
        assertTrue(r.rows().stream().allMatch(SweepRow::ok));
        SweepRow rail0 = r.rows().get(0);
        assertTrue(rail0.consistent(), rail0.verdicts().toString());
        assertTrue(rail0.path().orElseThrow().startsWith("Path: rxe0 port 1"), rail0.path().toString());
        SweepRow rail1 = r.rows().get(3);
        assertFalse(rail1.consistent());
        assertTrue(rail1.verdicts().stream().anyMatch(v -> v.id().equals("F2") && v.severity() == Severity.ERROR),
                rail1.verdicts().toString());
        assertEquals(rail1.result().orElseThrow().path().orElseThrow().verdicts(), rail1.verdicts());
        assertTrue(rail1.path().orElseThrow().contains("dev veth0"), "rail1's summary shows the collapsed egress");
        // 1000..1003 MiB/s: one run each and 0.3 % apart, within the noise threshold: neither best nor worst
        assertEquals(SweepRanking.Status.WITHIN_NOISE, r.ranking().status(), r.ranking().summary());
        assertTrue(r.best().isEmpty() && r.worst().isEmpty());
    }

    @Test
    void aFailedPointStaysWithItsErrorAndTheSweepGoesOn() {
        Verdict f6 = new Verdict("F6", "port-state", Severity.ERROR, "port 1 of rxe1 is DOWN",
                new java.util.LinkedHashMap<>(java.util.Map.of("local.port.state", "DOWN")), "bring the link up");
        String message = "the test failed: peer went away\nThe path has problems that may explain it:\n  " + f6
                + " Fix: " + f6.fixHint();
        List<Integer> finished = new ArrayList<>();
        List<String> started = new ArrayList<>();
        SweepListener listener = new SweepListener() {
            @Override
            public void started(SweepChoice choice, int total) {
                started.add(choice.index() + "/" + total);
            }

            @Override
            public void finished(SweepRow row, int total) {
                finished.add(row.choice().index());
            }
        };
        SweepResult r = sweep(railsBySize(), c -> {
            if (c.index() == 1) {
                throw new TestFailedException(message, null, List.of(f6));
            }
            return result(c, 2000);
        }, LocalPathCheck.NONE).listener(listener).run();
        assertEquals(List.of("0/4", "1/4", "2/4", "3/4"), started);
        assertEquals(List.of(0, 1, 2, 3), finished);
        assertEquals(4, r.rows().size());
        SweepRow failed = r.rows().get(1);
        assertFalse(failed.ok());
        assertEquals("the test failed: peer went away", failed.error().orElseThrow(),
                "the verdict lines are not repeated in the error: the row lists its verdicts");
        assertEquals(List.of(f6), failed.verdicts());
        assertTrue(r.rows().get(2).ok() && r.rows().get(3).ok(), "points after a failure still run");
    }

    @Test
    void everyKindOfFailureIsDecoded() throws Exception {
        List<Exception> failures = List.of(
                new RdmaUnavailableException("no RDMA device named 'rxe7'; devices here: rxe0, rxe1"),
                new RdmaException("ibv_modify_qp", 110, "check the GID"),
                new TestFailedException("connecting to 10.20.0.2:18515 failed", new IOException("Connection refused")),
                new IOException("read timed out"),
                new IllegalStateException("a bug"));
        SweepPlan plan = SweepPlan.builder(TestOptions.builder(TestKind.WRITE_BW).serverHost("p").build())
                .values(SweepDimension.TCLASS, List.of("0", "1", "2", "3", "4")).build();
        SweepResult r = sweep(plan, c -> {
            throw failures.get(c.index());
        }, LocalPathCheck.NONE).run();
        List<String> errors = r.rows().stream().map(row -> row.error().orElseThrow()).toList();
        assertEquals("no RDMA device named 'rxe7'; devices here: rxe0, rxe1", errors.get(0));
        assertTrue(errors.get(1).contains("ibv_modify_qp"), errors.get(1));
        assertEquals("connecting to 10.20.0.2:18515 failed\ncaused by: Connection refused", errors.get(2));
        assertEquals("read timed out", errors.get(3));
        assertEquals("IllegalStateException: a bug", errors.get(4), "a bug keeps its class name");
        assertTrue(r.rows().stream().noneMatch(SweepRow::ok));
    }

    @Test
    void aCauseThatRepeatsTheMessageIsNotRepeatedAndLongErrorsAreCut() {
        TestFailedException wrapped = new TestFailedException("Connection refused", new IOException("Connection refused"));
        assertEquals("Connection refused", Sweep.describe(wrapped));
        StringBuilder many = new StringBuilder("line 0");
        for (int i = 1; i < 20; i++) {
            many.append("\nline ").append(i);
        }
        String cut = Sweep.describe(new TestFailedException(many.toString()));
        assertEquals(Sweep.ERROR_LINES + 1, cut.lines().count(), cut);
        assertTrue(cut.endsWith("(12 more lines)"), cut);
        assertEquals("NullPointerException", Sweep.describe(new NullPointerException()));
    }

    @Test
    void aFailedPointGetsThePreflightVerdictsAndPathWithoutRepeats() {
        PathRecord collapsed = SweepFixtures.collapsedRecord(RAIL1, 0);
        List<Verdict> local = Verdicts.evaluate(collapsed, null);
        Verdict f2 = local.stream().filter(v -> v.id().equals("F2")).findFirst().orElseThrow();
        Verdict peerF6 = new Verdict("F6", "port-state", Severity.ERROR, "peer port DOWN",
                new java.util.LinkedHashMap<>(), "bring it up");
        LocalPathCheck check = (choice, qos) -> rail(choice) == RAIL1
                ? new LocalPathCheck.Outcome(Optional.of(collapsed), local, Optional.empty())
                : LocalPathCheck.Outcome.problem("pre-flight: GID index 9 does not exist on rxe0 port 1");
        SweepResult r = sweep(railsBySize(), c -> {
            // the engine's failure carries the peer's F6 and the same F2 the pre-flight check finds
            throw new TestFailedException("RDMA_CM_EVENT_UNREACHABLE", null, List.of(peerF6, f2));
        }, check).run();
        SweepRow rail1 = r.rows().get(2);
        assertEquals(List.of("F2", "F6"), rail1.verdicts().stream().map(Verdict::id).distinct().toList());
        assertEquals(1, rail1.verdicts().stream().filter(v -> v.equals(f2)).count(), "F2 once, not twice");
        assertTrue(rail1.verdicts().contains(peerF6));
        assertTrue(rail1.path().orElseThrow().startsWith("Path: rxe1"), rail1.path().toString());
        SweepRow rail0 = r.rows().get(0);
        assertEquals("RDMA_CM_EVENT_UNREACHABLE\npre-flight: GID index 9 does not exist on rxe0 port 1",
                rail0.error().orElseThrow());
        assertEquals(Optional.empty(), rail0.path());
    }

    @Test
    void aPreflightThatThrowsDoesNotStopTheSweep() {
        LocalPathCheck broken = (choice, qos) -> {
            throw new IllegalStateException("probe exploded");
        };
        SweepResult r = sweep(railsBySize(), c -> {
            throw new RdmaUnavailableException("port 1 of rxe0 is DOWN");
        }, broken).run();
        assertEquals(4, r.rows().size());
        assertTrue(r.rows().getFirst().error().orElseThrow().contains("probe exploded"));
    }

    @Test
    void thePreflightSeesTheQosSwitch() {
        List<Boolean> seen = new ArrayList<>();
        LocalPathCheck check = (choice, qos) -> {
            seen.add(qos);
            return LocalPathCheck.Outcome.EMPTY;
        };
        sweep(railsBySize(), c -> {
            throw new CmExceptionStandIn();
        }, check).qosExpected(true).run();
        assertEquals(List.of(true, true, true, true), seen);
    }

    /** Any runtime exception from the engine (CmException has no public constructor). */
    private static final class CmExceptionStandIn extends RuntimeException {
        CmExceptionStandIn() {
            super("rdma_resolve_addr failed: ADDR_ERROR");
        }
    }

    @Test
    void anInterruptEndsTheSweepWithTheRowsSoFar() {
        try {
            SweepResult r = sweep(railsBySize(), c -> {
                if (c.index() == 1) {
                    throw new InterruptedException();
                }
                return result(c, 1000);
            }, LocalPathCheck.NONE).run();
            assertEquals(2, r.rows().size());
            assertTrue(r.rows().get(1).error().orElseThrow().contains("interrupted"));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void thePauseSeparatesPoints() {
        long t0 = System.nanoTime();
        SweepResult r = sweep(railsBySize(), c -> result(c, 1000), LocalPathCheck.NONE)
                .pause(Duration.ofMillis(40)).run();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 120, "3 pauses between 4 points: " + ms + " ms");
        assertTrue(r.elapsed().toMillis() >= 120, r.elapsed().toString());
    }

    @Test
    void sourceNotesReachTheListener() {
        SweepPlan plan = SweepPlan.builder(TestOptions.builder(TestKind.WRITE_BW).serverHost("p").build())
                .values(SweepDimension.SOURCE, List.of("10.9.9.9")).build();
        List<String> warnings = new ArrayList<>();
        Sweep.of(plan).runner(SweepTest::plainResult)
                .pathCheck(LocalPathCheck.NONE).sourceLocator(a -> Optional.empty())
                .listener(new SweepListener() {
                    @Override
                    public void warning(SweepChoice choice, String message) {
                        warnings.add(message);
                    }
                }).run();
        assertEquals(1, warnings.size());
        assertTrue(warnings.getFirst().contains("10.9.9.9"), warnings.toString());
    }

    @Test
    void settingsAreChecked() {
        Sweep s = Sweep.of(railsBySize());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> s.pointTimeout(Duration.ZERO));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> s.pause(Duration.ofSeconds(-1)));
    }
}
