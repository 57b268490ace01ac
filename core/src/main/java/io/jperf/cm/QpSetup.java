package io.jperf.cm;

/**
 * The engine's part of setting up a CM connection: given the device context and port the RDMA CM
 * resolved (only known after address resolution, and possibly not the device the user named),
 * return the PD, CQs and QP sizes to create the connection's QP with.
 *
 * <p>This is how the engine's memory ends up on the CM's device: allocate the PD and CQs and
 * register the buffers on {@link CmEndpoint#context()}. That context is the same instance for
 * every connection on that device, so an engine typically creates them on the first call for a
 * context and returns the same ones afterwards:
 *
 * <pre>{@code
 * Map<Context, Resources> perDevice = new HashMap<>();
 * QpSetup setup = endpoint -> perDevice.computeIfAbsent(endpoint.context(), ctx -> {
 *     ProtectionDomain pd = ctx.allocateProtectionDomain();
 *     MemoryRegion mr = pd.allocateAndRegister(size, 4096, access);
 *     CompletionQueue cq = ctx.createCompletionQueue(depth, null);
 *     return new Resources(pd, mr, cq);
 * }).qp(caps);
 * }</pre>
 *
 * <p>Lifecycle: what is created on the context belongs to it: closing the {@link CmConnections}
 * closes the borrowed contexts, which closes the PD, MRs and CQs created on them (after the QPs
 * and before the CM ids). The engine may close them earlier itself. Threading: called on the
 * thread running {@link CmClient#connect} or {@link CmServer#accept}, once per connection, in
 * order. An exception thrown here aborts the whole connect/accept and is rethrown.
 */
@FunctionalInterface
public interface QpSetup {

    /** @return the resources to create this connection's QP with, all on {@code endpoint.context()} */
    QpResources resources(CmEndpoint endpoint);
}
