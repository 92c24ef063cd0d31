package koala.slurm;

import static koala.slurm.CapturedSlurm.printed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import koala.api.site.CellJob;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.api.site.HostResources.MemorySource;
import koala.api.site.PilotSpec;
import koala.api.site.QueueInstance;
import koala.resourcemanager.ClusterLoad;
import koala.resourcemanager.ManagerUnreachable;
import org.junit.jupiter.api.Test;

/** The cluster's load from one {@code sinfo --json} and one {@code squeue --json}, as the agent's snapshot shows it. */
class SlurmLoadTest {
    private final CapturedSlurm slurm = new CapturedSlurm();
    private final SlurmResourceManager manager = new SlurmResourceManager(slurm, Duration.ofSeconds(20),
            Duration.ofSeconds(5), "koala", () -> Instant.parse("2026-12-06T15:00:00Z"), d -> { }, ZoneOffset.UTC);

    /**
     * Two hosts of 2 cores, each full (local job 8 on n2, pilot 9 on n1, each {@code -c 2}), pilot 10 waiting;
     * {@code CR_Core}: memory is not booked, so a host's free memory is what its slurmd reads (the testbed's hosts
     * share one machine's 17504 MB), and its use is what of its 1000 MB that leaves: none.
     */
    @Test
    void hostsFullOfAPilotAndALocalJobWithAPilotWaiting() {
        slurm.on("scontrol show config", printed("scontrol-show-config.txt"))
                .on("sinfo --json", printed("sinfo-live.json")).on("squeue --json", printed("squeue-live.json"));

        ClusterLoad load = manager.load(j -> j.name().startsWith(PilotSpec.PREFIX));

        assertThat(load.hosts()).containsExactly(
                new HostInfo("n1", "x86_64", 2, 12.24, "1000M", "0M", new HostResources(2, 0, 1000L, 17504L,
                        MemorySource.LOAD, 2, 2)),
                new HostInfo("n2", "x86_64", 2, 12.24, "1000M", "0M", new HostResources(2, 0, 1000L, 17504L,
                        MemorySource.LOAD, 2, 2)));
        assertThat(load.queues()).containsExactly(new QueueInstance("debug@n1", "n1", 2, 2, 0, true, "ALLOCATED"),
                new QueueInstance("debug@n2", "n2", 2, 2, 0, true, "ALLOCATED"));
        // jobs 1 to 7 have ended: the controller still lists them, the cluster's load does not
        assertThat(load.jobs()).containsExactly(
                new CellJob("8", "local-sleep", "root", "RUNNING", 2, "debug@n2", at("14:59:07"), false),
                new CellJob("9", "koala-live-wait", "root", "RUNNING", 2, "debug@n1", at("14:59:10"), true),
                new CellJob("10", "koala-live-kill9b", "root", "PENDING", 1, null, at("14:59:14"), true));
        assertThat(slurm.lines()).containsExactly("scontrol show config", "sinfo --json", "squeue --json");
    }

    /**
     * Two hosts of 4 cores, 8000 MB and 2 GPUs, memory booked ({@code CR_Core_Memory}): pilot 1 holds 2 cores,
     * 1024 MB and a GPU of n1, pilot 2 all 4 cores, 6144 MB and both GPUs of n2, so n1 has 2 cores, 6976 MB and a
     * GPU free and n2 no core, 1856 MB and no GPU; local job 3 waits for resources, 4 and 5 behind it.
     */
    @Test
    void bookedMemoryIsTakenOffEachHostsRealMemory() {
        slurm.on("scontrol show config", SlurmCommands.Answer.ok(CapturedSlurm.capture("scontrol-show-config.txt")
                .replace("= CR_CORE\n", "= CR_CORE_MEMORY\n")))
                .on("sinfo --json", printed("sinfo.json")).on("squeue --json", printed("squeue-running.json"));

        ClusterLoad load = manager.load(j -> j.name().startsWith(PilotSpec.PREFIX));

        assertThat(load.hosts()).containsExactly(
                new HostInfo("n1", "x86_64", 4, 5.52, "7.81G", "1G", new HostResources(4, 2, 8000L, 6976L,
                        MemorySource.CONSUMABLE, 2, 1)),
                new HostInfo("n2", "x86_64", 4, 5.52, "7.81G", "6G", new HostResources(4, 0, 8000L, 1856L,
                        MemorySource.CONSUMABLE, 2, 0)));
        assertThat(load.queues()).containsExactly(new QueueInstance("debug@n1", "n1", 4, 2, 0, true, "MIXED"),
                new QueueInstance("debug@n2", "n2", 4, 4, 0, true, "ALLOCATED"));
        assertThat(load.jobs()).extracting(CellJob::id, CellJob::slots, CellJob::queue, CellJob::koala).containsExactly(
                org.assertj.core.groups.Tuple.tuple("1", 2, "debug@n1", true),
                org.assertj.core.groups.Tuple.tuple("2", 4, "debug@n2", true),
                org.assertj.core.groups.Tuple.tuple("3", 4, null, false),
                org.assertj.core.groups.Tuple.tuple("4", 1, null, false),
                org.assertj.core.groups.Tuple.tuple("5", 1, null, false));
        assertThat(load.queues().stream().mapToInt(QueueInstance::slotsFree).sum()).isEqualTo(2);
    }

    @Test
    void aNodeInTwoPartitionsIsOneQueueInstanceSoItsCoresCountOnce() {
        SlurmNode drained = new SlurmNode("n1", "198.19.240.11", "idle", java.util.List.of("DRAIN"), 4, 0, 8000, 0,
                2, 0, "disk", java.util.List.of("debug", "long"), "x86_64", 0.0, 16000);

        ClusterLoad load = SlurmLoad.of(java.util.List.of(drained), java.util.List.of(), true, j -> false, ZoneOffset.UTC);

        assertThat(load.queues()).containsExactly(new QueueInstance("debug,long@n1", "n1", 4, 0, 0, false, "IDLE+DRAIN"));
        assertThat(load.queues().get(0).slotsFree()).isZero();
    }

    @Test
    void aControllerThatIsGoneLeavesNoLoadToRead() {
        slurm.on("scontrol show config", printed("scontrol-show-config.txt"))
                .on("sinfo --json", printed("down-sinfo.out"));

        // sinfo --json exits 0 all the same, its errors saying no more than this
        assertThatThrownBy(() -> manager.load(j -> false)).isInstanceOf(ManagerUnreachable.class)
                .hasMessage("sinfo --json: Unspecified error");
    }

    private static LocalDateTime at(String time) {
        return LocalDateTime.parse("2026-12-06T" + time);
    }
}
