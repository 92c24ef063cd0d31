package koala.placement;

import java.util.Map;

/**
 * Where input files are and how fast sites exchange data, from the grid configuration: what
 * Close-to-Files estimates transfer times from.
 *
 * @param files                logical file name to its size and replicas
 * @param bandwidthMBps        measured bandwidth from one site to another, keyed {@code "from->to"}
 * @param defaultBandwidthMBps bandwidth assumed between sites with no entry
 */
public record FileLocations(Map<String, StoredFile> files, Map<String, Double> bandwidthMBps,
                            double defaultBandwidthMBps) {
    public static final FileLocations NONE = new FileLocations(Map.of(), Map.of(), 100.0);

    public FileLocations {
        files = Map.copyOf(files);
        bandwidthMBps = Map.copyOf(bandwidthMBps);
    }
}
