package io.jperf.sweep;

import io.jperf.options.TestOptions;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.StringJoiner;

/**
 * One point of a sweep: the value of every swept dimension and the client options they produce.
 * Immutable.
 *
 * @param index       the position in the sweep, from 0
 * @param dimensions  dimension name to value, in the sweep's dimension order, e.g.
 *                    {@code rail=rxe1>10.20.1.2, rdma_cm=off, tclass=106, size=64K}
 * @param options     the client's options for this point (device, GID index, -R, tclass, size...)
 * @param peerAddress the peer's RDMA address this point asks {@code jperf serve} to use; empty:
 *                    the address the control connection reached
 */
public record SweepChoice(int index, SequencedMap<String, String> dimensions, TestOptions options,
                          Optional<String> peerAddress) {

    public SweepChoice {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(peerAddress, "peerAddress");
        dimensions = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(dimensions));
    }

    /** The dimension values as one short label, e.g. {@code rail=rxe1>10.20.1.2 tclass=106}. */
    public String label() {
        StringJoiner sj = new StringJoiner(" ");
        dimensions.forEach((k, v) -> sj.add(k + "=" + v));
        return dimensions.isEmpty() ? "default" : sj.toString();
    }
}
