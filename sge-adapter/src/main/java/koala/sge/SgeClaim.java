package koala.sge;

import java.util.ArrayList;
import java.util.List;
import koala.api.site.HostResources;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;

/**
 * What a pilot claims ({@link PilotNeeds}) in SGE's words, after its site's own request
 * ({@code node.nativeSpec}), as one DRMAA native specification:
 *
 * <ul>
 * <li>account: {@code -A OWNER}, SGE's account string, where a remote site's one account runs the pilot for
 *     its owner;</li>
 * <li>cores: {@code -pe smp N}, the cell's parallel environment whose slots all come from one host
 *     ({@code $pe_slots}); none for one core, a plain job's one slot;</li>
 * <li>memory: {@code -l h_vmem=H}, per slot as SGE books it: the pilot's memory over its slots, rounded up.
 *     SGE limits each process of the pilot to {@code H} times its slots and stops the pilot when its
 *     processes together use more;</li>
 * <li>GPUs: {@code gpu=N}, the consumable GPU hosts declare (booked per job);</li>
 * <li>wall time: {@code h_rt=S}, in whole seconds;</li>
 * <li>host: {@code -l h=HOST}, last.</li>
 * </ul>
 *
 * <p>So a pilot of 4 cores, 32 GiB and the launcher's 128 MiB, a GPU and 11 minutes on fs0-n3, for alice
 * on a site that asks {@code -P koala}, goes to SGE as
 * {@code -P koala -A alice -pe smp 4 -l h_vmem=8224M,gpu=1,h_rt=660 -l h=fs0-n3}.
 */
final class SgeClaim {
    /** The cell's parallel environment of slots on one host. */
    static final String SMP = "smp";

    private SgeClaim() {
    }

    /** The native specification SGE gets for {@code spec}: its site's request and what it claims. */
    static String nativeSpec(PilotSpec spec) {
        return nativeSpec(spec.nativeSpec(), spec.needs());
    }

    /** {@code siteSpec} followed by {@code needs} in SGE's words; null when both are empty. */
    static String nativeSpec(String siteSpec, PilotNeeds needs) {
        List<String> words = new ArrayList<>();
        if (siteSpec != null && !siteSpec.isBlank()) {
            words.add(siteSpec.strip());
        }
        if (needs.account() != null) {
            words.add("-A " + needs.account());
        }
        if (needs.cores() > 1) {
            words.add("-pe " + SMP + " " + needs.cores());
        }
        List<String> resources = resources(needs);
        if (!resources.isEmpty()) {
            words.add("-l " + String.join(",", resources));
        }
        if (needs.host() != null) {
            words.add("-l h=" + needs.host());
        }
        return words.isEmpty() ? null : String.join(" ", words);
    }

    /** The consumables and limits of {@code -l}: memory per slot, GPUs, wall time. */
    private static List<String> resources(PilotNeeds needs) {
        List<String> resources = new ArrayList<>();
        if (needs.memoryMiB() > 0) {
            long perSlot = (needs.memoryMiB() + needs.cores() - 1) / needs.cores();
            resources.add(HostResources.MEMORY_COMPLEX + "=" + perSlot + "M");
        }
        if (needs.gpus() > 0) {
            resources.add(HostResources.GPU_COMPLEX + "=" + needs.gpus());
        }
        if (needs.wallTime() != null) {
            resources.add("h_rt=" + needs.wallTime().toSeconds());
        }
        return resources;
    }
}
