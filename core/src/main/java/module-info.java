/**
 * jperf's engine as a library: the verbs resource model ({@code io.jperf.verbs}), the RDMA CM
 * ({@code io.jperf.cm}), the test engines ({@code io.jperf.engine}), the perftest wire protocol, the path
 * record, and the results and reports.
 *
 * <p>This module calls no restricted method itself (core's {@code NoRestrictedCallsTest} checks its classes):
 * the native calls are in {@code io.jperf.ffi}, the only module to grant native access to, e.g.
 * {@code java --enable-native-access=io.jperf.ffi -p ... -m app}. Its public API exposes
 * {@link io.jperf.JperfException} (io.jperf.ffi) and HdrHistogram's {@code Histogram}, so it requires both
 * transitively.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // HdrHistogram: automatic, named after its jar
module io.jperf.core {
    requires transitive io.jperf.ffi;
    requires transitive HdrHistogram;
    requires java.management;

    exports io.jperf.cm;
    exports io.jperf.datapath;
    exports io.jperf.doctor;
    exports io.jperf.engine;
    exports io.jperf.matrix;
    exports io.jperf.options;
    exports io.jperf.path;
    exports io.jperf.report;
    exports io.jperf.result;
    exports io.jperf.stats;
    exports io.jperf.sweep;
    exports io.jperf.verbs;
    exports io.jperf.wire;
}
