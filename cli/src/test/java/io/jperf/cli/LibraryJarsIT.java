package io.jperf.cli;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jars {@code mvn package} made (failsafe runs this after package): each carries its module name, has
 * a sources and a javadoc jar, and the library jars go on the module path.
 */
class LibraryJarsIT {
    private static final Path ROOT = Path.of(System.getProperty("jperf.root", ".."));
    private static final String VERSION = System.getProperty("jperf.version");

    private static Path jar(String module, String classifier) {
        assertNotNull(VERSION, "failsafe sets jperf.version");
        return ROOT.resolve(module).resolve("target")
                .resolve("jperf-" + module + "-" + VERSION + (classifier == null ? "" : "-" + classifier) + ".jar");
    }

    @Test
    void everyJarNamesItsModule() throws IOException {
        for (List<String> expected : List.of(List.of("native-bindings", "io.jperf.ffi"), List.of("core", "io.jperf.core"),
                List.of("cli", "io.jperf.cli"))) {
            Path jar = jar(expected.get(0), null);
            assertEquals(expected.get(1), manifest(jar).getMainAttributes().getValue("Automatic-Module-Name"),
                    jar.toString());
        }
        Path shaded = ROOT.resolve("cli/target/jperf.jar");
        assertEquals("io.jperf.cli", manifest(shaded).getMainAttributes().getValue("Automatic-Module-Name"));
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

    @Test
    void theLibraryJarsResolveOnTheModulePath() throws Exception {
        String hdr = Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String modulePath = String.join(java.io.File.pathSeparator, jar("native-bindings", null).toString(),
                jar("core", null).toString(), hdr);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String out = run(java, "--module-path", modulePath, "--enable-native-access=io.jperf.ffi,io.jperf.core",
                "--add-modules", "io.jperf.core", "--describe-module", "io.jperf.core");
        assertTrue(out.startsWith("io.jperf.core@" + VERSION + " ") && out.lines().findFirst().orElseThrow()
                .endsWith(" automatic"), out);
        assertTrue(out.contains("contains io.jperf.verbs"), out);
        String ffi = run(java, "--module-path", modulePath, "--describe-module", "io.jperf.ffi");
        assertTrue(ffi.startsWith("io.jperf.ffi@" + VERSION + " ") && ffi.contains("contains io.jperf.ffi.generated"),
                ffi);
        // no split package between the modules, every one of them readable
        run(java, "--module-path", modulePath, "--validate-modules");
    }

    @Test
    void onTheModulePathNativeAccessIsGrantedByModuleName(@TempDir Path dir) throws Exception {
        Path program = dir.resolve("Probe.java");
        Files.writeString(program, """
                public class Probe {
                    public static void main(String[] args) {
                        try {
                            System.out.println("devices: " + io.jperf.verbs.Rdma.deviceNames());
                        } catch (io.jperf.JperfException e) {
                            System.out.println("category " + e.category());
                        }
                        System.out.println("module " + io.jperf.verbs.Rdma.class.getModule().getName());
                    }
                }
                """);
        String hdr = Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String modulePath = String.join(java.io.File.pathSeparator, jar("native-bindings", null).toString(),
                jar("core", null).toString(), hdr);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // loading libibverbs is a restricted call in io.jperf.ffi: the README's flag silences the JVM's warning
        String granted = run(java, "-p", modulePath, "--add-modules", "io.jperf.core",
                "--enable-native-access=io.jperf.ffi,io.jperf.core", program.toString());
        assertTrue(granted.contains("module io.jperf.core"), granted);
        assertFalse(granted.contains("restricted method"), granted);
        String notGranted = run(java, "-p", modulePath, "--add-modules", "io.jperf.core", program.toString());
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
        Process p = start(java, "--enable-native-access=io.jperf.ffi,io.jperf.core", "-p", modulePath,
                "-m", "io.jperf.example.embedded");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the example did not finish");
        assertFalse(out.contains("restricted method") || out.contains("Exception in thread"), out);
        if (!Files.isDirectory(Path.of("/sys/class/infiniband"))) {
            assertEquals(3, p.exitValue(), out);
            assertTrue(out.startsWith("embedded: ") && out.strip().endsWith("[NO_RDMA]"), out);
        } else {
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.startsWith("write-bw loopback: 65536 bytes x 1000: "), out);
        }
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
