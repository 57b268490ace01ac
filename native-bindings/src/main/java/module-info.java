/**
 * jperf's native bindings: the jextract-generated bindings to libibverbs and librdmacm
 * ({@code io.jperf.ffi.generated}) and the small hand-written layer around them ({@code io.jperf.ffi}:
 * library loading, errno capture, the inline data-path verbs, libc calls, and {@code NativeMemory},
 * which sizes raw pointers).
 *
 * <p>This is the only jperf module that calls restricted methods, so it is the only one that needs native
 * access: {@code --enable-native-access=io.jperf.ffi} on the module path (on the class path,
 * {@code ALL-UNNAMED}). Those capabilities reach {@code io.jperf.core} only: both packages are exported to it
 * alone. Everybody may see {@code io.jperf}, whose {@link io.jperf.JperfException} is the root of every failure
 * jperf reports.
 */
@SuppressWarnings("module") // io.jperf.core, the target of the qualified exports, is built after this module
module io.jperf.ffi {
    exports io.jperf;
    exports io.jperf.ffi to io.jperf.core;
    exports io.jperf.ffi.generated to io.jperf.core;
}
