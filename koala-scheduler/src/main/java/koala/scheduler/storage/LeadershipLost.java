package koala.scheduler.storage;

/**
 * A leader's write refused because its lease passed, or another scheduler took it over (a later
 * fencing epoch): nothing of the unit was written, and this scheduler leads no more.
 */
public final class LeadershipLost extends StoreException {
    public LeadershipLost(String message) {
        super(message, null);
    }
}
