package koala.testbed;

import java.util.List;

/**
 * Every host and cell of the testbed, what its daemons cost in memory, and its wide-area links
 * with the round trips measured inside and between cells.
 */
public record TestbedStatus(List<HostStatus> hosts, List<CellStatus> cells, WanStatus wan) {
    public boolean up() {
        return !cells.isEmpty() && cells.stream().allMatch(CellStatus::running) && hosts.stream().allMatch(HostStatus::up)
                && wan.up();
    }

    /** Resident memory of the testbed's daemons (qmasters, execds, SSH servers), in bytes. */
    public long daemonMemory() {
        return hosts.stream().mapToLong(HostStatus::rss).sum();
    }
}
