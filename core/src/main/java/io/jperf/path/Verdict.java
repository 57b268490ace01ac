package io.jperf.path;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * One consistency finding about a test's path. Immutable.
 *
 * @param id       the failure class, {@code F1}..{@code F7} (see docs/domain.md)
 * @param check    a stable short name of the specific check, e.g. {@code egress-netdev}
 * @param severity how much it matters
 * @param summary  one sentence saying what is wrong, with the values
 * @param evidence the values that triggered it, in reading order (e.g. {@code route.egress=eth0})
 * @param fixHint  what a person can do about it, concretely
 */
public record Verdict(String id, String check, Severity severity, String summary,
                      SequencedMap<String, String> evidence, String fixHint) {

    public Verdict {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(fixHint, "fixHint");
        evidence = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(evidence));
    }

    /** {@code F2 ERROR egress-netdev: ...}. */
    @Override
    public String toString() {
        return id + " " + severity + " " + check + ": " + summary;
    }
}
