package koala.scheduler;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.placement.FileLocations;
import koala.placement.StoredFile;

/**
 * Input files and inter-site bandwidth for Close-to-Files, from the grid configuration:
 *
 * <pre>
 * files = genome.dat, reads.dat
 * file.genome.dat.size = 4G            (bytes; K, M, G suffixes)
 * file.genome.dat.sites = fs1
 * bandwidth.default = 100              (MB/s between sites with no entry)
 * bandwidth.fs1.fs0 = 40               (MB/s from fs1 to fs0)
 * </pre>
 */
final class FileCatalog {
    private FileCatalog() {
    }

    static FileLocations from(GridConfig grid) {
        Map<String, StoredFile> files = new LinkedHashMap<>();
        for (String name : list(grid.value("files").orElse(""))) {
            long bytes = size(grid, "file." + name + ".size");
            Set<String> sites = Set.copyOf(list(grid.value("file." + name + ".sites").orElse("")));
            files.put(name, new StoredFile(bytes, sites));
        }
        Map<String, Double> bandwidth = new LinkedHashMap<>();
        for (var from : grid.sites()) {
            for (var to : grid.sites()) {
                grid.value("bandwidth." + from.name() + "." + to.name())
                        .ifPresent(v -> bandwidth.put(from.name() + "->" + to.name(), Double.parseDouble(v)));
            }
        }
        double fallback = grid.value("bandwidth.default").map(Double::parseDouble).orElse(100.0);
        return new FileLocations(files, bandwidth, fallback);
    }

    private static java.util.List<String> list(String raw) {
        return Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    private static long size(GridConfig grid, String key) {
        String raw = grid.value(key).orElse("0").trim().toUpperCase();
        long unit = raw.endsWith("G") ? 1L << 30 : raw.endsWith("M") ? 1L << 20 : raw.endsWith("K") ? 1L << 10 : 1;
        try {
            return Long.parseLong(unit == 1 ? raw : raw.substring(0, raw.length() - 1)) * unit;
        } catch (NumberFormatException e) {
            throw new ConfigException(grid.file() + ": " + key + " = '" + raw + "': not a size (e.g. 512M, 4G)");
        }
    }
}
