package koala.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import koala.api.site.HostResources;
import koala.api.site.PilotState;
import koala.resourcemanager.ManagerFailure;
import org.junit.jupiter.api.Test;

/**
 * What Slurm 22.05.8 printed (Debian 12), on a cluster of two hosts n1 and n2 of 4 cores, 8000 MB and 2
 * GPUs each, memory booked ({@code CR_Core_Memory}): two pilots ({@code -c 2 --mem=1G --gres=gpu:1} on n1,
 * {@code -c 4 --mem=6G --gres=gpu:2} on n2) running, a local job waiting for resources and two behind it
 * ({@code captures/squeue-running.json}, {@code captures/sinfo.json}); then, the pilots cancelled, the local job running and the two
 * others ended, one with {@code exit 3} ({@code captures/squeue-ended.json}).
 */
class SlurmJsonTest {
    @Test
    void pilotsAndLocalJobsAsSqueueShowsThem() throws Exception {
        List<SlurmJob> jobs = SlurmJson.jobs(fixture("squeue-running.json"));

        assertThat(jobs).extracting(SlurmJob::id, SlurmJob::name, SlurmJob::pilotState, SlurmJob::reason, SlurmJob::nodes)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("1", "koala-k3x9q0-7-0-0-a1", PilotState.RUNNING, "None", "n1"),
                        org.assertj.core.groups.Tuple.tuple("2", "koala-k3x9q0-7-1-0-a1", PilotState.RUNNING, "None", "n2"),
                        org.assertj.core.groups.Tuple.tuple("3", "local-job", PilotState.QUEUED, "Resources", ""),
                        org.assertj.core.groups.Tuple.tuple("4", "done-ok", PilotState.QUEUED, "Priority", ""),
                        org.assertj.core.groups.Tuple.tuple("5", "done-fail", PilotState.QUEUED, "Priority", ""));
        SlurmJob pilot = jobs.get(0);
        assertThat(List.of(pilot.cpus(), pilot.memoryMib(), pilot.gpus())).containsExactly(2, 1024L, 1);
        assertThat(jobs.get(1)).extracting(SlurmJob::cpus, SlurmJob::memoryMib, SlurmJob::gpus).containsExactly(4, 6144L, 2);
        assertThat(pilot.started()).isNotNull();
        assertThat(pilot.ended()).as("a running job's end_time is its time limit's, not an end").isNull();
        assertThat(jobs.get(2).started()).isNull();
        assertThat(List.of(pilot.batchHost(), pilot.partition(), jobs.get(2).batchHost())).containsExactly("n1", "debug", "");
    }

    @Test
    void endedJobsAsSqueueShowsThemForFiveMinutes() throws Exception {
        List<SlurmJob> jobs = SlurmJson.jobs(fixture("squeue-ended.json"));

        assertThat(jobs).extracting(SlurmJob::id, SlurmJob::state, SlurmJob::pilotState, SlurmJob::exitStatus,
                SlurmJob::signal).containsExactly(
                org.assertj.core.groups.Tuple.tuple("1", "CANCELLED", PilotState.FAILED, null, 15),
                org.assertj.core.groups.Tuple.tuple("2", "CANCELLED", PilotState.FAILED, null, 15),
                org.assertj.core.groups.Tuple.tuple("3", "RUNNING", PilotState.RUNNING, 0, null),
                org.assertj.core.groups.Tuple.tuple("4", "COMPLETED", PilotState.DONE, 0, null),
                // its script ran to its end: DONE with its status, as SGE's jobs
                org.assertj.core.groups.Tuple.tuple("5", "FAILED", PilotState.DONE, 3, null));
        assertThat(jobs.get(0).ended()).isEqualTo(Instant.ofEpochSecond(1796559553));
        assertThat(jobs.get(0).ended()).isAfter(jobs.get(0).started());
    }

    @Test
    void hostsAsSinfoShowsThemWithWhatIsBookedOnThem() throws Exception {
        List<SlurmNode> nodes = SlurmJson.nodes(fixture("sinfo.json"));

        assertThat(nodes).extracting(SlurmNode::name, SlurmNode::address, SlurmNode::state, SlurmNode::usable)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("n1", "198.19.240.11", "mixed", true),
                        org.assertj.core.groups.Tuple.tuple("n2", "198.19.240.12", "allocated", true));
        assertThat(nodes.get(0)).extracting(SlurmNode::partitions, SlurmNode::architecture, SlurmNode::load, SlurmNode::freeMib)
                .containsExactly(List.of("debug"), "x86_64", 5.52, 16482L);
        assertThat(nodes.get(0).resources(true, 16482)).isEqualTo(new HostResources(4, 2, 8000L, 6976L,
                HostResources.MemorySource.CONSUMABLE, 2, 1));
        assertThat(nodes.get(1).resources(true, 16482)).isEqualTo(new HostResources(4, 0, 8000L, 1856L,
                HostResources.MemorySource.CONSUMABLE, 2, 0));
        assertThat(nodes.get(1).resources(false, 16482).memory()).isEqualTo(HostResources.MemorySource.LOAD);
    }

    @Test
    void aDrainedOrSilentHostOffersNothing() {
        SlurmNode drained = new SlurmNode("n1", "198.19.240.11", "idle", List.of("DRAIN"), 4, 0, 8000, 0, 2, 0, "disk",
                List.of("debug"), "x86_64", 0.5, 16000);
        SlurmNode silent = new SlurmNode("n2", "198.19.240.12", "down", List.of("NOT_RESPONDING"), 4, 0, 8000, 0, 2, 0, "",
                List.of("debug"), "x86_64", 0.5, 16000);

        assertThat(drained.resources(true, 0)).isEqualTo(new HostResources(4, 0, 8000L, 0L,
                HostResources.MemorySource.CONSUMABLE, 2, 0));
        assertThat(silent.usable()).isFalse();
    }

    @Test
    void gpusAreReadFromEveryFormOfGres() {
        assertThat(SlurmJson.gpus("gpu:2")).isEqualTo(2);
        assertThat(SlurmJson.gpus("gres:gpu:1")).isEqualTo(1);
        assertThat(SlurmJson.gpus("gpu:a100:2(IDX:0-1),gpu:v100:1(IDX:2)")).isEqualTo(3);
        assertThat(SlurmJson.gpus("")).isZero();
        assertThat(SlurmJson.gpus("(null)")).isZero();
    }

    @Test
    void anAnswerThatIsNotJsonOrCarriesErrorsIsTheManagersFailure() {
        assertThatThrownBy(() -> SlurmJson.jobs("squeue: error: Unable to contact slurm controller (connect failure)\n"
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(ManagerFailure.class)
                .hasMessageStartingWith("squeue --json did not answer in JSON");
        assertThatThrownBy(() -> SlurmJson.nodes(("{\"errors\":[{\"error_number\":1,\"description\":\"Unable to query"
                + " nodes\"}],\"nodes\":[]}").getBytes(StandardCharsets.UTF_8))).isInstanceOf(ManagerFailure.class)
                .hasMessage("sinfo --json: Unable to query nodes");
    }

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = SlurmJsonTest.class.getResourceAsStream("/captures/" + name)) {
            return in.readAllBytes();
        }
    }
}
