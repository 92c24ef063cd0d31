package koala.api.site;

/**
 * One queue instance ({@code queue@host}) of a cluster, as its resource manager reports it.
 *
 * @param usable whether the manager would start a new job here; its adapter reads this from the
 *               manager's own states (SGE: none of the letters {@code u E d D s S C c})
 * @param states the manager's own state text, shown as it is ("au" for SGE's alarm and unreachable)
 */
public record QueueInstance(String name, String host, int slotsTotal, int slotsUsed, int slotsReserved,
                            boolean usable, String states) {
    /** Slots a new job could get now. */
    public int slotsFree() {
        return usable ? Math.max(0, slotsTotal - slotsUsed - slotsReserved) : 0;
    }
}
