package koala.common.site;

/**
 * One queue instance ({@code queue@host}) of a cell, from {@code qstat -f -xml}.
 *
 * @param states SGE's state letters: {@code u} unreachable, {@code E} error, {@code d} disabled,
 *               {@code a} alarm, {@code s}/{@code S} suspended, {@code D} calendar-disabled, ...
 */
public record QueueInstance(String name, String host, int slotsTotal, int slotsUsed, int slotsReserved,
                            String states) {
    private static final String UNUSABLE = "uEdDsSCc";

    /** True when SGE would start no new job here. */
    public boolean usable() {
        return states.chars().noneMatch(c -> UNUSABLE.indexOf(c) >= 0);
    }

    /** Slots a new job could get now. */
    public int slotsFree() {
        return usable() ? Math.max(0, slotsTotal - slotsUsed - slotsReserved) : 0;
    }
}
