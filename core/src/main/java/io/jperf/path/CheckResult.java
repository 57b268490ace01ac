package io.jperf.path;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * The outcome of one check: it passed (with the values it read), it did not apply (and why), or it
 * found something (a {@link Verdict}). The path checks of {@link PathChecks} return these; a test's
 * {@link Verdicts} keep only the findings, {@code jperf doctor} shows every outcome. Immutable.
 *
 * @param id       the failure class ({@code F1}..{@code F7}) or another stable group id; may be empty
 * @param name     the stable name of the check, the same whatever its outcome (e.g. {@code return-path})
 * @param status   what the check concluded
 * @param summary  one sentence with the values: what is fine, what does not apply, or what is wrong
 * @param evidence the values read, in reading order
 * @param fixHint  what to do about a finding; empty when the check passed or was skipped
 * @param finding  the finding's own check name (e.g. {@code asymmetric-return}); {@code name} when
 *                 the check has a single form, or when it passed
 */
public record CheckResult(String id, String name, Status status, String summary,
                          SequencedMap<String, String> evidence, String fixHint, String finding) {

    /** What a check concluded. */
    public enum Status {
        /** The values read are as they should be. */
        PASS,
        /** The check does not apply here (another link layer, a value the system does not expose...). */
        SKIP,
        /** A finding worth knowing that does not change the result. */
        INFO,
        /** A finding that probably makes results worse than the fabric can do. */
        WARNING,
        /** A finding that is likely to make a test fail or measure another path. */
        ERROR;

        /** The verdict severity of a finding; empty for {@link #PASS} and {@link #SKIP}. */
        public Optional<Severity> severity() {
            return switch (this) {
                case PASS, SKIP -> Optional.empty();
                case INFO -> Optional.of(Severity.INFO);
                case WARNING -> Optional.of(Severity.WARNING);
                case ERROR -> Optional.of(Severity.ERROR);
            };
        }

        static Status of(Severity severity) {
            return switch (severity) {
                case INFO -> INFO;
                case WARNING -> WARNING;
                case ERROR -> ERROR;
            };
        }
    }

    public CheckResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(fixHint, "fixHint");
        Objects.requireNonNull(finding, "finding");
        evidence = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(evidence));
    }

    /** A passed check with the values it read. */
    public static CheckResult pass(String id, String name, String summary, Map<String, String> evidence) {
        return new CheckResult(id, name, Status.PASS, summary, ordered(evidence), "", name);
    }

    /** A check that does not apply here, and why. */
    public static CheckResult skip(String id, String name, String reason, Map<String, String> evidence) {
        return new CheckResult(id, name, Status.SKIP, reason, ordered(evidence), "", name);
    }

    /** A check that found {@code verdict}; {@code name} is the check's stable name. */
    public static CheckResult found(String name, Verdict verdict) {
        return new CheckResult(verdict.id(), name, Status.of(verdict.severity()), verdict.summary(),
                verdict.evidence(), verdict.fixHint(), verdict.check());
    }

    /** A finding of a check that is not a path verdict (e.g. doctor's hardware counters). */
    public static CheckResult finding(String id, String name, Severity severity, String summary,
                                      Map<String, String> evidence, String fixHint) {
        return new CheckResult(id, name, Status.of(severity), summary, ordered(evidence), fixHint, name);
    }

    /** {@code true} for INFO, WARNING and ERROR. */
    public boolean isFinding() {
        return status.severity().isPresent();
    }

    /** The finding as a verdict, empty when the check passed or was skipped. */
    public Optional<Verdict> verdict() {
        return status.severity().map(s -> new Verdict(id, finding, s, summary, evidence, fixHint));
    }

    private static SequencedMap<String, String> ordered(Map<String, String> evidence) {
        return evidence instanceof SequencedMap<String, String> s ? s : new LinkedHashMap<>(evidence);
    }
}
