package io.jperf.sweep;

import io.jperf.path.PathJson;
import io.jperf.report.JsonReader;
import io.jperf.report.JsonWriter;
import io.jperf.report.RunInfo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A sweep as one JSON document:
 *
 * <pre>
 * {
 *   "tool": "jperf", "format_version": 1,
 *   "run": {"jperf_version": "0.1.0", "command_line": "jperf sweep write-bw ...", "host": "lab-a"},
 *   "kind": "write-bw", "peer": "10.20.0.2",
 *   "dimensions": ["rail", "size"],
 *   "dimension_values": {"rail": ["rxe0&gt;10.20.0.2", ...], "size": ["4K", "64K"]},
 *   "started": "2025-06-02T09:14:05Z", "elapsed_ms": 9930,
 *   "headline": {"unit": "Gb/s", "higher_is_better": true, "what": "..."},
 *   "counts": {"points": 4, "ran": 4, "failed": 0, "inconsistent": 2},
 *   "best": 1, "worst": 3,
 *   "rows": [{
 *     "index": 0, "label": "rail=rxe0&gt;10.20.0.2 size=4K", "dimensions": {"rail": "...", "size": "4K"},
 *     "peer_address": "10.20.0.2", "ok": true, "headline": 15.72, "error": null, "consistent": true,
 *     "verdicts": [...], "path": "Path: rxe0 port 1 ...", "elapsed_ms": 2480,
 *     "result": { the point's whole write-test JSON document, or null }
 *   }, ...]
 * }
 * </pre>
 *
 * {@code best} and {@code worst} are point indexes, null unless {@link SweepRanking} ranks the
 * points (at least two at one size, further apart than the noise threshold of one run each). Verdicts are written as the write tests write theirs
 * ({@link PathJson#writeVerdicts}). Stateless and thread-safe.
 */
public final class SweepJson {
    /** Version of this document layout; bumped only on incompatible changes. */
    public static final int FORMAT_VERSION = 1;

    private SweepJson() {
    }

    /** The document, ending with a newline, run info of this process. */
    public static String toJson(SweepResult r) {
        return toJson(r, RunInfo.embedded());
    }

    /** The document, ending with a newline, from the run {@code run} (also in each point's result). */
    public static String toJson(SweepResult r, RunInfo run) {
        JsonWriter w = new JsonWriter();
        w.beginObject();
        w.field("tool", "jperf").field("format_version", FORMAT_VERSION);
        run.writeJson(w.name("run"));
        w.field("kind", SweepTextReport.kindName(r));
        w.field("peer", r.peerHost());
        w.name("dimensions").beginArray();
        r.dimensions().forEach(w::value);
        w.endArray();
        w.name("dimension_values").beginObject();
        for (String dim : r.dimensions()) {
            LinkedHashSet<String> values = new LinkedHashSet<>();
            r.rows().forEach(row -> {
                String v = row.choice().dimensions().get(dim);
                if (v != null) {
                    values.add(v);
                }
            });
            w.name(dim).beginArray();
            values.forEach(w::value);
            w.endArray();
        }
        w.endObject();
        w.field("started", r.started().toString());
        w.field("elapsed_ms", r.elapsed().toMillis());
        w.name("headline").beginObject()
                .field("unit", r.headlineUnit())
                .field("higher_is_better", r.higherIsBetter())
                .field("what", r.higherIsBetter() ? "average bandwidth at the row's largest message size"
                        : "typical latency (t_typical) at the row's smallest message size")
                .endObject();
        long ran = r.rows().stream().filter(SweepRow::ok).count();
        w.name("counts").beginObject()
                .field("points", r.rows().size())
                .field("ran", ran)
                .field("failed", r.rows().size() - ran)
                .field("inconsistent", r.rows().stream().filter(row -> !row.consistent()).count())
                .endObject();
        index(w, "best", SweepTextReport.bestPosition(r), r);
        index(w, "worst", SweepTextReport.worstPosition(r), r);
        w.name("rows").beginArray();
        for (SweepRow row : r.rows()) {
            row(w, row, run);
        }
        w.endArray();
        w.endObject();
        return w.toJson();
    }

    private static void index(JsonWriter w, String name, OptionalInt position, SweepResult r) {
        w.name(name);
        if (position.isPresent()) {
            w.value(r.rows().get(position.getAsInt()).choice().index());
        } else {
            w.nullValue();
        }
    }

    private static void row(JsonWriter w, SweepRow row, RunInfo run) {
        w.beginObject();
        w.field("index", row.choice().index());
        w.field("label", row.choice().label());
        w.name("dimensions").beginObject();
        row.choice().dimensions().forEach(w::field);
        w.endObject();
        w.field("peer_address", row.choice().peerAddress().orElse(null));
        w.field("ok", row.ok());
        w.name("headline");
        if (row.headline().isPresent()) {
            w.value(row.headline().getAsDouble());
        } else {
            w.nullValue();
        }
        w.field("error", row.error().orElse(null));
        w.field("consistent", row.consistent());
        w.name("verdicts");
        PathJson.writeVerdicts(w, row.verdicts());
        w.field("path", row.path().orElse(null));
        w.field("elapsed_ms", row.elapsed().toMillis());
        w.name("result");
        if (row.result().isPresent()) {
            raw(w, JsonReader.parse(row.result().get().toJson(run), JsonReader.DEFAULT_MAX_DEPTH, Integer.MAX_VALUE));
        } else {
            w.nullValue();
        }
        w.endObject();
    }

    /** Writes a value parsed by {@link JsonReader} back out (the result's own document, embedded). */
    @SuppressWarnings("unchecked")
    private static void raw(JsonWriter w, Object value) {
        switch (value) {
            case null -> w.nullValue();
            case Map<?, ?> m -> {
                w.beginObject();
                for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
                    raw(w.name(e.getKey()), e.getValue());
                }
                w.endObject();
            }
            case List<?> l -> {
                w.beginArray();
                for (Object o : new ArrayList<>(l)) {
                    raw(w, o);
                }
                w.endArray();
            }
            case String s -> w.value(s);
            case Long n -> w.value(n.longValue());
            case Double d -> w.value(d.doubleValue());
            case Boolean b -> w.value(b.booleanValue());
            default -> throw new IllegalStateException("unexpected JSON value " + value.getClass());
        }
    }
}
