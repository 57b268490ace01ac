package io.jperf.lab;

import io.jperf.path.Severity;
import io.jperf.path.Verdict;
import io.jperf.result.BandwidthResult;
import io.jperf.sweep.SweepRow;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What jperf said about one rail of a two-guest lab scenario: one row of the rail sweep that
 * {@link LabScenarioVerdictTest} runs against guest B's {@code jperf serve}.
 *
 * @param rail 0 or 1
 * @param row  the sweep's row: the result and its path verdicts (both ends) when the test ran; the
 *             decoded error, the verdicts the failure carried (e.g. from the record a refusing
 *             serve peer sends) and those of a pre-flight check of this end when it did not
 */
record ScenarioRail(int rail, SweepRow row) {

    boolean ran() {
        return row.ok();
    }

    List<Verdict> verdicts() {
        return row.verdicts();
    }

    boolean has(String id) {
        return verdicts().stream().anyMatch(v -> v.id().equals(id));
    }

    boolean has(String id, String check) {
        return verdicts().stream().anyMatch(v -> v.id().equals(id) && v.check().equals(check));
    }

    /** A finding about {@code end} ({@code local} or {@code peer}), by the end its evidence names. */
    boolean has(String id, String check, String end) {
        return verdicts().stream().anyMatch(v -> v.id().equals(id) && v.check().equals(check) && end(v).equals(end));
    }

    /** {@code local} or {@code peer} when all evidence keys name that end, else {@code both}. */
    static String end(Verdict v) {
        if (v.evidence().keySet().stream().allMatch(k -> k.startsWith("local."))) {
            return "local";
        }
        if (v.evidence().keySet().stream().allMatch(k -> k.startsWith("peer."))) {
            return "peer";
        }
        return "both";
    }

    /** The WARNING and ERROR findings (INFO ones are notes, not problems). */
    List<Verdict> problems() {
        return verdicts().stream().filter(v -> v.severity() != Severity.INFO).toList();
    }

    /** One line: {@code rail1: ran 0.090 Gb/sec; verdicts: F2 ERROR egress-netdev (local), ...}. */
    String summary() {
        StringBuilder sb = new StringBuilder("rail").append(rail).append(' ').append(row.choice().label()).append(": ");
        if (ran()) {
            BandwidthResult bw = row.result().orElseThrow().bandwidth().getLast();
            sb.append(String.format("ran %.3f %s", bw.average(), bw.unit().label()));
        } else {
            sb.append("FAILED (").append(row.error().orElse("").lines().findFirst().orElse("")).append(')');
        }
        sb.append("; verdicts: ").append(verdicts().isEmpty() ? "none"
                : verdicts().stream().map(v -> v.id() + " " + v.severity() + " " + v.check() + " (" + end(v) + ")")
                .collect(Collectors.joining(", ")));
        return sb.toString();
    }

    /** Every finding in full, for the results file and failure messages. */
    String details() {
        StringBuilder sb = new StringBuilder(summary()).append('\n');
        row.error().ifPresent(f -> sb.append("  error: ").append(f.replace("\n", "\n    ")).append('\n'));
        row.path().ifPresent(p -> sb.append("  path: ").append(p).append('\n'));
        for (Verdict v : verdicts()) {
            sb.append("  ").append(v).append("\n    evidence ").append(v.evidence()).append('\n');
        }
        return sb.toString();
    }
}
