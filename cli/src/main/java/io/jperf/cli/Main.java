package io.jperf.cli;

/** The {@code jperf} process entry point. */
public final class Main {
    private Main() {
    }

    /**
     * Runs jperf and ends the process with its exit code. Success with no other application thread alive
     * returns from here, which ends the JVM with 0 as {@code System.exit(0)} would, but without
     * {@code Runtime.exit}'s event logging: that starts the JDK's System.Logger machinery, ~5 ms of a
     * {@code jperf --help} that takes 70.
     */
    public static void main(String[] args) {
        int code = run(args);
        if (code == ExitCodes.OK && noOtherLiveThread()) {
            System.out.flush();
            return;
        }
        System.exit(code);
    }

    /** Runs jperf with {@code args} and returns the exit code, without exiting. */
    public static int run(String... args) {
        return JperfCommand.commandLineFor(args).execute(args);
    }

    /** No thread but this one, daemon or not, in this thread's group (where the application's threads are). */
    static boolean noOtherLiveThread() {
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            if (threads[i] != Thread.currentThread() && threads[i].isAlive()) {
                return false;
            }
        }
        return true;
    }
}
