/**
 * The data path: work requests and completions laid out once in native memory and patched in
 * place, posted and polled through the provider's function pointers. Nothing here allocates or
 * throws after construction; errors come back as return codes and completion statuses, which
 * the caller counts and reports after the loop.
 */
package io.jperf.datapath;
