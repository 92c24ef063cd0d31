package koala.placement;

import java.util.Set;

/** An input file known to the grid: its size and the sites that hold a copy. */
public record StoredFile(long bytes, Set<String> sites) {
    public StoredFile {
        sites = Set.copyOf(sites);
    }
}
