package koala.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import koala.placement.Assignment;
import koala.placement.PlacementPolicies;
import koala.placement.Resources;
import koala.sim.ResourceJob;
import koala.sim.ResourceMix;
import koala.sim.ResourceOutcome;
import koala.sim.ResourceQueue;
import koala.sim.ResourceQueue.Host;
import koala.sim.ResourceQueue.Mode;
import koala.sim.ResourceQueue.Site;
import koala.sim.ResourceRun;
import org.junit.jupiter.api.Test;

/** The experiment's grid, and an audit of where resource-aware placement put every node of its workload. */
class ResourcesExperimentTest {
    @Test
    void theGridIsTheTestbedsShapeTimesTheScale() {
        // fs0: 12 hosts of 4 cores and 8G, 4 of 16 cores, 64G and 2 GPUs; fs1: 8 of 8 cores and 16G
        List<Site> one = ResourcesExperiment.grid(1);
        assertThat(one).extracting(Site::name).containsExactly("fs0", "fs1");
        assertThat(one.get(0).hosts()).hasSize(16);
        assertThat(one.get(0).hosts().get(11)).isEqualTo(new Host("fs0-n011", new Resources(4, 8 * 1024, 0)));
        assertThat(one.get(0).hosts().get(12)).isEqualTo(new Host("fs0-n012", new Resources(16, 64 * 1024, 2)));
        assertThat(one.get(1).hosts()).hasSize(8).allMatch(h -> h.total().equals(new Resources(8, 16 * 1024, 0)));
        // 48 + 64 + 64 = 176 cores, 96 + 256 + 128 = 480G, 8 GPUs
        assertThat(one.get(0).total().plus(one.get(1).total())).isEqualTo(new Resources(176, 480 * 1024, 8));
        assertThat(ResourcesExperiment.grid(4).stream().mapToInt(s -> s.hosts().size()).sum()).isEqualTo(96);
    }

    @Test
    void resourceAwarePlacementPutsNoNodeWhereItDoesNotFit() {
        // the experiment's grid and mix at its highest load, 1,500 jobs (a few seconds)
        ResourcesExperiment.Settings s = settings(List.of(0.9), 1500);
        ResourceQueue.Setup setup = s.setup();
        List<ResourceJob> jobs = s.mix().generate(s.jobs(), s.mix().arrivalRate(0.9, setup.total()), s.seed());
        ResourceRun run = ResourceQueue.run(setup, jobs, Mode.RESOURCE_AWARE);
        assertThat(run.ran()).isEqualTo(1500);
        assertThat(run.misfitPlacements()).isZero();
        // checked apart from the simulator's own count: every node on a host of its site, and no host ever
        // holding more than it has, replaying every start and end
        Map<String, String> siteOf = new HashMap<>();
        setup.sites().forEach(site -> site.hosts().forEach(h -> siteOf.put(h.name(), site.name())));
        for (ResourceOutcome o : run.outcomes()) {
            for (Assignment a : o.assignments()) {
                assertThat(a.hosts()).hasSize(a.nodes()).allMatch(h -> a.site().equals(siteOf.get(h)));
            }
        }
        assertThat(overcommitted(run.outcomes(), setup.sites())).isEmpty();
        // and the jobs share hosts: some host ran nodes of more than one job at once
        assertThat(run.heldPercent(0)).isLessThan(100);
    }

    @Test
    void theAuditFindsAHostThatHoldsMoreThanItHas() {
        // two GPU nodes at once on fs0-n000, which has no GPU and 8G: the audit must say so
        List<Site> grid = ResourcesExperiment.grid(1);
        ResourceJob gpu = ResourceJob.of(1, 0, 100, "gpu", List.of(new ResourceJob.Part(2, new Resources(4, 16 * 1024, 1))));
        ResourceOutcome planted = new ResourceOutcome(gpu, Duration.ZERO, Duration.ofSeconds(100),
                List.of(new Assignment(0, "fs0", 2, List.of("fs0-n000", "fs0-n000"))), 0, null);
        assertThat(overcommitted(List.of(planted), grid)).containsExactly("fs0-n000 at 0 s");
    }

    @Test
    void theReportNamesEachPlacementAndTheRatioOfJobsPerHour() {
        ResourcesExperiment.Result r = ResourcesExperiment.simulate(settings(List.of(0.5, 0.9), 600),
                new PrintStream(ByteArrayOutputStream.nullOutputStream()));
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        ResourcesExperiment.print(r, new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String text = buffer.toString(StandardCharsets.UTF_8);
        ResourcesExperiment.Row high = ResourcesExperiment.headline(r);
        assertThat(high.load()).isEqualTo(0.9);
        // the ratio is over the better of the two node-granular placements
        double base = Math.max(high.of(Mode.SLOTS).jobsPerHour(), high.of(Mode.WHOLE_HOSTS).jobsPerHour());
        assertThat(high.ratio()).isEqualTo(high.of(Mode.RESOURCE_AWARE).jobsPerHour() / base);
        assertThat(text).contains("node = slot", "node = whole host", "resource-aware", "placed where they did not fit")
                .contains(String.format(Locale.ROOT, "load 0.90: %.2fx the jobs per hour", high.ratio()))
                .contains("resource-aware placed 0 jobs where they did not fit");
    }

    private static ResourcesExperiment.Settings settings(List<Double> loads, int jobs) {
        ResourcesExperiment.Settings d = ResourcesExperiment.Settings.defaults();
        return new ResourcesExperiment.Settings(d.scale(), loads, jobs, d.seed(), ResourceMix.DEFAULT,
                PlacementPolicies.byName("worst-fit"), d.failAfter(), d.tries());
    }

    /** Each host and instant at which the nodes running on a host ask for more than it has: "host at T s". */
    static List<String> overcommitted(List<ResourceOutcome> outcomes, List<Site> sites) {
        Map<String, Resources> has = new HashMap<>();
        sites.forEach(site -> site.hosts().forEach(h -> has.put(h.name(), h.total())));
        record Change(long atMillis, int sign, String host, Resources per) {
        }
        List<Change> changes = new ArrayList<>();
        for (ResourceOutcome o : outcomes) {
            if (!o.didRun()) {
                continue;
            }
            for (Assignment a : o.assignments()) {
                Resources per = o.job().parts().get(a.component()).perNode();
                for (String h : a.hosts()) {
                    changes.add(new Change(o.start().toMillis(), 1, h, per));
                    changes.add(new Change(o.end().toMillis(), -1, h, per));
                }
            }
        }
        // ends before starts at the same instant: a host freed then is free for what starts then
        changes.sort(Comparator.comparingLong(Change::atMillis).thenComparingInt(Change::sign));
        Map<String, long[]> running = new HashMap<>();
        List<String> found = new ArrayList<>();
        for (Change c : changes) {
            long[] r = running.computeIfAbsent(c.host(), h -> new long[3]);
            r[0] += c.sign() * c.per().cores();
            r[1] += c.sign() * c.per().memoryMiB();
            r[2] += c.sign() * c.per().gpus();
            Resources total = has.get(c.host());
            String where = c.host() + " at " + c.atMillis() / 1000 + " s";
            if (c.sign() > 0 && (r[0] > total.cores() || r[1] > total.memoryMiB() || r[2] > total.gpus()) && !found.contains(where)) {
                found.add(where);
            }
        }
        return found;
    }
}
