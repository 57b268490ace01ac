package io.jperf.doctor;

import io.jperf.engine.PathReport;
import io.jperf.options.TestKind;
import io.jperf.path.Verdict;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * What one short test against the peer gave. Immutable.
 *
 * @param kind            write-bw or write-lat
 * @param figures         the measured values when it ran (e.g. {@code average=0.48 Gb/s}), in order
 * @param path            both ends' path records and verdicts, when it ran with a GID
 * @param peerVersion     the version the peer announced, empty when it did not get that far
 * @param failure         why it did not run, one message
 * @param stage           where it failed ({@link Stage#NONE} when it ran)
 * @param failureVerdicts the path findings the failure carried (e.g. the peer's port is down)
 */
public record SmokeResult(TestKind kind, SequencedMap<String, String> figures, Optional<PathReport> path,
                          Optional<String> peerVersion, Optional<String> failure, Stage stage,
                          List<Verdict> failureVerdicts) {

    /** Where a smoke test failed. */
    public enum Stage {
        /** It did not fail. */
        NONE,
        /** On this end before connecting: the device, port or GID (a verbs or availability error). */
        LOCAL,
        /** The control connection: nothing listens, no route, or it timed out connecting. */
        CONNECT,
        /** After connecting: the peer refused, a mismatch, completion errors, a peer that went away. */
        TEST
    }

    public SmokeResult {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(peerVersion, "peerVersion");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(stage, "stage");
        figures = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(figures));
        failureVerdicts = List.copyOf(failureVerdicts);
    }

    /** A test that ran. */
    public static SmokeResult ran(TestKind kind, Map<String, String> figures, Optional<PathReport> path, String peerVersion) {
        return new SmokeResult(kind, new LinkedHashMap<>(figures), path, Optional.of(peerVersion), Optional.empty(),
                Stage.NONE, List.of());
    }

    /** A test that did not run. */
    public static SmokeResult failed(TestKind kind, Stage stage, String failure, List<Verdict> verdicts) {
        if (stage == Stage.NONE) {
            throw new IllegalArgumentException("a failed test failed somewhere");
        }
        return new SmokeResult(kind, new LinkedHashMap<>(), Optional.empty(), Optional.empty(), Optional.of(failure),
                stage, verdicts);
    }

    public boolean ok() {
        return failure.isEmpty();
    }
}
