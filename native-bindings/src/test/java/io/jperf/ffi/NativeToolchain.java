package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * gcc and the rdma-core headers for the tests that compile C at test time. Missing tools fail
 * the test when {@code CI=true} and skip it (with a one-line reason) otherwise.
 */
final class NativeToolchain {

    private static final List<String> HEADERS = List.of("infiniband/verbs.h", "rdma/rdma_cma.h");

    private NativeToolchain() {
    }

    /** Skips, or fails on CI, unless gcc works and both rdma-core headers compile. */
    static void requireGccAndHeaders() {
        String missing = missing();
        if (missing == null) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(missing + " (CI=true: the native test tier must not skip)");
        }
        Assumptions.abort(missing);
    }

    /** @return {@code <module>/target/native-test}, created if needed. */
    static Path workDir() throws IOException {
        Path base = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        return Files.createDirectories(base.resolve("target").resolve("native-test"));
    }

    /** @return {@code <module>/src/test/c/<name>}. */
    static Path testSource(String name) {
        return Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve("src/test/c").resolve(name);
    }

    /** Runs gcc with {@code args}; fails the test with gcc's output if it does not exit 0. */
    static void gcc(String... args) {
        List<String> command = new ArrayList<>();
        command.add("gcc");
        command.addAll(List.of(args));
        Result result = run(command);
        assertEquals(0, result.exitCode(), () -> "gcc failed: " + String.join(" ", command) + "\n" + result.output());
    }

    /** Runs {@code command} (stderr merged into stdout) with a one-minute limit. */
    static Result run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("timed out: " + String.join(" ", command));
            }
            return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    record Result(int exitCode, String output) {
    }

    private static String missing() {
        Result version = run(List.of("gcc", "--version"));
        if (version.exitCode() != 0) {
            return "needs gcc on PATH (apt-get install gcc)";
        }
        try {
            Path probe = workDir().resolve("headers-probe.c");
            StringBuilder source = new StringBuilder();
            for (String header : HEADERS) {
                source.append("#include <").append(header).append(">\n");
            }
            Files.writeString(probe, source);
            Result compiled = run(List.of("gcc", "-fsyntax-only", probe.toString()));
            if (compiled.exitCode() != 0) {
                return "needs the rdma-core headers " + HEADERS + " (apt-get install libibverbs-dev librdmacm-dev): "
                        + compiled.output().lines().findFirst().orElse("");
            }
        } catch (IOException e) {
            return "cannot write the header probe: " + e;
        }
        return null;
    }
}
