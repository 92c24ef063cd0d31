package koala.testbed;

/**
 * A testbed cell as {@code testbed status} shows it.
 *
 * @param qmasterPid null when the qmaster is not running
 * @param execdPid   null when the execd is not running
 * @param slotsUsed  -1 when the qmaster does not answer
 */
public record CellStatus(String name, int qmasterPort, int execdPort, Long qmasterPid, Long execdPid,
                         int slotsTotal, int slotsUsed, int jobsRunning, int jobsPending) {
    public boolean running() {
        return qmasterPid != null && execdPid != null;
    }
}
