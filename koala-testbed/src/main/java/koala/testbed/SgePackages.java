package koala.testbed;

import java.util.List;
import java.util.Map;

/** Debian's packages the testbed needs (Son of Grid Engine and the hosts' tools), installed when missing. */
final class SgePackages {
    /**
     * SGE, and what the testbed's hosts need: namespaces and bridges (iproute2, util-linux), a remote
     * head node's SSH server; curl, with which tests call the scheduler's socket as its users; and
     * the real programs the tests run on the grid: Open MPI, mpi4py and HPC Challenge (parallel jobs
     * over clusters), Dask (a framework that grows and shrinks); and Chromium, the headless browser in
     * which the tests load the scheduler's live page.
     */
    static final List<String> NAMES = List.of("gridengine-master", "gridengine-exec", "gridengine-client",
            "gridengine-drmaa1.0", "libdrmaa1.0-java", "iproute2", "util-linux", "openssh-server", "curl",
            "openmpi-bin", "python3-mpi4py", "hpcc", "python3-distributed", "chromium",
            "prometheus"); // the Prometheus that LivePageIT scrapes the scheduler with

    private SgePackages() {
    }

    static List<String> missing(Shell shell) {
        return NAMES.stream().filter(name -> !installed(shell, name)).toList();
    }

    private static boolean installed(Shell shell, String name) {
        Shell.Result r = shell.run("dpkg-query", "-W", "-f=${Status}", name);
        return r.ok() && r.out().contains("install ok installed");
    }

    static void install(Shell shell, List<String> names, Progress progress) {
        Shell apt = shell.with(Map.of("DEBIAN_FRONTEND", "noninteractive"));
        progress.step("installing " + String.join(" ", names) + " (apt-get, about a minute)");
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
