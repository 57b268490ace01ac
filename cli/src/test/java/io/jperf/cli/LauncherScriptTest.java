package io.jperf.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./jperf} launcher at the repository root, run against fake JDKs: a {@code bin/java}
 * script that logs how it was called, with or without a {@code release} file.
 */
class LauncherScriptTest {
    private static final Path LAUNCHER = Path.of("..", "jperf").toAbsolutePath().normalize();

    /** The JVM flags of a short command: C1 only, the serial collector, no perf-data file. */
    private static final String SHORT = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData";
    /** picocli's colours as the launcher decides them when stdout is not a terminal. */
    private static final String NO_COLOURS = "-Dpicocli.ansi=false";

    @TempDir
    Path dir;
    private Path jar;
    private Path calls;

    @BeforeEach
    void setUp() throws IOException {
        jar = Files.writeString(dir.resolve("jperf.jar"), "not a real jar");
        calls = dir.resolve("calls.txt");
    }

    @Test
    void aJdkWithAReleaseFileIsStartedOnceWithTheJar() throws Exception {
        Path jdk = fakeJdk("jdk25", "25.0.3", "25");
        Result r = launch(jdk, "--version");
        assertEquals(0, r.exitCode(), r.output());
        List<String> lines = Files.readAllLines(calls);
        assertEquals(1, lines.size(), "the release file names the version, so java runs once: " + lines);
        assertEquals(SHORT + " " + NO_COLOURS + " -jar " + jar + " --version", lines.getFirst());
    }

    @Test
    void anOlderJdkIsRefusedFromItsReleaseFileWithoutStartingIt() throws Exception {
        Path jdk = fakeJdk("jdk17", "17.0.15", "17");
        Result r = launch(jdk, "--version");
        assertEquals(3, r.exitCode(), r.output());
        assertTrue(r.output().contains("needs Java 25 or newer") && r.output().contains("Java 17.0.15"), r.output());
        assertFalse(Files.exists(calls), "java must not have been started");
    }

    @Test
    void withoutAReleaseFileTheJvmIsAskedForItsVersion() throws Exception {
        Path jdk = fakeJdk("bare", null, "21");
        Result r = launch(jdk, "--version");
        assertEquals(3, r.exitCode(), r.output());
        assertTrue(r.output().contains("Java 21"), r.output());
        assertEquals(List.of("-XshowSettings:properties -version"), Files.readAllLines(calls));
    }

