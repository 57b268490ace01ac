/*
 * Single entry header for jextract: both rdma-core headers jperf binds, generated into
 * one Java package (io.jperf.ffi.generated) so shared types (ibv_gid, ibv_ah_attr, ...)
 * exist once. See README.md.
 */
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
