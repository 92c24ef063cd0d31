package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SgePackagesTest {
    @Test
    void theDemosTestbedInstallsSgeAndWhatItsHostsRunAndNoneOfTheTestsPrograms() {
        // bin/koala demo runs testbed up: SGE with DRMAA, the hosts' namespaces and bridges, fs2's sshd,
        // python3 for the wide-area delay; on a fresh machine Chromium, Open MPI, hpcc and Dask cost it
        // minutes (docs/performance.md) and it runs none of them
        assertThat(SgePackages.TESTBED).containsExactly("gridengine-master", "gridengine-exec", "gridengine-client",
                "gridengine-drmaa1.0", "libdrmaa1.0-java", "iproute2", "util-linux", "openssh-server", "python3");
        assertThat(SgePackages.TESTBED).doesNotContainAnyElementsOf(SgePackages.PROGRAMS);
    }

    @Test
    void theTestsProgramsAreTheirOwnList() {
        assertThat(SgePackages.PROGRAMS).contains("openmpi-bin", "python3-mpi4py", "hpcc", "python3-distributed",
                "chromium", "curl", "python3-pip").doesNotHaveDuplicates();
    }
}
