package koala.testbed;

/**
 * A testbed cell as {@code testbed status} shows it.
 *
 * @param qmasterPid null when the qmaster is not running
 * @param execds     compute nodes whose execd runs
 * @param slotsUsed  -1 when the qmaster does not answer
 */
public record CellStatus(String name, String head, boolean remote, int qmasterPort, Long qmasterPid, int execds,
                         int nodes, int slotsTotal, int slotsUsed, int jobsRunning, int jobsPending) {
    public boolean running() {
        return qmasterPid != null && execds == nodes && slotsUsed >= 0;
    }
}
