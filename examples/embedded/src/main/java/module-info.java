/**
 * An application module that embeds jperf. It requires {@code io.jperf.core} (the engine), which brings
 * {@code io.jperf.ffi} with it ({@code requires transitive}: {@code JperfException} lives there). Only
 * {@code io.jperf.ffi} calls restricted methods, so native access is granted to it alone:
 * {@code --enable-native-access=io.jperf.ffi} (add {@code --illegal-native-access=deny} to make sure nothing
 * else needs it).
 */
module io.jperf.example.embedded {
    requires io.jperf.core;
}
