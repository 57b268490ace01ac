package io.jperf.doctor;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one walk found, in walk order. Immutable.
 *
 * <p>Exit status: {@value #EXIT_PASS} when nothing warned or failed, {@value #EXIT_WARN} with
 * warnings and no failure, {@value #EXIT_FAIL} with at least one failure. Skipped checks do not
 * count.
 *
 * @param host   this host's name
 * @param device the device the walk was limited to ({@code -d}), if any
 * @param peer   the {@code jperf serve} host the pair was checked against, if any
 * @param checks every check, layer by layer
 */
public record DoctorReport(String host, Optional<String> device, Optional<String> peer, List<Check> checks) {
    public static final int EXIT_PASS = 0;
    public static final int EXIT_WARN = 1;
    public static final int EXIT_FAIL = 2;

    public DoctorReport {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(peer, "peer");
        checks = List.copyOf(checks);
    }

    /** How many checks ended with {@code status}. */
    public long count(Status status) {
        return checks.stream().filter(c -> c.status() == status).count();
    }

    /** The checks of one layer, in order. */
    public List<Check> layer(Layer layer) {
        return checks.stream().filter(c -> c.layer() == layer).toList();
    }

    /** The worst verdict: FAIL, else WARN, else PASS (all skipped counts as PASS). */
    public Status worst() {
        return count(Status.FAIL) > 0 ? Status.FAIL : count(Status.WARN) > 0 ? Status.WARN : Status.PASS;
    }

    /** 0 all passed, 1 warnings, 2 failures. */
    public int exitCode() {
        return switch (worst()) {
            case FAIL -> EXIT_FAIL;
            case WARN -> EXIT_WARN;
            default -> EXIT_PASS;
        };
    }
}
