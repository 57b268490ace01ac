package io.jperf.options;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a test reports its results on this side: the one-number output mode and the report files. Nothing here
 * is exchanged with the peer or changes what is measured ({@code --report_gbits}, which perftest marks
 * symmetric and exchanges, is a {@link TestParameters} value). The printer-only flags ({@code -H}, {@code -U},
 * {@code --report-both}, {@code -W}, {@code --cpu_util}) belong to the command line, not to the test.
 * The canonical constructor checks every invariant of these values alone, so an instance is always valid.
 * Immutable and thread-safe.
 *
 * @param outputMode {@code --output}: print only one number
 * @param json {@code --out_json}: write a JSON report
 * @param jsonFile {@code --out_json_file}: where to write it (non-null exactly when {@code json})
 * @param csvFile where to write a CSV report; null = none
 * @param hlogFile where to write an HdrHistogram log of latency samples; null = none
 */
public record OutputOptions(OutputMode outputMode, boolean json, Path jsonFile, Path csvFile, Path hlogFile) {

    /** perftest's default JSON file name. */
    public static final Path DEFAULT_JSON_FILE = Path.of("perftest_out.json");

    /** perftest's default: the full text report, no files. */
    public static final OutputOptions DEFAULT = new OutputOptions(OutputMode.NONE, false, null, null, null);

    /** Checks every invariant; failures name the perftest flag and what is allowed. */
    public OutputOptions {
        Objects.requireNonNull(outputMode, "outputMode");
        OptionsValidator.validateOutput(json, jsonFile);
    }
}
