package io.jperf.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.Optional;

/**
 * Availability probe for the rdma-core user-space libraries, in the style of netty's
 * {@code Epoll.isAvailable()}.
 *
 * <p>The generated header class {@code io.jperf.ffi.generated.rdma_h} opens
 * {@value #IBVERBS} and {@value #RDMACM} in its static initialiser; if either is missing the
 * JVM reports an {@link ExceptionInInitializerError} on first use and a
 * {@link NoClassDefFoundError} on every use after that, which says nothing about the fix. This
 * class runs the same loads first, once, and turns a failure into an
 * {@link RdmaUnavailableException} with an actionable message. Call {@link #ensureAvailable()}
 * before touching anything in {@code io.jperf.ffi.generated}, {@link ErrnoCalls} or
 * {@link InlineVerbs}.
 *
 * <p>Lifecycle: the probe runs in this class's static initialiser, exactly once per class
 * loader; libraries it loads stay loaded for the life of the process (global arena). Threading:
 * every method is thread-safe and returns the same answer on every call.
 *
 * <p>Library availability says nothing about devices: on a kernel without RDMA support the
 * libraries load fine and {@code ibv_get_device_list} fails with {@code ENOSYS} later.
 */
@SuppressWarnings("restricted")
public final class RdmaLibraries {

    /** Soname of the verbs library (Debian package {@code libibverbs1}). */
    public static final String IBVERBS = "libibverbs.so.1";
    /** Soname of the connection manager library (Debian package {@code librdmacm1}). */
    public static final String RDMACM = "librdmacm.so.1";

    static final String INSTALL_HINT =
            "install the Debian packages libibverbs1 librdmacm1 ibverbs-providers (rdma-core)";
    static final String GENERATED_HEADER_CLASS = "io.jperf.ffi.generated.rdma_h";

    /**
     * Read before the probe: in JDK 25's default {@code --illegal-native-access=warn} mode the
     * first restricted call of a module prints the warning and then enables native access for
     * that module, so asking afterwards would always say "enabled".
     */
    private static final boolean NATIVE_ACCESS_AT_START = RdmaLibraries.class.getModule().isNativeAccessEnabled();

    private static final RdmaUnavailableException UNAVAILABILITY_CAUSE =
            probe(IBVERBS, RDMACM, GENERATED_HEADER_CLASS);

    private RdmaLibraries() {
    }

    /** @return {@code true} if both libraries load and the generated bindings initialise. */
    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /**
     * @return why the libraries cannot be used, or {@code null} if {@link #isAvailable()}; the
     *     message is actionable, the cause (if any) is the JDK's original exception
     */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /**
     * Throws unless {@link #isAvailable()}.
     *
     * @throws RdmaUnavailableException with the probe's message, e.g. "libibverbs.so.1 not
     *     found: install the Debian packages ..."
     */
    public static void ensureAvailable() {
        if (UNAVAILABILITY_CAUSE != null) {
            throw new RdmaUnavailableException(UNAVAILABILITY_CAUSE.getMessage(), UNAVAILABILITY_CAUSE.getCause());
        }
    }

    /**
     * Native access is granted per module. JDK 25 lets a module without it call restricted
     * methods with a warning on stderr (a future JDK will refuse); this reports that case, with
     * the flag to add, so a launcher can print it or fail early. The answer is the state when
     * this class was initialised, so initialise it before other native code of this module runs.
     *
     * @return the missing flag and where to put it, or empty if native access was enabled
     */
    public static Optional<String> nativeAccessProblem() {
        Module module = RdmaLibraries.class.getModule();
        if (NATIVE_ACCESS_AT_START) {
            return Optional.empty();
        }
        return Optional.of(nativeAccessMessage(module, "is not enabled"));
    }

    /**
     * Runs the probe. Package-private so tests can point it at libraries that do not exist.
     *
     * @param headerClass generated class to initialise after the libraries loaded, or null
     * @return null if everything loaded, else the exception to report
     */
    static RdmaUnavailableException probe(String verbsLib, String cmLib, String headerClass) {
        try {
            check(verbsLib, "ibv_get_device_list");
            check(cmLib, "rdma_create_event_channel");
        } catch (RdmaUnavailableException e) {
            return e;
        } catch (IllegalCallerException e) {
            // --illegal-native-access=deny (or a future JDK) and no --enable-native-access
            return new RdmaUnavailableException(nativeAccessMessage(RdmaLibraries.class.getModule(), "is denied"), e);
        }
        if (headerClass != null) {
            try {
                Class.forName(headerClass, true, RdmaLibraries.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return new RdmaUnavailableException(
                        "the generated bindings " + headerClass + " failed to initialise although "
                                + verbsLib + " and " + cmLib + " load: " + e, e);
            }
        }
        return null;
    }

    private static void check(String library, String symbol) {
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new RdmaUnavailableException(library + " not found: " + INSTALL_HINT, e);
        }
        if (lookup.find(symbol).isEmpty()) {
            throw new RdmaUnavailableException(library + " loaded but has no symbol " + symbol
                    + ": it is not rdma-core's library or too old; " + INSTALL_HINT, null);
        }
    }

    private static String nativeAccessMessage(Module module, String state) {
        String target = module.isNamed() ? module.getName() : "ALL-UNNAMED";
        return "native access " + state + " for " + (module.isNamed() ? "module " + target : "the class path")
                + ": run java with --enable-native-access=" + target
                + (module.isNamed() ? "" : " (or put 'Enable-Native-Access: ALL-UNNAMED' in the executable jar's manifest)");
    }
}
