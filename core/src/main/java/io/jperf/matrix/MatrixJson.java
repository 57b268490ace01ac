package io.jperf.matrix;

import io.jperf.report.JsonWriter;

/**
 * The matrix as one JSON document: the run, the figures, the ranked suspects, the bad links and
 * every point that ran (compact: figure, status, verdict ids, error). The points' full path records
 * are in the coordinator's points file (JSON Lines), not here. Stateless.
 */
public final class MatrixJson {
    private MatrixJson() {
    }

    public static String render(MatrixAnalysis a, String title) {
        ResultMatrix m = a.matrix();
        JsonWriter w = new JsonWriter().beginObject();
        w.field("title", title);
        w.name("hosts").beginArray();
        m.hosts().forEach(w::value);
        w.endArray();
        w.name("rails").beginArray();
        m.rails().forEach(w::value);
        w.endArray();
        w.field("rail_mode", m.railMode().label()).field("unit", m.metric().unit())
                .field("higher_is_better", m.metric().higherIsBetter());
        w.field("tests", a.tests()).field("failed", a.failed()).field("median", a.median());
        w.field("threshold", a.threshold() == null ? null : a.threshold().toString()).field("limit", a.limit());
        w.field("threshold_failed", a.failedThreshold());
        w.name("rail_medians").beginObject();
        for (int c = 0; c < m.combinations(); c++) {
            w.field(m.combinationName(c), a.median(c));
        }
        w.endObject();
        w.name("suspects").beginArray();
        for (MatrixAnalysis.Suspect s : a.suspects()) {
            w.beginObject().field("kind", s.kind().name()).field("text", a.describe(s));
            w.name("host").value(s.host() < 0 ? null : m.hosts().get(s.host()));
            w.name("rail").value(s.rail() < 0 ? null : m.rails().get(s.rail()));
            w.name("peer").value(s.peer() < 0 ? null : m.hosts().get(s.peer()));
            w.name("peer_rail").value(s.peerRail() < 0 ? null : m.rails().get(s.peerRail()));
            w.field("bad", s.bad()).field("tests", s.tests()).field("worst", s.worst()).endObject();
        }
        w.endArray();
        w.name("bad_links").beginArray();
        for (MatrixAnalysis.Link l : a.badLinks()) {
            point(w, m, l.combination(), l.client(), l.server());
        }
        w.endArray();
        w.name("points").beginArray();
        for (int c = 0; c < m.combinations(); c++) {
            for (int i = 0; i < m.hosts().size(); i++) {
                for (int j = 0; j < m.hosts().size(); j++) {
                    if (m.status(c, i, j) != ResultMatrix.Status.NONE) {
                        point(w, m, c, i, j);
                    }
                }
            }
        }
        w.endArray();
        return w.endObject().toJson();
    }

    private static void point(JsonWriter w, ResultMatrix m, int c, int client, int server) {
        w.beginObject().field("client", m.hosts().get(client)).field("server", m.hosts().get(server))
                .field("client_rail", m.rails().get(m.clientRail(c))).field("server_rail", m.rails().get(m.serverRail(c)))
                .field("status", m.status(c, client, server).name()).field("value", m.value(c, client, server))
                .field("verdicts", VerdictMask.describe(m.verdicts(c, client, server)));
        w.name("error").value(m.error(c, client, server).orElse(null));
        w.endObject();
    }
}
