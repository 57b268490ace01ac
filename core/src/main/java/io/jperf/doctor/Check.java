package io.jperf.doctor;

import io.jperf.path.CheckResult;

import java.util.Objects;

/**
 * One line of the walk: which layer, what was checked ({@code subject}: a netdev, a port such as
 * {@code rxe1/1}, a pair such as {@code rxe1 -> 10.20.1.2}) and the outcome with its evidence.
 * Immutable.
 *
 * @param layer   where in the walk
 * @param subject what the check looked at
 * @param result  the outcome, the values read, and the fix for a finding
 */
public record Check(Layer layer, String subject, CheckResult result) {

    public Check {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(result, "result");
    }

    public Status status() {
        return Status.of(result.status());
    }

    /** The check's stable name, e.g. {@code egress-netdev}. */
    public String name() {
        return result.name();
    }
}
