package io.jperf.verbs;

import java.util.Optional;

/**
 * Where a connected QP sends: the remote LID (InfiniBand) or GID (RoCE, with a GRH), and the
 * local port, GID index, service level and traffic class ({@code struct ibv_ah_attr}).
 *
 * @param dlid          remote LID (0 on RoCE)
 * @param serviceLevel  SL, 0..15
 * @param portNumber    local port, from 1
 * @param remoteGid     remote GID; present means a GRH is used (always on RoCE)
 * @param sgidIndex     local GID index used as source
 * @param hopLimit      GRH hop limit (perftest uses 0xFF)
 * @param trafficClass  GRH traffic class: DSCP in the high 6 bits, ECN in the low 2
 * @param flowLabel     GRH flow label
 */
public record AddressVector(int dlid, int serviceLevel, int portNumber, Optional<Gid> remoteGid, int sgidIndex,
                            int hopLimit, int trafficClass, int flowLabel) {
    public AddressVector {
        if (serviceLevel < 0 || serviceLevel > 15) {
            throw new IllegalArgumentException("service level must be 0..15, not " + serviceLevel);
        }
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("traffic class must be 0..255, not " + trafficClass);
        }
    }
}
