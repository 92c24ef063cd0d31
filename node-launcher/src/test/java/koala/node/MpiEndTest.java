package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Open MPI 4.1's words when a rank ends the world, as mpirun wrote them on the testbed. */
class MpiEndTest {
    private static final List<String> HOSTS = List.of("fs0-n6", "fs0-n7", "fs1-n6", "fs1-n7");

    @Test
    void aRankThatExitedWithAStatusIsNamedWithItsHost() {
        MpiEnd end = new MpiEnd(HOSTS);
        """
                [koala-rsh] daemon for fs0-n7 handed to node 1.0.1
                --------------------------------------------------------------------------
                Primary job  terminated normally, but 1 process returned
                a non-zero exit code. Per user-direction, the job has been aborted.
                --------------------------------------------------------------------------
                --------------------------------------------------------------------------
                mpirun detected that one or more processes exited with non-zero status, thus causing
                the job to be terminated. The first process to do so was:

                  Process name: [[8201,1],2]
                  Exit code:    3
                --------------------------------------------------------------------------
                """.lines().forEach(end::line);

        assertThat(end.detail()).contains("mpirun: rank 2 on fs1-n6 exited with status 3, which ended the MPI world");
    }

    @Test
    void aRankKilledByASignalIsNamedWithTheNodeMpirunGives() {
        MpiEnd end = new MpiEnd(HOSTS);
        end.line("mpirun noticed that process rank 3 with PID 0 on node fs1-n7 exited on signal 9 (Killed).");

        assertThat(end.detail()).contains("mpirun: rank 3 on fs1-n7 was killed by signal 9 (Killed), which ended the "
                + "MPI world");
    }

    @Test
    void nothingIsSaidWhenMpirunNamedNoRank() {
        MpiEnd end = new MpiEnd(HOSTS);
        end.line("ORTE was unable to reliably start one or more daemons.");

        assertThat(end.detail()).isEmpty();
    }
}
