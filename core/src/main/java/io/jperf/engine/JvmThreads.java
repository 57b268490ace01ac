package io.jperf.engine;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * This JVM's threads as the kernel lists them ({@code /proc/self/task}): each thread's id, its
 * name ({@code comm}, 15 characters at most) and the CPU time it has used. HotSpot names its own
 * threads (compiler, GC, VM and service threads), so they can be told apart from the application's
 * threads without any JVM interface. Stateless; thread-safe. Reads only {@code /proc}; on a system
 * without it every list is empty and every time unknown.
 */
final class JvmThreads {
    /** One thread: its kernel id and name. */
    record Task(int tid, String name) {
        boolean isCompiler() {
            return isCompilerName(name);
        }

        boolean isJvmService() {
            return isJvmServiceName(name);
        }
    }

    /** How HotSpot's own threads' names begin (as truncated by the kernel): compiler, GC, VM and service threads. */
    private static final List<String> SERVICE_PREFIXES = List.of(
            "C1 CompilerThre", "C2 CompilerThre", "GC Thread#", "G1 ", "VM Thread", "VM Periodic Tas",
            "Reference Handl", "Finalizer", "Signal Dispatch", "Service Thread", "Monitor Deflati",
            "Notification Th", "Common-Cleaner", "Attach Listener", "Sweeper thread", "JFR ", "RuntimeWorker#",
            "ZUncommitter", "ZWorker", "ZDriver", "ZDirector", "ZStat", "Shenandoah", "Parallel GC");

    private static final Path TASKS = Path.of("/proc/self/task");

    private JvmThreads() {
    }

    static boolean isCompilerName(String name) {
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    static boolean isJvmServiceName(String name) {
        for (String prefix : SERVICE_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Every thread of this process now (threads that end while it reads are left out). */
    static List<Task> list() {
        List<Task> tasks = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(TASKS)) {
            for (Path task : dir) {
                int tid;
                try {
                    tid = Integer.parseInt(task.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                try {
                    tasks.add(new Task(tid, Files.readString(task.resolve("comm")).strip()));
                } catch (IOException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return tasks;
    }

    /**
     * CPU time thread {@code tid} has used, in nanoseconds: the first field of its {@code schedstat}
     * (scheduler time, ns), else its {@code stat} user+system ticks (10 ms each); -1 if neither can
     * be read (the thread ended, or no {@code /proc}).
     */
    static long cpuNanos(int tid) {
        Path task = TASKS.resolve(Integer.toString(tid));
        try {
            String schedstat = Files.readString(task.resolve("schedstat"));
            int space = schedstat.indexOf(' ');
            return Long.parseLong(space < 0 ? schedstat.strip() : schedstat.substring(0, space));
        } catch (IOException | NumberFormatException e) {
            // no schedstat in this kernel: fall back to the tick counts
        }
        try {
            return statTicksNanos(Files.readString(task.resolve("stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime of a {@code /proc/.../stat} line, in nanoseconds (USER_HZ 100). */
    static long statTicksNanos(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }

    /** The CPU time (ns) all compiler threads have used so far, or -1 when it cannot be read. */
    static long compilerCpuNanos() {
        long sum = 0;
        boolean any = false;
        for (Task t : list()) {
            if (t.isCompiler()) {
                long ns = cpuNanos(t.tid());
                if (ns >= 0) {
                    sum += ns;
                    any = true;
                }
            }
        }
        return any ? sum : -1;
    }
}
