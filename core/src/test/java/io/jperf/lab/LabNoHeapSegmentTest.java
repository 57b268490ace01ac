package io.jperf.lab;

import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engines never create a heap memory segment. Once {@code HeapMemorySegmentImpl} is loaded, the
 * segment accessors have a second implementation and C1 (the lab's JIT) stops inlining them into
 * every VarHandle access and downcall of the data path. A fresh JVM runs write-lat (TCP and RDMA CM)
 * and write-bw on rxe1 to rxe0 with class loading logged, so the other tests' segments do not count.
 */
@Tag("lab")
class LabNoHeapSegmentTest {
    private static final String HEAP_SEGMENT = "jdk.internal.foreign.HeapMemorySegmentImpl";
    private static final String NATIVE_SEGMENT = "jdk.internal.foreign.NativeMemorySegmentImpl";

    @Test
    void writeTestsLoadNoHeapSegmentClass() throws Exception {
        String out = runChild(1);
        assertTrue(out.contains("ran 3 write tests"), out);
        assertTrue(out.contains(NATIVE_SEGMENT), "the class-load log should show native segments (the control)");
        List<String> heap = out.lines().filter(l -> l.contains(HEAP_SEGMENT)).toList();
        assertEquals(List.of(), heap, "a write test loaded a heap segment class");
    }

    /**
     * Runs the child JVM and returns its output. A child that dies from a signal and leaves an hs_err
     * report hit the lab's known emulation fault (lab/README.md), not a test result: it runs once more.
     */
    private static final int CHILD_LIMIT_S = 300;

    private static String runChild(int attempt) throws Exception {
        String results = System.getenv("LAB_RESULTS");
        Path dir = results == null ? Files.createTempDirectory("jperf-heap-segment-child")
                : Files.createTempDirectory(Path.of(results), "heap-segment-child-");
        Path log = dir.resolve("out.txt");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-Xlog:class+load=info",
                "-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"), "-cp", classPath(), Child.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // 300 s: the child is a default (C2) JVM under emulation, and each test's warm-up now waits
        // for its JIT to go quiet (up to 10 s a pause); it took 125 s on a quiet host, > 180 s on a loaded one
        boolean ended = p.waitFor(CHILD_LIMIT_S, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(ended, "child JVM did not end within " + CHILD_LIMIT_S + " s:\n" + out);
        Path report = dir.resolve("hs_err_pid" + p.pid() + ".log");
        if (p.exitValue() >= 128 && Files.exists(report) && attempt == 1) {
            System.out.println("LabNoHeapSegmentTest: the child JVM crashed (exit " + p.exitValue() + ", " + report
                    + "), the lab's known emulation fault; running it once more");
            return runChild(2);
        }
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** The JUnit console launcher loads the tests through a URLClassLoader; surefire puts them on java.class.path. */
    private static String classPath() throws URISyntaxException {
        List<String> entries = new ArrayList<>();
        if (LabNoHeapSegmentTest.class.getClassLoader() instanceof URLClassLoader loader) {
            for (URL url : loader.getURLs()) {
                entries.add(Path.of(url.toURI()).toString());
            }
        }
        entries.add(System.getProperty("java.class.path"));
        return String.join(File.pathSeparator, entries);
    }

    /** The child JVM: three loopback write tests, client on rxe1, server on rxe0. */
    public static final class Child {
        public static void main(String[] args) {
            List<TestOptions> tests = List.of(
                    options(TestKind.WRITE_LAT).build(),
                    options(TestKind.WRITE_LAT).rdmaCm(true).build(),
                    options(TestKind.WRITE_BW).build());
            for (TestOptions options : tests) {
                PerfTestResult r = PerfTest.of(options).timeout(Duration.ofSeconds(60)).settleDelay(Duration.ZERO)
                        .runLoopback("rxe0");
                System.out.println("result " + r.toJson());
            }
            System.out.println("ran " + tests.size() + " write tests");
        }

        private static TestOptions.Builder options(TestKind kind) {
            return TestOptions.builder(kind).device("rxe1").iterations(200).loopback(true);
        }
    }
}
