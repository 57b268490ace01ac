package io.jperf.bench.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The CI gate's checker (run by bench/ci-gate.sh): reads a JMH JSON result and the committed
 * baseline (bench/baseline.json), and fails when the Java data path got slower relative to C,
 * or allocates.
 *
 * <p>A gated benchmark (listed under {@code "gated"} in the baseline, e.g.
 * {@code PostPollBenchmark.javaVsC}) runs a Java loop and its C twin back to back on the same
 * number of WRs in every invocation and reports both times through
 * {@code io.jperf.bench.InterleavedCounters} (JMH secondary results {@code javaMinNs},
 * {@code cMinNs}, {@code chunkWrs}, {@code javaNs}, {@code cNs}, {@code wrs}). For every
 * parameter combination the checker computes {@code ratio = javaMinNs / cMinNs}, the fastest
 * Java chunk over the fastest C chunk of the same run: machine speed cancels out, and
 * preemptions (which only ever add time) do not count. It fails when
 * <ul>
 *   <li>{@code ratio > baseline ratio x ratioFactor + ratioSlack} (the policy in the baseline
 *       file: the factor absorbs noise proportional to the ratio, the slack the absolute jitter
 *       of a few-ns loop on a shared machine), or</li>
 *   <li>any benchmark in the result allocates more than {@code maxAllocBytesPerOp}
 *       ({@code gc.alloc.rate.norm}, JMH {@code -prof gc}; the gate only runs data-path
 *       benchmarks, which must not allocate), or the result has no allocation data, or</li>
 *   <li>a baselined result is missing from the run, or a gated result has no baseline.</li>
 * </ul>
 * Other benchmarks in the result are shown for information; a {@code javaLoop}/{@code
 * cBaseline} pair in the same class is shown with its ratio (measured apart in time, so noisier).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.jperf.bench.gate.GateCheck RESULT.json BASELINE.json
 * java -cp bench/target/benchmarks.jar io.jperf.bench.gate.GateCheck RESULT.json... BASELINE.json --update-baseline
 * </pre>
 * Recording keeps, per entry, the highest ratio of the given runs (each run must be clean).
 * Exit status: 0 pass (or baseline written), 1 regression, 2 bad input.
 */
public final class GateCheck {
    static final String ALLOC = "gc.alloc.rate.norm";
    static final double DEFAULT_FACTOR = 1.5;
    static final double DEFAULT_SLACK = 0.25;
    static final double DEFAULT_MAX_ALLOC = 1.0;
    static final List<String> DEFAULT_GATED = List.of("io.jperf.bench.PostPollBenchmark.javaVsC",
            "io.jperf.bench.BandwidthLoopBenchmark.engineVsC", "io.jperf.bench.LatencyLoopBenchmark.engineVsC");

    private GateCheck() {
    }

    /** One JMH result row. */
    record Row(String benchmark, String params, double score, String unit, double alloc, Map<String, Double> secondary) {
        String shortName() {
            int dot = benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1);
            return benchmark.substring(dot + 1);
        }

        String className() {
            return benchmark.substring(0, benchmark.lastIndexOf('.'));
        }

        String key() {
            return benchmark + "|" + params;
        }

        double counter(String name) {
            Double v = secondary.get(name);
            if (v == null) {
                throw new IllegalArgumentException(benchmark + " [" + params + "] has no secondary result '" + name
                        + "': a gated benchmark must report javaNs, cNs and wrs (@AuxCounters)");
            }
            return v;
        }

        boolean hasMin() {
            return secondary.containsKey("javaMinNs") && secondary.containsKey("cMinNs")
                    && secondary.containsKey("chunkWrs");
        }

        /** Java ns per WR of the fastest chunk (or the mean when the benchmark reports no minimum). */
        double javaNsPerWr() {
            return hasMin() ? counter("javaMinNs") / counter("chunkWrs") : counter("javaNs") / counter("wrs");
        }

        double cNsPerWr() {
            return hasMin() ? counter("cMinNs") / counter("chunkWrs") : counter("cNs") / counter("wrs");
        }

        /** The gated ratio: fastest Java chunk over fastest C chunk (or mean over mean). */
        double ratio() {
            return hasMin() ? counter("javaMinNs") / counter("cMinNs") : meanRatio();
        }

