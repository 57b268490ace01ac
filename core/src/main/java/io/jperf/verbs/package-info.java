/**
 * The verbs resource model: devices, contexts, protection domains, memory regions,
 * completion queues and channels, and queue pairs over libibverbs.
 *
 * <h2>Ownership</h2>
 * Every native object is a {@link io.jperf.verbs.NativeResource}: {@code AutoCloseable},
 * idempotent {@code close()}, a strong reference to its parent and a registry of its live
 * children. Closing a parent closes its children first, newest first, so a {@link
 * io.jperf.verbs.Context} can never be freed under a live queue pair. Using an object after
 * {@code close()} throws {@link java.lang.IllegalStateException} naming the object. Native
 * lifetimes are never left to the garbage collector: a {@link io.jperf.verbs.MemoryRegion}
 * holds its memory segment until it is deregistered.
 *
 * <h2>Control path and data path</h2>
 * The methods here are the control path: they allocate, may throw {@link
 * io.jperf.verbs.RdmaException} with the failing call, errno and a hint, and are not meant for
 * loops. The data path (post, poll) is exposed as raw handles ({@link
 * io.jperf.verbs.QueuePair#postSendFunction()}, {@link
 * io.jperf.verbs.CompletionQueue#pollFunction()}) for engines that build work requests once
 * in native memory.
 *
 * <h2>Threading</h2>
 * Objects are not thread-safe, except {@code close()}, which may be called from any thread.
 * Confine a context and its children to one thread, or guard them yourself.
 */
package io.jperf.verbs;
