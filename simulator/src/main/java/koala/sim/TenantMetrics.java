package koala.sim;

/**
 * What one framework instance of a shared grid got, beside its {@link RunMetrics}.
 *
 * @param killed       applications that ran on workers KOALA ended (an SWC is submitted again, an RL is lost)
 * @param lostPercent  RLs rejected or killed, percent of the applications offered (resubmissions not counted)
 * @param meanSlowdown SWCs: mean of (finish − first arrival) / duration, those running at the end as if they
 *                     finish, those waiting at least their wait so far and a run; NaN without SWCs
 * @param slowdownApps SWCs in that mean
 * @param usefulNodeHours node-time of applications that were not killed: an RL its worker, an SWC its share of
 *                     a worker's slots
 * @param takenBack    worker nodes taken back from it: idle ones ended, ones it gave back when asked, ones ended
 */
public record TenantMetrics(String name, RunMetrics run, long killed, double lostPercent, double meanSlowdown,
        long slowdownApps, double usefulNodeHours, long takenBack) {

    public TenantMetrics withoutSeries() {
        return new TenantMetrics(name, run.withoutSeries(), killed, lostPercent, meanSlowdown, slowdownApps,
                usefulNodeHours, takenBack);
    }
}