        /** Total Java time over total C time, for information. */
        double meanRatio() {
            return counter("javaNs") / counter("cNs");
        }
    }

    record Policy(double ratioFactor, double ratioSlack, double maxAllocBytesPerOp) {
        double limit(double baselineRatio) {
            return baselineRatio * ratioFactor + ratioSlack;
        }
    }

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("gate: " + e.getMessage());
            System.exit(2);
        }
    }

    static int run(String[] args) throws IOException {
        List<String> positional = new ArrayList<>();
        boolean update = false;
        for (String arg : args) {
            if (arg.equals("--update-baseline")) {
                update = true;
            } else if (arg.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + arg);
            } else {
                positional.add(arg);
            }
        }
        if (positional.size() < 2 || (!update && positional.size() != 2)) {
            throw new IllegalArgumentException("usage: GateCheck <jmh-result.json> <baseline.json>\n"
                    + "       GateCheck <jmh-result.json>... <baseline.json> --update-baseline");
        }
        Path baselineFile = Path.of(positional.getLast());
        List<Path> resultFiles = positional.subList(0, positional.size() - 1).stream().map(Path::of).toList();

        Map<String, Object> baseline;
        if (Files.exists(baselineFile)) {
            baseline = Json.object(Json.parse(Files.readString(baselineFile)), baselineFile.toString());
        } else if (update) {
            baseline = new LinkedHashMap<>();
        } else {
            throw new IllegalArgumentException(baselineFile + " does not exist; create it with bench/ci-gate.sh --update-baseline");
        }
        Policy policy = policy(baseline);
        List<String> gated = gated(baseline);
        Map<String, Double> baseRatios = baselineRatios(baseline);
        System.out.printf(Locale.ROOT, "%npolicy (%s): fail when ratio > baseline x %.2f + %.2f, or when a benchmark"
                + " allocates > %.2f B/op%n", baselineFile, policy.ratioFactor(), policy.ratioSlack(),
                policy.maxAllocBytesPerOp());

        if (!update) {
            Path resultFile = resultFiles.getFirst();
            List<String> failures = check(readResult(resultFile), resultFile, baselineFile, policy, gated, baseRatios,
                    false);
            if (failures.isEmpty()) {
                System.out.println("gate: PASS (every ratio within its limit, no allocation)");
                return 0;
            }
            System.out.println("gate: FAIL, " + failures.size() + " problem(s):");
            failures.forEach(f -> System.out.println("  - " + f));
            System.out.println("If the change is intended (or the CI machine changed), refresh the baseline with"
                    + " bench/ci-gate.sh --update-baseline and commit bench/baseline.json.");
            return 1;
        }

        // Update: every run must be clean; per entry keep the highest ratio of the runs (a baseline
        // caught on a lucky, too-fast moment would make the gate fail later for nothing).
        Map<String, Row> chosen = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        for (Path resultFile : resultFiles) {
            List<Row> rows = readResult(resultFile);
            failures.addAll(check(rows, resultFile, baselineFile, policy, gated, baseRatios, true));
            for (Row r : rows) {
                if (gated.contains(r.benchmark())) {
                    Row before = chosen.get(r.key());
                    if (before != null && Math.max(before.ratio(), r.ratio()) > 1.25 * Math.min(before.ratio(), r.ratio())) {
                        System.out.printf(Locale.ROOT, "gate: note: %s [%s] differs between runs (%.2f vs %.2f):"
                                + " the machine is noisy; consider re-recording when it is idle%n", r.shortName(),
                                r.params(), before.ratio(), r.ratio());
                    }
                    if (before == null || r.ratio() > before.ratio()) {
                        chosen.put(r.key(), r);
                    }
                }
            }
        }
        if (!failures.isEmpty() || chosen.isEmpty()) {
            System.out.println("gate: baseline NOT updated:");
            failures.forEach(f -> System.out.println("  - " + f));
            if (chosen.isEmpty()) {
                System.out.println("  - no result of a gated benchmark " + gated);
            }
            return 1;
        }
        writeBaseline(baselineFile, policy, gated, List.copyOf(chosen.values()), resultFiles);
        System.out.println("gate: wrote " + baselineFile + " with " + chosen.size() + " ratios (the highest of "
                + resultFiles.size() + " run(s) each); review and commit it.");
        return 0;
    }

    /** Prints the tables for one run and returns its problems (only allocation problems when recording). */
    private static List<String> check(List<Row> rows, Path resultFile, Path baselineFile, Policy policy,
                                      List<String> gated, Map<String, Double> baseRatios, boolean update) {
        List<Row> gatedRows = rows.stream().filter(r -> gated.contains(r.benchmark())).toList();
        List<String> failures = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%njperf bench gate: Java vs C per WR on the C stub provider, interleaved in the"
                + " same JMH run (%s)%n%n", resultFile);
        System.out.printf(Locale.ROOT, "%-33s %-22s %11s %9s %7s %9s %7s %10s %9s  %s%n", "gated benchmark", "params",
                "java ns/WR", "C ns/WR", "ratio", "baseline", "limit", "mean ratio", "B/op", "result");
        for (Row r : gatedRows) {
            double ratio = r.ratio();
            Double base = baseRatios.get(r.key());
            String verdict;
            String baseText = "-";
            String limitText = "-";
            if (base == null) {
                verdict = update ? "new" : "NO BASELINE";
                if (!update) {
                    failures.add(String.format(Locale.ROOT, "%s [%s]: no baseline ratio in %s (a new benchmark or"
                            + " parameter?). Record one with bench/ci-gate.sh --update-baseline and commit it.",
                            r.shortName(), r.params(), baselineFile));
                }
            } else {
                double limit = policy.limit(base);
                baseText = String.format(Locale.ROOT, "%.2f", base);
                limitText = String.format(Locale.ROOT, "%.2f", limit);
                if (update) {
                    verdict = "measured";
                } else if (ratio > limit) {
                    verdict = "SLOWER";
                    failures.add(String.format(Locale.ROOT, "%s [%s]: ratio %.2f (Java %.2f ns/WR / C %.2f ns/WR)"
                            + " is above the limit %.2f (baseline ratio %.2f x %.2f + %.2f): the Java data path is"
                            + " %.0f%% slower relative to C than in the baseline.", r.shortName(), r.params(), ratio,
                            r.javaNsPerWr(), r.cNsPerWr(), limit, base, policy.ratioFactor(), policy.ratioSlack(),
                            (ratio / base - 1) * 100));
                } else {
                    verdict = "ok";
                }
            }
            System.out.printf(Locale.ROOT, "%-33s %-22s %11.2f %9.2f %7.2f %9s %7s %10.2f %9.3f  %s%n", r.shortName(),
                    r.params(), r.javaNsPerWr(), r.cNsPerWr(), ratio, baseText, limitText, r.meanRatio(), r.alloc(),
                    verdict);
        }
        if (gatedRows.isEmpty()) {
            failures.add("no result of a gated benchmark " + gated + " in " + resultFile);
        }
        if (!update) {
            for (String key : baseRatios.keySet()) {
                if (gatedRows.stream().noneMatch(r -> r.key().equals(key))) {
                    failures.add(key.replace('|', ' ') + ": in the baseline but not in this run (did the benchmark"
                            + " fail? see the JMH output above)");
                }
            }
        }

        List<Row> others = rows.stream().filter(r -> !gated.contains(r.benchmark())).toList();
        if (!others.isEmpty()) {
            System.out.printf(Locale.ROOT, "%n%-33s %-22s %11s %9s  %s%n", "also measured (not gated)", "params",
                    "ns/op", "B/op", "javaLoop/cBaseline");
            for (Row r : others) {
                String ratio = "";
                if (r.benchmark().endsWith(".javaLoop")) {
                    Optional<Row> c = find(rows, r.className() + ".cBaseline", r.params());
                    ratio = c.map(x -> String.format(Locale.ROOT, "%.2f", r.score() / x.score())).orElse("");
                }
                System.out.printf(Locale.ROOT, "%-33s %-22s %11.2f %9.3f  %s%n", r.shortName(), r.params(), r.score(),
                        r.alloc(), ratio);
            }
        }
        for (Row r : rows) {
            if (Double.isNaN(r.alloc())) {
                failures.add(r.shortName() + " [" + r.params() + "]: no " + ALLOC + " in the result: run JMH with -prof gc");
            } else if (r.alloc() > policy.maxAllocBytesPerOp()) {
                failures.add(String.format(Locale.ROOT, "%s [%s]: allocates %.2f B/op (%s), the limit is %.2f B/op:"
                        + " the data path must not allocate.", r.shortName(), r.params(), r.alloc(), ALLOC,
                        policy.maxAllocBytesPerOp()));
            }
        }
        System.out.println();
        return failures;
    }

    private static Optional<Row> find(List<Row> rows, String benchmark, String params) {
        return rows.stream().filter(r -> r.benchmark().equals(benchmark) && r.params().equals(params)).findFirst();
    }

    static List<Row> readResult(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IllegalArgumentException(file + " does not exist (did JMH run with -rf json -rff " + file + "?)");
        }
        List<Row> rows = new ArrayList<>();
        for (Object o : Json.array(Json.parse(Files.readString(file)), file.toString())) {
            Map<String, Object> entry = Json.object(o, "result entry");
            String benchmark = (String) entry.get("benchmark");
            Map<String, String> params = new TreeMap<>();
            if (entry.get("params") instanceof Map<?, ?> p) {
                p.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
            }
            Map<String, Object> primary = Json.object(entry.get("primaryMetric"), benchmark + " primaryMetric");
            Map<String, Double> secondary = new TreeMap<>();
            if (entry.get("secondaryMetrics") instanceof Map<?, ?> metrics) {
                metrics.forEach((k, v) -> {
                    if (v instanceof Map<?, ?> metric) {
                        secondary.put(String.valueOf(k), Json.number(metric.get("score"), benchmark + " " + k));
                    }
                });
            }
            rows.add(new Row(benchmark, paramsText(params), Json.number(primary.get("score"), benchmark + " score"),
                    String.valueOf(primary.get("scoreUnit")), secondary.getOrDefault(ALLOC, Double.NaN), secondary));
        }
        return rows;
    }

    /** "postList=1 cqMod=1": JMH sorts params by name; postList first reads better. */
    static String paramsText(Map<String, String> params) {
        List<String> parts = new ArrayList<>();
        if (params.containsKey("postList")) {
            parts.add("postList=" + params.get("postList"));
        }
        params.forEach((k, v) -> {
            if (!k.equals("postList")) {
                parts.add(k + "=" + v);
            }
        });
        return String.join(" ", parts);
    }

    static Policy policy(Map<String, Object> baseline) {
        if (!(baseline.get("policy") instanceof Map<?, ?> p)) {
            return new Policy(DEFAULT_FACTOR, DEFAULT_SLACK, DEFAULT_MAX_ALLOC);
        }
        Map<String, Object> policy = Json.object(p, "policy");
        return new Policy(
                policy.containsKey("ratioFactor") ? Json.number(policy.get("ratioFactor"), "ratioFactor") : DEFAULT_FACTOR,
                policy.containsKey("ratioSlack") ? Json.number(policy.get("ratioSlack"), "ratioSlack") : DEFAULT_SLACK,
                policy.containsKey("maxAllocBytesPerOp")
                        ? Json.number(policy.get("maxAllocBytesPerOp"), "maxAllocBytesPerOp") : DEFAULT_MAX_ALLOC);
    }

    static List<String> gated(Map<String, Object> baseline) {
        List<String> gated = new ArrayList<>();
        if (baseline.get("gated") instanceof List<?> list) {
            list.forEach(o -> gated.add(String.valueOf(o)));
        }
        if (gated.isEmpty()) {
            gated.addAll(DEFAULT_GATED);
        }
        return gated;
    }

    static Map<String, Double> baselineRatios(Map<String, Object> baseline) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        if (baseline.get("entries") instanceof List<?> list) {
            for (Object o : list) {
                Map<String, Object> entry = Json.object(o, "entries entry");
                ratios.put(entry.get("benchmark") + "|" + entry.get("params"), Json.number(entry.get("ratio"), "ratio"));
            }
        }
        return ratios;
    }

    static void writeBaseline(Path file, Policy policy, List<String> gated, List<Row> rows, List<Path> resultFiles)
            throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("{\n");
        out.append("  \"about\": ").append(Json.quote("jperf bench CI gate baseline: for each gated benchmark and"
                + " parameters, the ratio of Java to C time per WR on the C stub provider (fastest chunk of each, both"
                + " loops interleaved in the same JMH run), the highest of the recording runs. Written by"
                + " bench/ci-gate.sh --update-baseline; see bench/README.md.")).append(",\n");
        out.append(String.format(Locale.ROOT, "  \"policy\": {\"ratioFactor\": %s, \"ratioSlack\": %s,"
                        + " \"maxAllocBytesPerOp\": %s},%n", num(policy.ratioFactor()), num(policy.ratioSlack()),
                num(policy.maxAllocBytesPerOp())));
        out.append("  \"gated\": [");
        for (int i = 0; i < gated.size(); i++) {
            out.append(i > 0 ? ", " : "").append(Json.quote(gated.get(i)));
        }
        out.append("],\n");
        out.append("  \"recorded\": {\"at\": ").append(Json.quote(Instant.now().toString()))
                .append(", \"java\": ").append(Json.quote(System.getProperty("java.vm.version", "?")))
                .append(", \"cpus\": ").append(Runtime.getRuntime().availableProcessors())
                .append(", \"os\": ").append(Json.quote(System.getProperty("os.name") + " " + System.getProperty("os.arch")))
                .append(", \"from\": ").append(Json.quote(resultFiles.toString())).append("},\n");
        out.append("  \"entries\": [\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            out.append(String.format(Locale.ROOT, "    {\"benchmark\": %s, \"params\": %s, \"ratio\": %s,"
                            + " \"meanRatio\": %s, \"javaNsPerWr\": %s, \"cNsPerWr\": %s, \"allocBytesPerOp\": %s}%s%n",
                    Json.quote(r.benchmark()), Json.quote(r.params()), num(round(r.ratio(), 3)),
                    num(round(r.meanRatio(), 3)), num(round(r.javaNsPerWr(), 2)), num(round(r.cNsPerWr(), 2)), num(round(r.alloc(), 3)),
                    i + 1 < rows.size() ? "," : ""));
        }
        out.append("  ]\n}\n");
        Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    }

    private static double round(double v, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(v * scale) / scale;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "\"NaN\"" : (v == Math.rint(v) && Math.abs(v) < 1e15
                ? String.valueOf((long) v) : String.valueOf(v));
    }
}
