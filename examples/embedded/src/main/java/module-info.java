/**
 * An application module that embeds jperf. jperf's jars are automatic modules named in their manifests:
 * {@code io.jperf.core} (the engine) and {@code io.jperf.ffi} (the bindings, and {@code JperfException}).
 * Both call native code, so run with {@code --enable-native-access=io.jperf.ffi,io.jperf.core}.
 */
module io.jperf.example.embedded {
    requires io.jperf.core;
    requires io.jperf.ffi;
}
