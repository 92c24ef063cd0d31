package koala.testbed;

import java.util.List;

/** Every host and cell of the testbed, and what its daemons cost in memory. */
public record TestbedStatus(List<HostStatus> hosts, List<CellStatus> cells) {
    public boolean up() {
        return !cells.isEmpty() && cells.stream().allMatch(CellStatus::running) && hosts.stream().allMatch(HostStatus::up);
    }

    /** Resident memory of the testbed's daemons (qmasters, execds, SSH servers), in bytes. */
    public long daemonMemory() {
        return hosts.stream().mapToLong(HostStatus::rss).sum();
    }
}
