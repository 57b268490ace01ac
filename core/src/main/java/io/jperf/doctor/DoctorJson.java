package io.jperf.doctor;

import io.jperf.report.JsonWriter;

import java.util.List;
import java.util.Map;

/**
 * The report as one JSON document with the same content as the text: per layer, each check's
 * subject, stable name, failure class, status, summary, evidence, finding name and fix, then the
 * counts and the exit code.
 *
 * <pre>{@code
 * {"jperf_doctor": 1, "host": "a", "device": null, "peer": "10.20.0.2",
 *  "layers": [{"layer": "link", "title": "...", "checks": [{"subject": "rail0", "check": "netdev-state",
 *    "id": "F6", "status": "PASS", "summary": "...", "evidence": {"local.netdev": "rail0", ...},
 *    "finding": "netdev-down", "fix": ""}, ...]}, ...],
 *  "summary": {"pass": 30, "warn": 0, "fail": 0, "skip": 6, "exit_code": 0}}
 * }</pre>
 */
public final class DoctorJson {
    /** The document's format version. */
    public static final int FORMAT = 1;

    private DoctorJson() {
    }

    public static String render(DoctorReport report) {
        JsonWriter w = new JsonWriter();
        w.beginObject().field("jperf_doctor", FORMAT).field("host", report.host());
        w.name("device");
        report.device().ifPresentOrElse(w::value, w::nullValue);
        w.name("peer");
        report.peer().ifPresentOrElse(w::value, w::nullValue);
        w.name("layers").beginArray();
        for (Layer layer : Layer.values()) {
            List<Check> checks = report.layer(layer);
            if (checks.isEmpty()) {
                continue;
            }
            w.beginObject().field("layer", layer.key()).field("title", layer.title());
            w.name("checks").beginArray();
            for (Check c : checks) {
                w.beginObject().field("subject", c.subject()).field("check", c.name()).field("id", c.result().id())
                        .field("status", c.status().name()).field("summary", c.result().summary());
                w.name("evidence").beginObject();
                for (Map.Entry<String, String> e : c.result().evidence().entrySet()) {
                    w.field(e.getKey(), e.getValue());
                }
                w.endObject();
                w.field("finding", c.result().finding()).field("fix", c.result().fixHint()).endObject();
            }
            w.endArray().endObject();
        }
        w.endArray();
        w.name("summary").beginObject().field("pass", report.count(Status.PASS)).field("warn", report.count(Status.WARN))
                .field("fail", report.count(Status.FAIL)).field("skip", report.count(Status.SKIP))
                .field("exit_code", report.exitCode()).endObject();
        return w.endObject().toJson();
    }
}
