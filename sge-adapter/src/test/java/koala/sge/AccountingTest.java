package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import koala.api.site.MemoryUse;
import koala.resourcemanager.JobEnd;
import org.junit.jupiter.api.Test;

class AccountingTest {
    private static String qacct(String failed, String exit) {
        return "==============================================================\n"
                + "qname        fs1.q               \nhostname     vm                  \njobname      koala-it-ok\n"
                + "jobnumber    12                  \nfailed       " + failed + "\nexit_status  " + exit + "\n"
                + "ru_wallclock 1s\n";
    }

    @Test
    void aJobThatRanGivesItsExitStatus() {
        assertThat(Accounting.parse(qacct("0    ", "7                   ")))
                .contains(new JobEnd.Exited(7));
    }

    @Test
    void aKilledJobGivesTheSignal() {
        assertThat(Accounting.parse(qacct("0    ", "137"))).contains(new JobEnd.Signalled("9"));
    }

    @Test
    void aJobSgeCouldNotStartGivesSgesReason() {
        assertThat(Accounting.parse(qacct("26   : opening input/output file", "0")))
                .contains(new JobEnd.Failed("SGE reports failure: 26   : opening input/output file"));
    }

    @Test
    void noRecordYet() {
        assertThat(Accounting.parse("error: job id 12 not found\n")).isEmpty();
    }
    /**
     * Real records of the testbed's fs0 shaped with {@code --shape fs0=2x4c/8G+2x16c/64G/2gpu}: a job
     * of {@code -pe smp 2 -l h_vmem=512M} (a claim of 1 GiB) whose two processes together grew past it,
     * killed by the execution daemon.
     */
    @Test
    void aJobSgeKilledPastItsClaimExceededItsMemory() throws IOException {
        String record = capture("qacct-fs0-h_vmem-exceeded.txt");

        assertThat(Accounting.parse(record)).contains(
                new JobEnd.Failed("SGE reports failure: 37  : qmaster enforced h_rt, h_cpu, or h_vmem limit"));
        // maxvmem 1.082GB = 1,161,788,653 bytes: 1107.95 MiB, shown rounded up
        assertThat(Accounting.memory(record)).isEqualTo(new MemoryUse(1024L, 1108L, true));
        assertThat(Accounting.memory(record).describe()).isEqualTo("exceeded its 1G memory (max 1.08G)");
    }

    /** One process asking twice its claim at once: its own allocation fails (Python's MemoryError, exit 1); SGE records nothing. */
    @Test
    void aProgramWhoseAllocationFailedWasNotStoppedBySge() throws IOException {
        String record = capture("qacct-fs0-malloc-failed.txt");

        assertThat(Accounting.parse(record)).contains(new JobEnd.Exited(1));
        assertThat(Accounting.memory(record)).isEqualTo(new MemoryUse(1024L, 779L, false));
        assertThat(Accounting.memory(record).describe()).isEqualTo("779M of its 1G memory");
    }

    /**
     * A job that claimed no {@code h_vmem} on a host where it is consumable gets the complex's default, 0:
     * killed within a second with the same failure, at 3.5 MB. Without a claim it is not called a memory excess.
     */
    @Test
    void aJobWithoutAClaimIsNotSaidToExceedIt() throws IOException {
        String record = capture("qacct-fs0-no-h_vmem-on-shaped-host.txt");

        assertThat(Accounting.parse(record)).contains(
                new JobEnd.Failed("SGE reports failure: 37  : qmaster enforced h_rt, h_cpu, or h_vmem limit"));
        assertThat(Accounting.memory(record)).isEqualTo(new MemoryUse(null, 4L, false));
    }

    @Test
    void aJobWithinItsClaim() throws IOException {
        String record = capture("qacct-fs0-within-claim.txt");

        assertThat(Accounting.parse(record)).contains(new JobEnd.Exited(0));
        assertThat(Accounting.memory(record)).isEqualTo(new MemoryUse(512L, 4L, false));
    }

    /** DRMAA's resource usage of the killed job above, as {@code JobInfo.getResourceUsage()} gave it. */
    @Test
    void drmaasUsageGivesTheSameVerdict() {
        Map<String, String> usage = Map.of("maxvmem", "1161736192.0000", "exit_status", "137.0000",
                "signal", "910.0000", "ru_wallclock", "7.0000");

        assertThat(Accounting.memory(1024L, Accounting.maxvmem(usage), true)).isEqualTo(new MemoryUse(1024L, 1108L, true));
        assertThat(Accounting.memory(1024L, Accounting.maxvmem(usage), false)).isEqualTo(new MemoryUse(1024L, 1108L, false));
        assertThat(Accounting.memory(null, Accounting.maxvmem(Map.of()), true)).isNull();
    }

    @Test
    void qacctSizesArePowersOf1024() {
        assertThat(Accounting.bytes("1.082GB")).isEqualTo(1.082 * 1024 * 1024 * 1024);
        assertThat(Accounting.bytes("1009.906MB")).isEqualTo(1009.906 * 1024 * 1024);
        assertThat(Accounting.bytes("4.000KB")).isEqualTo(4096.0);
        assertThat(Accounting.bytes("0.000B")).isEqualTo(0.0);
        assertThat(Accounting.bytes("undefined")).isNull();
    }

    private static String capture(String name) throws IOException {
        try (var in = AccountingTest.class.getResourceAsStream("/captures/" + name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
