package io.jperf.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where a result came from: the jperf version that measured it, the command line that asked for it
 * and the host it ran on. Every output carries it (jperf's JSON as {@code "run"}, a CSV or {@code .hlog}
 * as comment lines, the HTML report and the text header as a line). Immutable.
 *
 * @param jperfVersion e.g. {@code 0.1.0}
 * @param commandLine the command as a shell would take it back, e.g. {@code jperf write-bw -a 10.0.0.2};
 *     for an embedded run the Java process's command line
 * @param host this host's name
 */
public record RunInfo(String jperfVersion, String commandLine, String host) {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    public RunInfo {
        Objects.requireNonNull(jperfVersion, "jperfVersion");
        Objects.requireNonNull(commandLine, "commandLine");
        Objects.requireNonNull(host, "host");
    }

    /** A run of the {@code jperf} command with {@code args} (after the word {@code jperf}) on this host. */
    public static RunInfo command(List<String> args) {
        return new RunInfo(libraryVersion(), "jperf" + (args.isEmpty() ? "" : " " + shellQuoted(args)), hostName());
    }

    /** A run embedded in this Java process: its command line as the operating system reports it. */
    public static RunInfo embedded() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        String line = info.commandLine().orElseGet(() -> info.command().orElse("java"));
        return new RunInfo(libraryVersion(), line, hostName());
    }

    /** The version of the jperf core library on the class path, {@code unknown} if the build did not say. */
    public static String libraryVersion() {
        Properties p = new Properties();
        try (InputStream in = RunInfo.class.getResourceAsStream("jperf-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version", "unknown");
    }

    /** The kernel's host name ({@code uname -n}), else what the JVM resolves for the local host. */
    public static String hostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: ask the JVM
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }

    /** The arguments joined with spaces, each quoted for a POSIX shell when it needs it. */
    static String shellQuoted(List<String> args) {
        return args.stream()
                .map(a -> PLAIN.matcher(a).matches() ? a : "'" + a.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
    }

    /** One line: {@code jperf 0.1.0 on HOST: COMMAND LINE}. */
    public String line() {
        return "jperf " + jperfVersion + " on " + host + ": " + commandLine;
    }

    /** Writes {@code {"jperf_version": ..., "command_line": ..., "host": ...}}. */
    public void writeJson(JsonWriter w) {
        w.beginObject()
                .field("jperf_version", jperfVersion)
                .field("command_line", commandLine)
                .field("host", host)
                .endObject();
    }
}
