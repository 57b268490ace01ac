package io.jperf.matrix;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one test gave: its figure or why it failed, and both ends' path records with their verdicts.
 * Immutable.
 *
 * @param value    the figure (Gb/s for write-bw, t_typical us for write-lat); empty when it failed
 * @param error    why it failed; empty when it gave a figure
 * @param pathJson both ends' path records and the verdicts as one JSON object ({@code local},
 *                 {@code peer}, {@code verdicts}), one line; empty when no path was recorded
 * @param verdicts the verdicts as a {@link VerdictMask}
 */
public record PairOutcome(OptionalDouble value, Optional<String> error, Optional<String> pathJson, short verdicts) {
    public PairOutcome {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(pathJson, "pathJson");
        if (value.isPresent() == error.isPresent()) {
            throw new IllegalArgumentException("an outcome has a figure or an error, not both or neither");
        }
    }

    public static PairOutcome ok(double value, String pathJson, short verdicts) {
        return new PairOutcome(OptionalDouble.of(value), Optional.empty(), Optional.ofNullable(pathJson), verdicts);
    }

    public static PairOutcome failed(String error, String pathJson, short verdicts) {
        return new PairOutcome(OptionalDouble.empty(), Optional.of(error), Optional.ofNullable(pathJson), verdicts);
    }
}
