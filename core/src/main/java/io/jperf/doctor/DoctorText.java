package io.jperf.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The report as text a person reads at a glance: one heading per layer, one line per check with
 * its verdict in an aligned column, the values it read under it, and the fix under a finding.
 * Colour (ANSI) only when asked, i.e. on a terminal.
 */
public final class DoctorText {
    private static final int WIDTH = 100;
    private static final String INDENT = "        ";
    private static final String RESET = "\u001b[0m";

    private DoctorText() {
    }

    /**
     * @param colour colour the verdicts (for a terminal)
     */
    public static String render(DoctorReport report, boolean colour) {
        StringBuilder sb = new StringBuilder();
        sb.append("jperf doctor on ").append(report.host()).append(": ")
                .append(report.device().map(d -> "device " + d).orElse("all devices"))
                .append(report.peer().map(p -> ", peer " + p).orElse(", no peer")).append('\n');
        int subjectWidth = report.checks().stream().mapToInt(c -> c.subject().length()).max().orElse(1);
        int nameWidth = report.checks().stream().mapToInt(c -> c.name().length()).max().orElse(1);
        for (Layer layer : Layer.values()) {
            List<Check> checks = report.layer(layer);
            if (checks.isEmpty()) {
                continue;
            }
            sb.append('\n').append(heading(layer, checks, colour)).append('\n');
            for (Check c : checks) {
                sb.append("  ").append(verdict(c.status(), colour)).append("  ")
                        .append(pad(c.subject(), subjectWidth)).append("  ").append(pad(c.name(), nameWidth)).append("  ")
                        .append(c.result().summary()).append('\n');
                for (String line : wrap(evidence(c.result().evidence()), WIDTH - INDENT.length())) {
                    sb.append(INDENT).append(dim(line, colour)).append('\n');
                }
                if (c.status() == Status.WARN || c.status() == Status.FAIL) {
                    for (String line : wrap("fix: " + c.result().fixHint(), WIDTH - INDENT.length())) {
                        sb.append(INDENT).append(line).append('\n');
                    }
                }
            }
        }
        sb.append('\n').append(summary(report, colour)).append('\n');
        return sb.toString();
    }

    /** {@code 12 pass, 1 warn, 2 fail, 4 skip: exit 2 (failures)}. */
    public static String summary(DoctorReport report, boolean colour) {
        String exit = switch (report.exitCode()) {
            case DoctorReport.EXIT_FAIL -> "exit 2 (failures)";
            case DoctorReport.EXIT_WARN -> "exit 1 (warnings)";
            default -> "exit 0 (all passed)";
        };
        return "summary: " + report.count(Status.PASS) + " pass, " + paint(report.count(Status.WARN) + " warn",
                report.count(Status.WARN) > 0 ? Status.WARN : null, colour) + ", "
                + paint(report.count(Status.FAIL) + " fail", report.count(Status.FAIL) > 0 ? Status.FAIL : null, colour)
                + ", " + report.count(Status.SKIP) + " skip: " + exit;
    }

    private static String heading(Layer layer, List<Check> checks, boolean colour) {
        Status worst = checks.stream().map(Check::status).filter(s -> s == Status.FAIL).findAny()
                .or(() -> checks.stream().map(Check::status).filter(s -> s == Status.WARN).findAny())
                .orElse(Status.PASS);
        String title = "== " + layer.title();
        return colour ? "\u001b[1m" + title + RESET + (worst == Status.PASS ? "" : "  " + verdict(worst, true)) : title;
    }

    private static String verdict(Status s, boolean colour) {
        return paint(pad(s.name(), 4), s, colour);
    }

    private static String paint(String text, Status s, boolean colour) {
        if (!colour || s == null) {
            return text;
        }
        String code = switch (s) {
            case PASS -> "\u001b[32m";
            case WARN -> "\u001b[33m";
            case FAIL -> "\u001b[31;1m";
            case SKIP -> "\u001b[2m";
        };
        return code + text + RESET;
    }

    private static String dim(String text, boolean colour) {
        return colour ? "\u001b[2m" + text + RESET : text;
    }

    private static String evidence(Map<String, String> evidence) {
        List<String> parts = new ArrayList<>();
        evidence.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(" ", parts);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    /** Breaks at spaces so no line is longer than {@code width}, unless one word is. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        if (text.isEmpty()) {
            return lines;
        }
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
