package io.jperf.sweep;

import io.jperf.options.OptionsException;
import io.jperf.options.SizeParser;
import io.jperf.options.TestOptions;
import io.jperf.verbs.GidLocation;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * What a sweep runs: base options (the peer, and everything every point shares) and the values
 * of each swept {@link SweepDimension}. The points are the cartesian product of the values, in a
 * stable order: dimensions nest in {@link SweepDimension}'s order (rail, source, gid, rdma_cm,
 * tclass, size), the first varying slowest, and each dimension's values keep the order given.
 * An absent dimension keeps the base options' value.
 *
 * <p>What each dimension sets on a point's {@link TestOptions}: rail the device ({@code -d}) and
 * the peer address {@code jperf serve} runs on; source {@code --bind_source_ip}; gid {@code -x};
 * rdma_cm {@code -R}; tclass {@code --tclass}; size {@code -s}. The engine does not pick a
 * device from a source address (without {@code -R} it uses {@code -d}, or the first device), so
 * {@link #expand(SourceLocator)} looks each source up in this host's GID tables and sets the
 * device, port and GID index that carry it, where neither {@code -d}/{@code --rails} nor
 * {@code -x}/{@code --gid-indexes} chose them.
 *
 * <p>{@link Builder#build()} checks everything that can be checked without a device: values,
 * duplicates, conflicts with the base options, the number of points (at most {@value #MAX_CHOICES}),
 * and every point's options. Its exceptions are {@link IllegalArgumentException}s whose message
 * starts with the option at fault. Immutable and thread-safe once built.
 */
public final class SweepPlan {

    /** The most points one sweep may have. */
    public static final int MAX_CHOICES = 256;

    private final TestOptions base;
    private final SequencedMap<SweepDimension, List<String>> values;

    private SweepPlan(TestOptions base, SequencedMap<SweepDimension, List<String>> values) {
        this.base = base;
        this.values = values;
    }

    /** A plan against the peer named by {@code base.serverHost()}. */
    public static Builder builder(TestOptions base) {
        return new Builder(base);
    }

    /** The options every point starts from. */
    public TestOptions base() {
        return base;
    }

    /** The swept dimensions and their canonical values, in nesting order. */
    public SequencedMap<SweepDimension, List<String>> values() {
        return values;
    }

    /** The swept dimensions' names ({@link SweepDimension#key()}), in nesting order. */
    public List<String> dimensionNames() {
        return values.sequencedKeySet().stream().map(SweepDimension::key).toList();
    }

    /** The number of points. */
    public int size() {
        int n = 1;
        for (List<String> v : values.values()) {
            n *= v.size();
        }
        return n;
    }

    /** The points without looking up source addresses (no device is touched). */
    public List<SweepChoice> choices() {
        return expand(SourceLocator.NONE).choices();
    }

    /**
     * The points, with each source address looked up by {@code locator} to set the device, port
     * and GID index that carry it (where the user did not choose them).
     *
     * @return the points, and one note per source that was not found or sits on another device
     *     than the point's
     */
    public Expansion expand(SourceLocator locator) {
        Objects.requireNonNull(locator, "locator");
        Map<String, Optional<SourceLocation>> located = new LinkedHashMap<>();
        Map<String, Integer> notes = new LinkedHashMap<>();
        List<SweepChoice> out = new ArrayList<>(size());
        List<SweepDimension> dims = List.copyOf(values.sequencedKeySet());
        int[] at = new int[dims.size()];
        for (int index = 0; index < size(); index++) {
            SequencedMap<String, String> labels = new LinkedHashMap<>();
            Map<SweepDimension, String> point = new EnumMap<>(SweepDimension.class);
            for (int d = 0; d < dims.size(); d++) {
                String v = values.get(dims.get(d)).get(at[d]);
                labels.put(dims.get(d).key(), v);
                point.put(dims.get(d), v);
            }
            String source = point.get(SweepDimension.SOURCE);
            Optional<SourceLocation> location = source == null ? Optional.empty()
                    : located.computeIfAbsent(source, s -> locate(locator, s));
            TestOptions.Builder b = options(point);
            Optional<String> peer = Optional.ofNullable(point.get(SweepDimension.RAIL)).map(SweepDimension::railPeer);
            if (source != null && locator != SourceLocator.NONE) {
                applyLocation(b, point, source, location).ifPresent(n -> notes.putIfAbsent(n, out.size()));
            }
            out.add(new SweepChoice(index, labels, b.build(), peer));
            for (int d = dims.size() - 1; d >= 0; d--) {
                if (++at[d] < values.get(dims.get(d)).size()) {
                    break;
                }
                at[d] = 0;
            }
        }
        List<Note> noteList = new ArrayList<>();
        notes.forEach((text, index) -> noteList.add(new Note(index, text)));
        return new Expansion(out, noteList);
    }

    private static Optional<SourceLocation> locate(SourceLocator locator, String source) {
        try {
            return locator.locate(SweepDimension.literal(source));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The device this point asked for explicitly (rail or -d), else null. */
    private String chosenDevice(Map<SweepDimension, String> point) {
        String rail = point.get(SweepDimension.RAIL);
        return rail != null ? SweepDimension.railDevice(rail) : base.target().device();
    }

    /** Sets the device and GID that carry the source, where not chosen; a note when that cannot be done. */
    private Optional<String> applyLocation(TestOptions.Builder b, Map<SweepDimension, String> point, String source,
                                           Optional<SourceLocation> location) {
        String device = chosenDevice(point);
        boolean gidChosen = point.containsKey(SweepDimension.GID) || base.target().gidIndex() >= 0;
        if (location.isEmpty()) {
            return Optional.of("source " + source + " is the address of no RDMA GID here: its choices run on "
                    + (device != null ? device : "the first device") + " (check `jperf devices -v`)");
        }
        SourceLocation l = location.get();
        if (device == null) {
            b.device(l.device()).ibPort(l.port());
        } else if (!device.equals(l.device())) {
            return Optional.of("source " + source + " is on " + l.device() + " (GID " + l.gidIndex() + "), but "
                    + (point.containsKey(SweepDimension.RAIL) ? "the rail" : "-d") + " chose " + device
                    + ": those choices run on " + device + " as asked");
        }
        if (!gidChosen) {
            b.gidIndex(l.gidIndex());
        }
        return Optional.empty();
    }

    /** The builder of one point's options (before any source lookup). */
    private TestOptions.Builder options(Map<SweepDimension, String> point) {
        TestOptions.Builder b = base.toBuilder();
        point.forEach((dim, v) -> {
            switch (dim) {
                case RAIL -> b.device(SweepDimension.railDevice(v));
                case SOURCE -> b.bindSourceIp(v);
                case GID -> b.gidIndex(Integer.parseInt(v));
                case RDMA_CM -> b.rdmaCm(v.equals("on"));
                case TCLASS -> b.trafficClass(Integer.parseInt(v));
                case SIZE -> b.size(SizeParser.parse(v));
            }
        });
        return b;
    }

    /**
     * Something the source lookup found worth saying.
     *
     * @param choice the index of the first choice it concerns
     * @param text   one line, e.g. "source 10.0.0.9 is the address of no RDMA GID here: ..."
     */
    public record Note(int choice, String text) {
        public Note {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * The points of a plan and what the source lookups found worth saying.
     *
     * @param choices the points, in order
     * @param notes   one per source address not found here, or found on another device than its points'
     */
    public record Expansion(List<SweepChoice> choices, List<Note> notes) {
        public Expansion {
            choices = List.copyOf(choices);
            notes = List.copyOf(notes);
        }
    }

    /** Where a source address lives in this host's GID tables. */
    public record SourceLocation(String device, int port, int gidIndex) {
        public SourceLocation {
            Objects.requireNonNull(device, "device");
        }
    }

    /** Looks up which device, port and GID carry an address. */
    @FunctionalInterface
    public interface SourceLocator {
        /** Looks nothing up: points keep -d/-x (or the engine's defaults). */
        SourceLocator NONE = address -> Optional.empty();

        Optional<SourceLocation> locate(InetAddress address);

        /** This host's devices ({@link GidLocation}); empty when RDMA is unavailable here. */
        static SourceLocator live() {
            return address -> {
                try {
                    return GidLocation.of(address).map(l -> new SourceLocation(l.device().name(), l.port().number(),
                            l.gid().index()));
                } catch (RdmaUnavailableException | RdmaException e) {
                    return Optional.empty();
                }
            };
        }
    }

    /** Collects the base options and the dimension values. Not thread-safe. */
    public static final class Builder {
        private final TestOptions base;
        private final Map<SweepDimension, List<String>> raw = new EnumMap<>(SweepDimension.class);

        private Builder(TestOptions base) {
            this.base = Objects.requireNonNull(base, "base");
        }

        /**
         * Sweeps {@code dimension} over {@code texts} (each checked by {@link SweepDimension#canonical}).
         * A null list leaves the dimension out; an empty one is an error at {@link #build()}.
         */
        public Builder values(SweepDimension dimension, List<String> texts) {
            Objects.requireNonNull(dimension, "dimension");
            if (texts == null) {
                raw.remove(dimension);
            } else {
                raw.put(dimension, new ArrayList<>(texts));
            }
            return this;
        }

        /**
         * Checks the values and every point's options.
         *
         * @throws IllegalArgumentException naming the option: an empty list, a bad or repeated value, a
         *     conflict with the base options ({@code -d} with rails, {@code --bind_source_ip} with
         *     sources, {@code -x} with GID indexes, a non-zero {@code --tclass} with traffic classes,
         *     {@code -a} with sizes; rdma_cm overrides {@code -R}), too many points, or a point whose
         *     options are invalid (e.g. {@code -T} on an rdma_cm=off point)
         */
        public SweepPlan build() {
            if (base.target().serverHost() == null) {
                throw new IllegalArgumentException("PEER: a sweep runs against one `jperf serve` peer; give its host");
            }
            if (base.target().loopback()) {
                throw new IllegalArgumentException("--loopback: a sweep runs against a `jperf serve` peer");
            }
            SequencedMap<SweepDimension, List<String>> values = new LinkedHashMap<>();
            for (SweepDimension dim : SweepDimension.values()) {
                List<String> texts = raw.get(dim);
                if (texts == null) {
                    continue;
                }
                if (texts.isEmpty()) {
                    throw new IllegalArgumentException(dim.option() + ": give at least one value (" + dim.valueLabel()
                            + ",...)");
                }
                conflict(dim);
                LinkedHashSet<String> seen = new LinkedHashSet<>();
                for (String t : texts) {
                    String c = dim.canonical(t);
                    if (!seen.add(c)) {
                        throw new IllegalArgumentException(dim.option() + ": '" + t.strip() + "' is given twice"
                                + (c.equals(t.strip()) ? "" : " (as " + c + ")"));
                    }
                }
                values.put(dim, List.copyOf(seen));
            }
            long n = values.values().stream().mapToLong(List::size).reduce(1, Math::multiplyExact);
            if (n > MAX_CHOICES) {
                throw new IllegalArgumentException(String.join(" x ", values.sequencedKeySet().stream()
                        .map(d -> d.option() + " " + values.get(d).size()).toList()) + " = " + n
                        + " choices; a sweep runs at most " + MAX_CHOICES + ": sweep fewer values at once");
            }
            SweepPlan plan = new SweepPlan(base, Collections.unmodifiableSequencedMap(values));
            try {
                plan.choices();
            } catch (OptionsException e) {
                throw new IllegalArgumentException(failingPoint(plan) + e.getMessage(), e);
            }
            return plan;
        }

        /** Names the first point whose options are invalid, e.g. {@code "point rdma_cm=off: "}. */
        private static String failingPoint(SweepPlan plan) {
            List<SweepDimension> dims = List.copyOf(plan.values.sequencedKeySet());
            for (int index = 0, n = plan.size(); index < n; index++) {
                Map<SweepDimension, String> point = new EnumMap<>(SweepDimension.class);
                SequencedMap<String, String> labels = new LinkedHashMap<>();
                int rest = index;
                for (int d = dims.size() - 1; d >= 0; d--) {
                    List<String> v = plan.values.get(dims.get(d));
                    point.put(dims.get(d), v.get(rest % v.size()));
                    rest /= v.size();
                }
                point.forEach((k, v) -> labels.put(k.key(), v));
                try {
                    plan.options(point).build();
                } catch (OptionsException e) {
                    return "choice " + new SweepChoice(index, labels, plan.base, Optional.empty()).label() + ": ";
                }
            }
            return "";
        }

        private void conflict(SweepDimension dim) {
            String clash = switch (dim) {
                case RAIL -> base.target().device() != null ? "-d" : null;
                case SOURCE -> base.target().bindSourceIp() != null ? "--bind_source_ip" : null;
                case GID -> base.target().gidIndex() >= 0 ? "-x" : null;
                case RDMA_CM -> null; // overrides -R: a base with -R may carry -T, which the "on" choices keep
                case TCLASS -> base.params().trafficClass() != 0 ? "--tclass" : null;
                case SIZE -> base.params().allSizes() ? "-a" : null;
            };
            if (clash != null) {
                throw new IllegalArgumentException(dim.option() + " sets what " + clash + " sets, for each choice:"
                        + " give one of them");
            }
        }
    }
}
