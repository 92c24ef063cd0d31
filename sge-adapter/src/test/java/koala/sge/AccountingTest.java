package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;

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
}
