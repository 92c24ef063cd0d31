package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The "key value" files qconf prints and reads, and the qstat summaries the status reads. */
class SgeFilesTest {
    private static final String QUEUE = "qname                 template\nhostlist              NONE\n"
            + "load_thresholds       np_load_avg=1.75\npe_list               make smp mpi\nslots                 1\n";

    @Test
    void editReplacesOnlyTheNamedKeys() {
        String edited = SgeCell.edit(QUEUE, Map.of("qname", "fs1.q", "slots", "8", "pe_list", "NONE"));
        assertThat(edited).isEqualTo("qname fs1.q\nhostlist              NONE\n"
                + "load_thresholds       np_load_avg=1.75\npe_list NONE\nslots 8\n");
        assertThat(SgeCell.value(edited, "slots")).isEqualTo("8");
        assertThat(SgeCell.value(QUEUE, "pe_list")).isEqualTo("make smp mpi");
        assertThat(SgeCell.value(QUEUE, "missing")).isNull();
    }

    @Test
    void clusterQueueSummaryGivesUsedAndTotalSlots() {
        String gc = "CLUSTER QUEUE                   CQLOAD   USED    RES  AVAIL  TOTAL aoACDS  cdsuE  \n"
                + "--------------------------------------------------------------------------------\n"
                + "fs1.q                             0.15      3      0      5      8      0      0 \n";
        assertThat(QstatText.clusterQueueSlots(gc, "fs1.q")).containsExactly(3, 8);
        assertThat(QstatText.clusterQueueSlots(gc, "fs0.q")).containsExactly(0, 0);
    }

    @Test
    void jobListCountsRunningAndPending() {
        String qstat = "job-ID  prior   name       user         state submit/start at     queue      slots ja-task-ID \n"
                + "-----------------------------------------------------------------------------------------------\n"
                + "      2 0.75000 localload  koala        r     11/21/2026 10:14:33 fs0.q@vm       1        \n"
                + "     18 0.25000 koala-p16  koala        qw    11/21/2026 10:14:39                1        \n"
                + "     39 0.00000 held       koala        hqw   11/21/2026 10:21:28                1        \n";
        assertThat(QstatText.runningAndPending(qstat)).containsExactly(1, 2);
        assertThat(QstatText.runningAndPending("")).containsExactly(0, 0);
    }
    /** {@code qconf -sp mpi} on the testbed's fs0, as the cells have had it. */
    private static final String MPI_SHOWN = """
            pe_name            mpi
            slots              9999
            user_lists         NONE
            xuser_lists        NONE
            start_proc_args    NONE
            stop_proc_args     NONE
            allocation_rule    $round_robin
            control_slaves     TRUE
            job_is_first_task  FALSE
            urgency_slots      min
            accounting_summary FALSE
            qsort_args         NONE
            """;

    @Test
    void smpTakesAllItsSlotsOnOneHostAndRunsTheJobAsItsOneTask() {
        String file = SgeCell.SMP.file();
        assertThat(SgeCell.value(file, "pe_name")).isEqualTo("smp");
        assertThat(SgeCell.value(file, "allocation_rule")).isEqualTo("$pe_slots");
        assertThat(SgeCell.value(file, "control_slaves")).isEqualTo("FALSE");
        assertThat(SgeCell.value(file, "job_is_first_task")).isEqualTo("TRUE");
        assertThat(SgeCell.PARALLEL_ENVIRONMENTS).extracting(SgeCell.ParallelEnvironment::name).containsExactly("mpi", "smp");
    }

    @Test
    void anEnvironmentIsChangedOnlyWhenWhereOrHowItsTasksRunDiffers() {
        assertThat(SgeCell.MPI.sameAs(MPI_SHOWN)).isTrue();
        assertThat(SgeCell.MPI.sameAs(SgeCell.MPI.file())).isTrue();
        assertThat(SgeCell.SMP.sameAs(MPI_SHOWN)).isFalse();
        assertThat(SgeCell.SMP.sameAs(MPI_SHOWN.replace("$round_robin", "$pe_slots"))).isFalse(); // control_slaves
        assertThat(SgeCell.SMP.sameAs(SgeCell.SMP.file())).isTrue();
    }

    @Test
    void theQueueGetsOnlyTheEnvironmentsItsListLacks() {
        assertThat(SgeCell.missingFromPeList("mpi", SgeCell.PARALLEL_ENVIRONMENTS)).containsExactly("smp");
        assertThat(SgeCell.missingFromPeList(null, SgeCell.PARALLEL_ENVIRONMENTS)).containsExactly("mpi", "smp");
        assertThat(SgeCell.missingFromPeList("make smp,mpi", SgeCell.PARALLEL_ENVIRONMENTS)).isEmpty();
    }
}
