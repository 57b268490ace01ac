/**
 * RDMA CM ({@code -R}): connection setup over librdmacm, with the kernel's routing made visible.
 *
 * <h2>Why routing matters here</h2>
 * The RDMA CM resolves address and route with the kernel's IP routing (source selection, egress
 * netdev, neighbour). On a multi-rail host an unbound CM id follows the main table and can take
 * another rail than the one the user chose, so {@link io.jperf.cm.CmClient} always binds the id to
 * the chosen source, and every result ({@link io.jperf.cm.CmPath}) and every failure
 * ({@link io.jperf.cm.CmException}) carries the kernel's route for the pair
 * ({@link io.jperf.cm.RouteReport}, from rtnetlink, never by running {@code ip}).
 *
 * <h2>Use</h2>
 * <pre>{@code
 * // server                                              // client
 * try (CmServer server = CmServer.listen(bind, n)) {      try (CmConnections c = CmClient.connect(server, source,
 *     CmConnections c = server.accept(n, setup, t);              tos, n, setup, timeout)) {
 *     ...                                                     ... c.get(i).queuePair() ...
 * }                                                       }
 * }</pre>
 * The engine's {@link io.jperf.cm.QpSetup} gets the device context the CM resolved to and creates
 * its PD, CQs and buffers there; the CM creates each QP on that PD ({@code rdma_create_qp}) and hands
 * it over connected (RTS).
 *
 * <h2>Resources and timeouts</h2>
 * {@link io.jperf.cm.CmEventChannel} and {@link io.jperf.cm.CmId} follow the verbs resource model
 * ({@link io.jperf.verbs.NativeResource}: idempotent, children-first close; a CM id destroys its QP
 * before itself). The channel fd is non-blocking and polled with a timeout: no call waits longer
 * than the timeout it was given.
 */
package io.jperf.cm;
