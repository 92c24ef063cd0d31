package koala.testbed;

import java.util.List;

/**
 * Every host and cell of the testbed, what its daemons cost in memory, its wide-area links
 * with the round trips measured inside and between cells, and the scheduler's store.
 */
public record TestbedStatus(List<HostStatus> hosts, List<CellStatus> cells, WanStatus wan, StoreStatus store) {
    public boolean up() {
        return !cells.isEmpty() && cells.stream().allMatch(CellStatus::running) && hosts.stream().allMatch(HostStatus::up)
                && wan.up() && store.up();
    }

    /** Resident memory of the testbed's daemons (qmasters, execds, SSH servers), in bytes. */
    public long daemonMemory() {
        return hosts.stream().mapToLong(HostStatus::rss).sum();
    }
}
