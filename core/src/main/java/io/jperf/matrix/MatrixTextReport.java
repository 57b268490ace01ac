package io.jperf.matrix;

import java.util.List;
import java.util.Locale;

/**
 * The matrix as text: the run and its figures, the ranked suspects, the bad links and each rail's
 * median. Stateless.
 */
public final class MatrixTextReport {
    /** Bad links listed one per line; the rest are counted. */
    static final int MAX_LINKS = 50;

    private MatrixTextReport() {
    }

    public static String render(MatrixAnalysis a, String title) {
        ResultMatrix m = a.matrix();
        StringBuilder sb = new StringBuilder();
        sb.append("jperf matrix: ").append(title).append('\n');
        sb.append(String.format(Locale.ROOT, "  %d hosts, %d rail%s (%s), %d tests, %d failed; median %s%n",
                m.hosts().size(), m.rails().size(), m.rails().size() == 1 ? "" : "s", m.railMode().label(),
                a.tests(), a.failed(), Double.isNaN(a.median()) ? "-" : a.figure(a.median())));
        if (a.threshold() != null) {
            sb.append("  threshold: ").append(m.metric().higherIsBetter() ? "below " : "above ").append(a.threshold())
                    .append(Double.isNaN(a.limit()) ? "" : " = " + a.figure(a.limit())).append(" is a bad link\n");
        }
        for (int c = 0; c < m.combinations(); c++) {
            sb.append("  rail ").append(m.combinationName(c)).append(": median ")
                    .append(Double.isNaN(a.median(c)) ? "-" : a.figure(a.median(c))).append('\n');
        }
        List<MatrixAnalysis.Suspect> suspects = a.suspects();
        if (suspects.isEmpty()) {
            sb.append(a.badLinks().isEmpty() ? "\nNo bad links.\n" : "\n");
        } else {
            sb.append("\nSuspects, most likely first:\n");
            for (int i = 0; i < suspects.size(); i++) {
                sb.append(String.format(Locale.ROOT, "  %2d. %-9s %s%n", i + 1, suspects.get(i).kind(),
                        a.describe(suspects.get(i))));
            }
        }
        List<MatrixAnalysis.Link> links = a.badLinks();
        if (!links.isEmpty()) {
            sb.append("\nBad links (").append(links.size()).append("):\n");
            for (int i = 0; i < Math.min(MAX_LINKS, links.size()); i++) {
                MatrixAnalysis.Link l = links.get(i);
                sb.append("  ").append(m.hosts().get(l.client())).append(" -> ").append(m.hosts().get(l.server()))
                        .append(" rail ").append(m.combinationName(l.combination())).append(": ")
                        .append(l.failed() ? "FAILED " + l.error() : a.figure(l.value()));
                String v = VerdictMask.describe(l.verdicts());
                sb.append(v.isEmpty() ? "" : "; path " + v).append('\n');
            }
            if (links.size() > MAX_LINKS) {
                sb.append("  ... and ").append(links.size() - MAX_LINKS).append(" more (all in the JSON)\n");
            }
        }
        sb.append(a.failedThreshold() ? "\nresult: FAIL (" + links.size() + " bad link" + (links.size() == 1 ? "" : "s")
                + ")\n" : "\nresult: PASS\n");
        return sb.toString();
    }
}
