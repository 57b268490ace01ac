package io.jperf.verbs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SequencedSet;

/**
 * Base of every verbs object: explicit, idempotent, children-first close.
 *
 * <p>A resource holds strong references to its parents and registers itself with them on
 * creation; each parent tracks its live children. Besides the object that created it, a
 * resource may depend on others it uses (a queue pair on its completion queues), and they
 * count as parents too: closing a completion queue first closes the queue pairs using it.
 * {@link #close()} closes the live children first, newest first, then frees this object's
 * native handle once, then leaves its parents' registries. Every operation checks {@link #ensureOpen()} so a closed object fails with a
 * clear {@link IllegalStateException} instead of a crash in native code.
 *
 * <p>Threading: {@code close()} is safe from any thread; other methods are not thread-safe.
 */
public abstract class NativeResource implements AutoCloseable {

    private final List<NativeResource> parents = new ArrayList<>(2);
    private final SequencedSet<NativeResource> children = new LinkedHashSet<>();
    private boolean closed;

    /** Creates a resource owned by {@code parent} (null for a root) that also depends on {@code uses}. */
    protected NativeResource(NativeResource parent, NativeResource... uses) {
        if (parent != null) {
            parent.adopt(this);
            parents.add(parent);
        }
        for (NativeResource used : uses) {
            if (used != null && !parents.contains(used)) {
                used.adopt(this);
                parents.add(used);
            }
        }
    }

    /** Frees the native object. Called exactly once, after all children are closed. */
    protected abstract void destroy();

    /** A short description for messages, e.g. {@code "QueuePair 0x11 on rxe0"}. */
    protected abstract String describe();

    private synchronized void adopt(NativeResource child) {
        ensureOpen();
        children.add(child);
    }

    private synchronized void release(NativeResource child) {
        children.remove(child);
    }

    /** The live children, oldest first. */
    public synchronized List<NativeResource> children() {
        return List.copyOf(children);
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** Throws {@link IllegalStateException} when this object or an ancestor is closed. */
    protected final synchronized void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    @Override
    public final void close() {
        List<NativeResource> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            toClose = new ArrayList<>(children.reversed());
        }
        RuntimeException failure = null;
        for (NativeResource child : toClose) {
            try {
                child.close();
            } catch (RuntimeException e) {
                failure = accumulate(failure, e);
            }
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            destroy();
        } catch (RuntimeException e) {
            failure = accumulate(failure, e);
        }
        for (NativeResource parent : parents) {
            parent.release(this);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException accumulate(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
