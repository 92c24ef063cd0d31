package koala.testbed;

import java.util.List;
import java.util.Map;

/**
 * Debian's packages the testbed and what runs on it need, installed when missing: the testbed's own
 * (what {@code bin/koala demo} runs) with every {@code testbed up}, and the real programs the tests and
 * the experiments run on the grid only when they ask ({@link Testbed#installPrograms()}), so that the
 * demo on a fresh machine does not wait for a browser and an MPI stack it never starts.
 */
final class SgePackages {
    /**
     * SGE and its DRMAA binding, and what the testbed's hosts need: namespaces and bridges (iproute2,
     * util-linux), a remote head node's SSH server, and python3 for the wide-area delay program and
     * the round-trip probe ({@link WanDelay}, {@link RttProbe}).
     */
    static final List<String> TESTBED = List.of("gridengine-master", "gridengine-exec", "gridengine-client",
            "gridengine-drmaa1.0", "libdrmaa1.0-java", "iproute2", "util-linux", "openssh-server", "python3");

    /** The testbed's store when its plan asks for PostgreSQL ({@code testbed up --store postgres}). */
    static final List<String> STORE = List.of("postgresql");
    /** A Slurm cell's daemons and clients ({@code testbed up --slurm}), and the munge they authenticate with. */
    static final List<String> SLURM = List.of("slurmctld", "slurmd", "slurm-client", "munge");

    /** The programs the tests and the experiments run on the grid, beside the testbed's packages; one a line. */
    static final List<String> PROGRAMS = List.of(
            "curl",                // the tests call the scheduler's socket as its users
            "openmpi-bin",         // parallel jobs over clusters: Open MPI, mpi4py and HPC Challenge
            "python3-mpi4py",
            "hpcc",
            "python3-distributed", // Dask, a framework that grows and shrinks
            "python3-cryptography", // the TLS credentials KoalaCluster makes for each Dask instance
            "python3-pip",         // the tests install the Python package with it, offline (with setuptools, wheel)
            "prometheus",          // the Prometheus that LivePageIT scrapes the scheduler with
            "postgresql",          // the shared store of two schedulers (scheduler.database = jdbc:postgresql://...)
            "chromium");           // the headless browser in which the tests load the live page

    private SgePackages() {
    }

    static List<String> missing(Shell shell, List<String> names) {
        return names.stream().filter(name -> !installed(shell, name)).toList();
    }

    private static boolean installed(Shell shell, String name) {
        Shell.Result r = shell.run("dpkg-query", "-W", "-f=${Status}", name);
        return r.ok() && r.out().contains("install ok installed");
    }

    static void install(Shell shell, List<String> names, Progress progress) {
        Shell apt = shell.with(Map.of("DEBIAN_FRONTEND", "noninteractive"));
        progress.step("installing " + String.join(" ", names) + " (apt-get)");
        apt.run(List.of("apt-get", "update", "-q"), line -> { }).check();
        List<String> command = new java.util.ArrayList<>(List.of("apt-get", "install", "-y", "-q"));
        command.addAll(names);
        apt.run(command, line -> {
            if (line.startsWith("Setting up") || line.startsWith("Unpacking")) {
                progress.detail(line);
            }
        }).check();
    }
}
