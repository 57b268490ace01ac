package io.jperf.cli;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jars {@code mvn package} made (failsafe runs this after package): each carries its module name, has
 * a sources and a javadoc jar, and the library jars are named modules that run on the module path with native
 * access granted to {@code io.jperf.ffi} alone.
 */
class LibraryJarsIT {
    private static final Path ROOT = Path.of(System.getProperty("jperf.root", ".."));
    private static final String VERSION = System.getProperty("jperf.version");

    private static Path jar(String module, String classifier) {
        assertNotNull(VERSION, "failsafe sets jperf.version");
        return ROOT.resolve(module).resolve("target")
                .resolve("jperf-" + module + "-" + VERSION + (classifier == null ? "" : "-" + classifier) + ".jar");
    }

    /**
     * The library jars are named modules (module-info.class; the JVM ignores Automatic-Module-Name beside one),
     * cli's jars stay automatic modules named in their manifests.
     */
    @Test
    void everyJarNamesItsModule() throws IOException {
        for (List<String> expected : List.of(List.of("native-bindings", "io.jperf.ffi"), List.of("core", "io.jperf.core"))) {
            Path jar = jar(expected.get(0), null);
            ModuleDescriptor descriptor = descriptor(jar);
            assertEquals(expected.get(1), descriptor.name(), jar.toString());
            assertFalse(descriptor.isAutomatic(), jar + " has a module-info");
            assertEquals(VERSION, descriptor.rawVersion().orElse(null), jar + ": the module's version");
            assertNull(manifest(jar).getMainAttributes().getValue("Automatic-Module-Name"), jar.toString());
        }
        assertEquals("io.jperf.cli", manifest(jar("cli", null)).getMainAttributes().getValue("Automatic-Module-Name"));
        assertTrue(descriptor(jar("cli", null)).isAutomatic());
        Path shaded = ROOT.resolve("cli/target/jperf.jar");
        assertEquals("io.jperf.cli", manifest(shaded).getMainAttributes().getValue("Automatic-Module-Name"));
        try (JarFile f = new JarFile(shaded.toFile())) {
            assertNull(f.getEntry("module-info.class"), "jperf.jar runs on the class path: no module-info in it");
            assertEquals("ALL-UNNAMED", f.getManifest().getMainAttributes().getValue("Enable-Native-Access"));
        }
    }

    @Test
    void sourcesAndJavadocJarsAreBuilt() throws IOException {
        for (List<String> module : List.of(List.of("native-bindings", "io/jperf/ffi/"), List.of("core", "io/jperf/verbs/"),
                List.of("cli", "io/jperf/cli/"))) {
            try (JarFile sources = new JarFile(jar(module.get(0), "sources").toFile());
                 JarFile javadoc = new JarFile(jar(module.get(0), "javadoc").toFile())) {
                assertTrue(sources.stream().map(ZipEntry::getName).anyMatch(n -> n.startsWith(module.get(1))
                        && n.endsWith(".java")), module + " sources");
                assertNotNull(javadoc.getEntry("index.html"), module + " javadoc index.html");
                assertTrue(javadoc.stream().map(ZipEntry::getName).anyMatch(n -> n.contains(module.get(1))
                        && n.endsWith(".html")), module + " javadoc pages");
            }
        }
    }

    /**
     * What each module reads and shows: core requires the bindings (and HdrHistogram) transitively and exports
     * its API; the bindings export {@code io.jperf} (JperfException) to everybody and their native packages to
     * core alone.
     */
    @Test
    void theLibraryJarsResolveOnTheModulePath() throws Exception {
        String modulePath = libraryModulePath();
        String java = javaCommand();
        String out = run(java, "--module-path", modulePath, "--enable-native-access=io.jperf.ffi",
                "--add-modules", "io.jperf.core", "--describe-module", "io.jperf.core");
        assertTrue(out.startsWith("io.jperf.core@" + VERSION + " ") && !out.lines().findFirst().orElseThrow()
                .endsWith(" automatic"), out);
        for (String line : List.of("requires io.jperf.ffi transitive", "requires HdrHistogram transitive automatic",
                "exports io.jperf.verbs", "exports io.jperf.engine", "exports io.jperf.options")) {
            assertTrue(out.lines().anyMatch(line::equals), line + " in\n" + out);
        }
        String ffi = run(java, "--module-path", modulePath, "--describe-module", "io.jperf.ffi");
        for (String line : List.of("exports io.jperf", "qualified exports io.jperf.ffi to io.jperf.core",
                "qualified exports io.jperf.ffi.generated to io.jperf.core")) {
            assertTrue(ffi.lines().anyMatch(line::equals), line + " in\n" + ffi);
        }
        assertTrue(ffi.startsWith("io.jperf.ffi@" + VERSION + " "), ffi);
        // no split package between the modules, every one of them readable
        run(java, "--module-path", modulePath, "--validate-modules");
    }

