package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.api.site.QueueInstance;
import org.junit.jupiter.api.Test;

/** Worked examples on output captured from the testbed's SGE 8.1.9 cells. */
class QstatXmlTest {

    static String capture(String name) throws IOException {
        try (InputStream in = QstatXmlTest.class.getResourceAsStream("/captures/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void oneLocalJobRunningInAnOtherwiseIdleQueue() throws IOException {
        QstatXml.Result result = QstatXml.parse(capture("qstat-f-one-local-job.xml"), j -> false);

        assertThat(result.queues()).containsExactly(new QueueInstance("fs0.q@vm", "vm", 16, 1, 0, true, ""));
        assertThat(result.jobs()).containsExactly(new CellJob("2", "localload", "koala", "r", 1, "fs0.q@vm",
                LocalDateTime.parse("2026-11-21T10:14:33"), false));
    }

    @Test
    void busyCellSeparatesKoalaPilotsFromLocalLoadAndCountsPendingJobs() throws IOException {
        QstatXml.Result result = QstatXml.parse(capture("qstat-f-busy.xml"), j -> j.name().startsWith("koala-"));
        CellSnapshot snapshot = new CellSnapshot("fs0", null, List.of(), result.queues(), result.jobs());

        // 16 slots: one local job ("localload") and 15 pilots run; pilots 16..18 wait.
        assertThat(snapshot.slotsTotal()).isEqualTo(16);
        assertThat(snapshot.slotsUsed()).isEqualTo(16);
        assertThat(snapshot.slotsFree()).isZero();
        assertThat(snapshot.slotsUsedByOthers()).isEqualTo(1);
        assertThat(snapshot.slotsUsedByKoala()).isEqualTo(15);
        assertThat(result.jobs()).filteredOn(j -> !j.running()).extracting(CellJob::id)
                .containsExactly("18", "19", "20");
        assertThat(result.jobs()).filteredOn(j -> j.id().equals("18")).singleElement()
                .satisfies(j -> {
                    assertThat(j.state()).isEqualTo("qw");
                    assertThat(j.since()).isEqualTo(LocalDateTime.parse("2026-11-21T10:14:39"));
                });
    }

    @Test
    void arrayTasksAreOneEntryEachAndHeldJobsArePending() throws IOException {
        QstatXml.Result result = QstatXml.parse(capture("qstat-f-array-held.xml"), j -> false);

        assertThat(result.jobs()).filteredOn(j -> j.name().equals("arr") && j.running()).extracting(CellJob::id)
                .containsExactly("38.1", "38.2", "38.3", "38.4", "38.5", "38.6", "38.7", "38.8", "38.9", "38.10",
                        "38.11");
        assertThat(result.jobs()).filteredOn(j -> !j.running()).extracting(CellJob::id, CellJob::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("38.12-20:1", "qw"),
                        org.assertj.core.groups.Tuple.tuple("39", "hqw"));
    }

    @Test
    void aDisabledQueueOffersNoSlotsEvenWithFreeOnes() throws IOException {
        QstatXml.Result result = QstatXml.parse(capture("qstat-f-disabled.xml"), j -> false);

        QueueInstance queue = result.queues().get(0);
        assertThat(queue.states()).isEqualTo("d");
        assertThat(queue.slotsTotal()).isEqualTo(16);
        assertThat(queue.slotsUsed()).isEqualTo(16);
        assertThat(queue.usable()).isFalse();
        assertThat(queue.slotsFree()).isZero();
        assertThat(QstatXml.usable("a")).isTrue();
        assertThat(QstatXml.usable("au")).isFalse();
        assertThat(new QueueInstance("q@h", "h", 8, 2, 0, true, "a").slotsFree()).isEqualTo(6);
        assertThat(new QueueInstance("q@h", "h", 8, 2, 0, false, "au").slotsFree()).isZero();
        assertThat(new QueueInstance("q@h", "h", 8, 2, 1, true, "").slotsFree()).isEqualTo(5);
    }

    @Test
    void truncatedOutputIsAClearError() {
        assertThatThrownBy(() -> QstatXml.parse("<job_info><queue_info>", j -> false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unreadable qstat output");
    }
}