    @Test
    void theBuildsAotCacheIsUsedWhenThisJdkMadeItOnThisCpuAfterTheJar() throws Exception {
        Path jdk = fakeJdk("jdk25", "25.0.3", "25");
        Path aot = aotCache(jdk, "25.0.3", cpuFlags(), 10);
        Result r = launch(jdk, "--version");
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(List.of("-XX:AOTCache=" + aot + " -Xlog:aot*=off --enable-native-access=ALL-UNNAMED"
                + " " + SHORT + " " + NO_COLOURS + " -jar " + jar + " --version"), Files.readAllLines(calls));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"made by another JDK version,25.0.2,true,10", "made on another CPU,25.0.3,false,10",
        "older than the jar,25.0.3,true,-10"})
    void anAotCacheThatMayNotFitIsNotUsed(String why, String madeBy, boolean thisCpu, int newerBySeconds)
            throws Exception {
        Path jdk = fakeJdk("jdk25", "25.0.3", "25");
        aotCache(jdk, madeBy, thisCpu ? cpuFlags() : "flags\t\t: fpu", newerBySeconds);
        Result r = launch(jdk, "--version");
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(List.of(SHORT + " " + NO_COLOURS + " -jar " + jar + " --version"), Files.readAllLines(calls), why);
    }

    /** Commands that end within a second run on C1 alone with the serial collector; a test or a server keeps the JVM's defaults. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"--help|true", "-h|true", "help|true", "--version|true", "-V|true",
        "devices|true", "devices --json|true", "write-bw --help|false", "write-lat mlx5_0|false", "serve|false",
        "sweep|false"})
    void onlyShortCommandsStartWithoutC2(String args, boolean c1Only) throws Exception {
        Path jdk = fakeJdk("jdk25", "25.0.3", "25");
        Result r = launch(jdk, args.split(" "));
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(List.of((c1Only ? SHORT + " " : "") + NO_COLOURS + " -jar " + jar + " " + args),
                Files.readAllLines(calls));
    }

    /**
     * On a terminal the launcher passes its width to picocli, which would otherwise start stty from the
     * JVM; a width picocli refuses (under 55 columns) is left to picocli.
     */
    @ParameterizedTest
    @CsvSource({"132,-Dpicocli.usage.width=132", "55,-Dpicocli.usage.width=55", "40,''"})
    void onATerminalPicocliIsToldItsWidth(int columns, String widthFlag) throws Exception {
        Path script = Path.of("/usr/bin/script");
        Assumptions.assumeTrue(Files.isExecutable(script) && new ProcessBuilder(script.toString(), "-qec", "true", "/dev/null")
                .start().waitFor() == 0, "no pseudo-terminal here (util-linux's script missing or failing)");
        Path jdk = fakeJdk("jdk25", "25.0.3", "25");
        Result r = run(jdk, List.of(script.toString(), "-qec",
                "stty cols " + columns + " rows 40; sh '" + LAUNCHER + "' --version", "/dev/null"));
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(List.of(SHORT + " -Dpicocli.ansi=true " + (widthFlag.isEmpty() ? "" : widthFlag + " ") + "-jar "
                + jar + " --version"),
                Files.readAllLines(calls));
    }

    /**
     * picocli colours its help when both stdin and stdout are terminals, unless NO_COLOR or CLICOLOR=0 say
     * otherwise, and always with CLICOLOR_FORCE (not 0); the launcher tells it so, sparing it the JVM's console.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"true||true", "true|NO_COLOR=|false", "true|CLICOLOR=0|false",
        "true|CLICOLOR=1|true", "false||false", "false|CLICOLOR_FORCE=1|true", "false|CLICOLOR_FORCE=0|false",
        "true|NO_COLOR=1 CLICOLOR_FORCE=1|false"})
    void picocliIsToldWhetherToColour(boolean terminal, String env, boolean colours) throws Exception {
        Path script = Path.of("/usr/bin/script");
        Assumptions.assumeTrue(!terminal || Files.isExecutable(script) && new ProcessBuilder(script.toString(), "-qec",
                "true", "/dev/null").start().waitFor() == 0, "no pseudo-terminal here (util-linux's script missing or failing)");
        Path jdk = fakeJdk("jdk25", "25.0.3", "25");
        String launch = (env == null ? "" : env + " ") + "sh '" + LAUNCHER + "' --version";
        Result r = run(jdk, terminal ? List.of(script.toString(), "-qec", "stty cols 40; " + launch, "/dev/null")
                : List.of("sh", "-c", launch + " < /dev/null"));
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(List.of(SHORT + " -Dpicocli.ansi=" + colours + " -jar " + jar + " --version"),
                Files.readAllLines(calls));
    }

    /** The launcher reads the first {@code flags} line of /proc/cpuinfo, as the build recorded it. */
    private static String cpuFlags() throws IOException {
        return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("flags"))
                .findFirst().orElse("");
    }

    /** jperf.aot next to the jar, its mtime {@code newerBySeconds} after the jar's, and the build's record. */
    private Path aotCache(Path jdk, String javaVersion, String flags, int newerBySeconds) throws IOException {
        Path aot = dir.resolve("jperf.aot");
        Files.writeString(aot, "not a real cache");
        Files.setLastModifiedTime(aot, FileTime.fromMillis(
                Files.getLastModifiedTime(jar).toMillis() + newerBySeconds * 1000L));
        Path java = jdk.resolve("bin/java").toRealPath();
        Files.writeString(dir.resolve("jperf.aot.jdk"), java + " " + javaVersion + "\n" + flags + "\n");
        return aot;
    }

    /** A JDK whose java logs its arguments and answers -XshowSettings with {@code specVersion}. */
    private Path fakeJdk(String name, String releaseVersion, String specVersion) throws IOException {
        Path home = dir.resolve(name);
        Path bin = Files.createDirectories(home.resolve("bin"));
        if (releaseVersion != null) {
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + releaseVersion + "\"\n");
        }
        Path java = bin.resolve("java");
        Files.writeString(java, """
                #!/bin/sh
                echo "$*" >> '%s'
                case "$1" in -XshowSettings*) echo "    java.specification.version = %s" >&2 ;; esac
                exit 0
                """.formatted(calls, specVersion));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    private Result launch(Path javaHome, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("sh", LAUNCHER.toString()));
        command.addAll(List.of(args));
        return run(javaHome, command);
    }

    /** Runs {@code command} (the launcher, or something that starts it) with {@code javaHome} and the fake jar. */
    private Result run(Path javaHome, List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", javaHome.toString());
        pb.environment().put("JPERF_JAR", jar.toString());
        pb.environment().remove("JPERF_JAVA_OPTS");
        List.of("NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "ConEmuANSI").forEach(pb.environment()::remove);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "launcher did not end");
        return new Result(p.exitValue(), out);
    }

    private record Result(int exitCode, String output) {
    }
}
