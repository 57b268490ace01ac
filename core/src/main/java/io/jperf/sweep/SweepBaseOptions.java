package io.jperf.sweep;

import io.jperf.options.TestOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The test options every choice of a sweep shares, as perftest flags ({@code -c RC -n 5000 -q 1
 * ...}): the base options of the {@code jperf sweep} command that the swept dimensions did not
 * change. An option that differs between choices (a dimension, or what a dimension implies, such as
 * {@code -d} for a rail) is left out; so are switches that are off in every choice and values
 * that do not apply (a null MTU is the port's, printed as {@code -m port}). Stateless.
 */
final class SweepBaseOptions {

    /** One option: its flag and how its value reads from the options; null means "not printed". */
    private record Flag(String name, Function<TestOptions, String> value) {
    }

    private static final List<Flag> FLAGS = List.of(
            new Flag("-c", o -> o.params().connection().name()),
            new Flag("-d", o -> o.target().device() == null ? "(first)" : o.target().device()),
            new Flag("-i", o -> Integer.toString(o.target().ibPort())),
            new Flag("-x", o -> Integer.toString(o.target().gidIndex())),
            new Flag("-s", o -> o.params().allSizes() ? null : Long.toString(o.params().size())),
            new Flag("-a", o -> o.params().allSizes() ? "" : null),
            new Flag("-n", o -> o.isDuration() ? null : Integer.toString(o.params().iterations())),
            new Flag("-D", o -> o.isDuration() ? Integer.toString(o.params().durationSeconds()) : null),
            new Flag("-q", o -> Integer.toString(o.params().numQps())),
            new Flag("-b", o -> o.params().bidirectional() ? "" : null),
            new Flag("-t", o -> Integer.toString(o.params().txDepth())),
            new Flag("-l", o -> o.params().kind().isBandwidth() ? Integer.toString(o.params().postList()) : null),
            new Flag("-Q", o -> Integer.toString(o.params().cqModeration())),
            new Flag("-I", o -> Integer.toString(o.params().inlineSize())),
            new Flag("-m", o -> o.params().mtu() == null ? "port" : Integer.toString(o.params().mtu())),
            new Flag("-S", o -> Integer.toString(o.params().serviceLevel())),
            new Flag("--tclass", o -> Integer.toString(o.params().trafficClass())),
            new Flag("-u", o -> Integer.toString(o.params().qpTimeout())),
            new Flag("-R", o -> o.params().rdmaCm() ? "" : null),
            new Flag("-T", o -> o.params().tos() == null ? null : Integer.toString(o.params().tos())),
            new Flag("-o", o -> o.params().outstandingReads() > 0 ? Integer.toString(o.params().outstandingReads()) : null),
            new Flag("-r", o -> o.params().rxDepth() > 0 ? Integer.toString(o.params().rxDepth()) : null),
            new Flag("-N", o -> o.params().noPeak() ? "" : null),
            new Flag("-f", o -> o.params().margin() >= 0 ? Integer.toString(o.params().margin()) : null),
            new Flag("-A", o -> o.params().atomicType() == null ? null : o.params().atomicType().name()),
            new Flag("--report_gbits", o -> o.params().reportGbits() ? "" : null),
            new Flag("-p", o -> Integer.toString(o.target().port())));

    private SweepBaseOptions() {
    }

    /**
     * The flags with one value in every one of {@code options}, in perftest's usual order, e.g.
     * {@code [-c RC, -i 1, -n 5000, ..., --report_gbits, -p 18515]}; empty for no options.
     */
    static List<String> shared(List<TestOptions> options) {
        List<String> out = new ArrayList<>();
        if (options.isEmpty()) {
            return out;
        }
        for (Flag f : FLAGS) {
            String first = f.value().apply(options.getFirst());
            boolean same = options.stream().allMatch(o -> Objects.equals(first, f.value().apply(o)));
            if (same && first != null) {
                out.add(first.isEmpty() ? f.name() : f.name() + " " + first);
            }
        }
        return out;
    }
}
