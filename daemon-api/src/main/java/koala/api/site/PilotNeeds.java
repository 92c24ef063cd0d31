package koala.api.site;

import java.time.Duration;

/**
 * What one pilot claims of its host, in no resource manager's terms: each manager's adapter says it
 * in its own words (SGE: a parallel environment, {@code h_vmem}, a GPU consumable, {@code h_rt},
 * {@code -A}, {@code -l h=}; Slurm: {@code -c}, {@code --mem}, {@code --gres}, {@code --time}, {@code -A},
 * {@code -w}), so that the scheduler that decides it need not know which manager runs the site.
 *
 * @param cores     the cores it claims on one host, at least 1
 * @param memoryMiB the memory it claims in all (not per core), in MiB; 0 for none, the manager's default
 * @param gpus      the GPUs it claims on its host
 * @param wallTime  how long the manager lets it run, any grace already included; null for no limit of its own
 * @param host      the host it must run on; null for any
 * @param account   whom the manager charges beside the account it runs as (a remote site's one account
 *                  charges the job's owner); null for nobody else
 */
public record PilotNeeds(int cores, long memoryMiB, int gpus, Duration wallTime, String host, String account) {
    /** A pilot that claims nothing beyond one core: the site's own request may still claim more. */
    public static final PilotNeeds NODE = new PilotNeeds(1, 0, 0, null, null, null);

    public PilotNeeds {
        if (cores < 1) {
            throw new IllegalArgumentException("a pilot claims at least one core, not " + cores);
        }
        if (memoryMiB < 0 || gpus < 0) {
            throw new IllegalArgumentException("a pilot claims no negative memory or GPUs: " + memoryMiB + " MiB, "
                    + gpus + " GPUs");
        }
        if (wallTime != null && (wallTime.isNegative() || wallTime.isZero())) {
            throw new IllegalArgumentException("a pilot's wall time is longer than nothing, not " + wallTime);
        }
    }

    /** The same claim, on {@code name} (null: any host). */
    public PilotNeeds withHost(String name) {
        return new PilotNeeds(cores, memoryMiB, gpus, wallTime, name, account);
    }

    /** The same claim, charged to {@code owner} as well (null: nobody else). */
    public PilotNeeds withAccount(String owner) {
        return new PilotNeeds(cores, memoryMiB, gpus, wallTime, host, owner);
    }
}