    /**
     * Native access for io.jperf.ffi only, and refused to every other module ({@code --illegal-native-access=deny}):
     * core's calls that reach native code (the device list, a completion status's text through
     * {@code ibv_wc_status_str}, a completion array read by address) work, since only the bindings make restricted
     * calls. Without the grant the bindings are refused too, and jperf says which flag is missing.
     */
    @Test
    void onTheModulePathOnlyTheBindingsNeedNativeAccess(@TempDir Path dir) throws Exception {
        Path program = dir.resolve("Probe.java");
        Files.writeString(program, """
                import java.lang.foreign.Arena;

                public class Probe {
                    public static void main(String[] args) {
                        System.out.println("module " + io.jperf.verbs.Rdma.class.getModule().getName()
                                + ", native access " + io.jperf.verbs.Rdma.class.getModule().isNativeAccessEnabled());
                        try {
                            System.out.println("devices: " + io.jperf.verbs.Rdma.deviceNames());
                        } catch (io.jperf.JperfException e) {
                            System.out.println("category " + e.category() + ": " + e.getMessage());
                        }
                        if (args.length == 0) { // the libraries loaded: calls that need no device
                            System.out.println("status " + io.jperf.datapath.CompletionStatus.describe(12));
                            try (Arena arena = Arena.ofConfined()) {
                                System.out.println("wr_id " + new io.jperf.datapath.CompletionBatch(arena, 4).wrId(3));
                            }
                        }
                    }
                }
                """);
        String modulePath = libraryModulePath();
        String java = javaCommand();
        Process p = start(java, "-p", modulePath, "--add-modules", "io.jperf.core",
                "--enable-native-access=io.jperf.ffi", "--illegal-native-access=deny", program.toString());
        String granted = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe did not finish");
        assertEquals(0, p.exitValue(), granted);
        assertFalse(granted.contains("IllegalCallerException") || granted.contains("restricted method"), granted);
        assertTrue(granted.startsWith("module io.jperf.core, native access false\n"), granted);
        assertTrue(granted.contains("status IBV_WC_RETRY_EXC_ERR (12, transport retry counter exceeded)"), granted);
        assertTrue(granted.contains("wr_id 0\n"), granted);
        if (!Files.isDirectory(Path.of("/sys/class/infiniband"))) {
            assertTrue(granted.contains("category NO_RDMA: ibv_get_device_list failed"), granted);
        } else {
            assertTrue(granted.contains("devices: ["), granted);
        }

        // the bindings refused as well: jperf's message names the flag (no JVM stack trace)
        p = start(java, "-p", modulePath, "--add-modules", "io.jperf.core", "--illegal-native-access=deny",
                program.toString(), "devices-only");
        String denied = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe did not finish");
        assertEquals(0, p.exitValue(), denied);
        assertTrue(denied.contains("category NO_RDMA: native access is denied for module io.jperf.ffi: run java with"
                + " --enable-native-access=io.jperf.ffi"), denied);

        // JDK 25's default (warn): the JVM's warning names the one module to grant
        String notGranted = run(java, "-p", modulePath, "--add-modules", "io.jperf.core", program.toString(),
                "devices-only");
        assertTrue(notGranted.contains("--enable-native-access=io.jperf.ffi"), notGranted);
    }

    /**
     * examples/embedded, built by the reactor against the jars just made: its pom names this version, and its
     * module runs on the module path with the README's --enable-native-access line, reaching the engine:
     * without RDMA in the kernel it stops with jperf's NO_RDMA (exit 3), with a device it prints the result.
     */
    @Test
    void theExampleProjectRunsOnTheModulePath() throws Exception {
        String pom = Files.readString(ROOT.resolve("examples/embedded/pom.xml"));
        assertTrue(pom.contains("<jperf.version>" + VERSION + "</jperf.version>"), "examples/embedded/pom.xml should"
                + " depend on jperf " + VERSION);
        Path example = ROOT.resolve("examples/embedded/target/jperf-example-embedded-" + VERSION + ".jar");
        assertTrue(Files.isRegularFile(example), example + " not built (the reactor builds examples/embedded)");
        try (JarFile jar = new JarFile(example.toFile())) {
            assertNotNull(jar.getEntry("module-info.class"), "the example is a named module");
        }
        String hdr = Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String modulePath = String.join(java.io.File.pathSeparator, example.toString(),
                jar("native-bindings", null).toString(), jar("core", null).toString(), hdr);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = start(java, "--enable-native-access=io.jperf.ffi", "--illegal-native-access=deny", "-p", modulePath,
                "-m", "io.jperf.example.embedded");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the example did not finish");
        assertFalse(out.contains("restricted method") || out.contains("Exception in thread")
                || out.contains("IllegalCallerException"), out);
        if (!Files.isDirectory(Path.of("/sys/class/infiniband"))) {
            assertEquals(3, p.exitValue(), out);
            assertTrue(out.startsWith("embedded: ") && out.strip().endsWith("[NO_RDMA]"), out);
        } else {
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.startsWith("write-bw loopback: 65536 bytes x 1000: "), out);
        }
    }

    private static String libraryModulePath() throws Exception {
        String hdr = Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        return String.join(java.io.File.pathSeparator, jar("native-bindings", null).toString(),
                jar("core", null).toString(), hdr);
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static ModuleDescriptor descriptor(Path jar) {
        assertTrue(Files.isRegularFile(jar), jar + " not built");
        List<ModuleReference> found = List.copyOf(ModuleFinder.of(jar).findAll());
        assertEquals(1, found.size(), jar.toString());
        return found.getFirst().descriptor();
    }

    private static String run(String... command) throws Exception {
        Process p = start(command);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + out);
        return out;
    }

    /**
     * Starts a child JVM whose output the tests read from its first line: without the caller's JAVA_TOOL_OPTIONS,
     * which would make the child print "Picked up JAVA_TOOL_OPTIONS" before anything else.
     */
    private static Process start(String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        return pb.start();
    }

    private static Manifest manifest(Path jar) throws IOException {
        assertTrue(Files.isRegularFile(jar), jar + " not built");
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.getManifest();
        }
    }
}
