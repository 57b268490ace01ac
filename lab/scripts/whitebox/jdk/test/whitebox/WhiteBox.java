package jdk.test.whitebox;

import java.lang.reflect.Executable;

/**
 * The few HotSpot WhiteBox entry points lab/scripts/EntryPatch.java needs, declared to match the
 * natives the JVM registers for this class name when run with
 * {@code -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI} and this class on {@code -Xbootclasspath/a}
 * (the JVM binds the natives it knows by name and signature; none are implemented here).
 */
public final class WhiteBox {
    private static native void registerNatives();

    static {
        registerNatives();
    }

    /** Makes the method's compiled code not entrant (HotSpot rewrites its verified entry); returns how many nmethods. */
    public native int deoptimizeMethod0(Executable method, boolean osr);

    public native boolean isMethodCompiled0(Executable method, boolean osr);

    /** Queues a compilation at {@code level} (1-3 C1, 4 C2); {@code bci} -1 for the normal entry. */
    public native boolean enqueueMethodForCompilation0(Executable method, int level, int bci);

    public native int getMethodCompilationLevel0(Executable method, boolean osr);
}
