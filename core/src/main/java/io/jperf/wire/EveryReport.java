package io.jperf.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every size's bandwidth report, as two jperf ends exchange them at the end of a unidirectional
 * {@code -a} run (perftest's protocol carries only the last size's report, so a perftest server can
 * only print and save that one). Travels as jperf extension fields, {@code report.N} =
 * {@code size,iterations,peak,average,messageRate} (Java's exact decimal form of each double).
 * Both ends advertise {@link #FIELD} in their parameter exchange; the exchange runs only when both did.
 *
 * <p>Stateless.
 */
public final class EveryReport {
    /** The extension field by which a jperf end says it takes part in the exchange. */
    public static final String FIELD = "bw.every_report";
    private static final String PREFIX = "report.";
    /** -a has 23 sizes; the extension message holds at most {@link JperfExtension#MAX_FIELDS}. */
    static final int MAX_REPORTS = 64;

    private EveryReport() {
    }

    static Map<String, String> encode(List<BwReport> reports) {
        if (reports.size() > MAX_REPORTS) {
            throw new IllegalArgumentException("at most " + MAX_REPORTS + " reports (got " + reports.size() + ")");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < reports.size(); i++) {
            BwReport r = reports.get(i);
            fields.put(PREFIX + i, r.size() + "," + r.iterations() + "," + r.peak() + "," + r.average() + ","
                    + r.messageRate());
        }
        return fields;
    }

    /**
     * The peer's reports in order.
     *
     * @throws ProtocolException naming the first field that is not a report of non-negative finite figures
     */
    static List<BwReport> decode(Map<String, String> fields) throws ProtocolException {
        List<BwReport> reports = new ArrayList<>();
        for (int i = 0; fields.containsKey(PREFIX + i); i++) {
            if (i == MAX_REPORTS) {
                throw new ProtocolException("the peer sent more than " + MAX_REPORTS + " bandwidth reports");
            }
            String value = fields.get(PREFIX + i);
            String[] parts = value.split(",", -1);
            try {
                if (parts.length != 5) {
                    throw new NumberFormatException("5 figures expected");
                }
                long size = Long.parseLong(parts[0]);
                long iterations = Long.parseLong(parts[1]);
                double peak = figure(parts[2]);
                double average = figure(parts[3]);
                double rate = figure(parts[4]);
                if (size <= 0 || iterations < 0) {
                    throw new NumberFormatException("size and iterations out of range");
                }
                reports.add(new BwReport(size, iterations, peak, average, rate));
            } catch (NumberFormatException e) {
                throw new ProtocolException("the peer's bandwidth report " + PREFIX + i + " is malformed: '"
                        + PeerText.line(value) + "'");
            }
        }
        if (fields.size() != reports.size()) {
            throw new ProtocolException("the peer's bandwidth reports have gaps or unknown fields ("
                    + fields.size() + " fields, " + reports.size() + " reports in order)");
        }
        return reports;
    }

    private static double figure(String text) {
        double v = Double.parseDouble(text);
        if (!Double.isFinite(v) || v < 0) {
            throw new NumberFormatException("not a finite figure of 0 or more");
        }
        return v;
    }
}
