package koala.testbed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import koala.grid.SiteConfig;

/**
 * A local user of a cell: runs SGE's own client commands ({@code qsub}, {@code qdel},
 * {@code qstat}) with the cell's environment and knows nothing of KOALA. Used by the demo and the
 * tests to put load on a cell that KOALA did not put there. Runs as the site's agent account,
 * since SGE refuses root's jobs; on a remote site it runs on the cell's head node, where that
 * site's users log in.
 */
public final class LocalUser {
    private LocalUser() {
    }

    /** Submits {@code command} as a binary job named {@code name}; returns its job id. */
    public static String qsub(SiteConfig site, String name, String... command) {
        List<String> args = new ArrayList<>(List.of("-terse", "-b", "y", "-N", name, "-o", "/dev/null", "-j", "y"));
        args.addAll(List.of(command));
        return run(site, "qsub", args.toArray(String[]::new)).trim();
    }

    public static void qdel(SiteConfig site, List<String> jobIds) {
        if (!jobIds.isEmpty()) {
            run(site, "qdel", jobIds.toArray(String[]::new));
        }
    }

    /** Runs one of the cell's client commands; its output, or a TestbedException with what it said. */
    public static String run(SiteConfig site, String command, String... args) {
        return runAs(site.agentUser(), site, command, args);
    }

    /**
     * Deletes every job in the cell, whoever owns it, as the cell's manager would: what an earlier
     * test left behind. Returns what it deleted ({@code qstat}'s lines), nothing when the cell was empty.
     */
    public static List<String> clear(SiteConfig site) {
        List<String> jobs = jobs(site);
        if (jobs.isEmpty()) {
            return jobs;
        }
        List<String> ids = jobs.stream().map(l -> l.split("\\s+")[0]).toList();
        if (site.slurm().isPresent()) {
            runAs("root", site, "scancel", ids.toArray(String[]::new));
        } else {
            List<String> args = new ArrayList<>(List.of("-f"));
            args.addAll(ids);
            runAs(SgeCell.ADMIN, site, "qdel", args.toArray(String[]::new));
        }
        return jobs;
    }

    /**
     * Every job in the cell, whoever owns it: {@code qstat}'s lines, without its heading; on a Slurm site, those
     * of {@code squeue} that are not over yet (its id, name, user and state).
     */
    public static List<String> jobs(SiteConfig site) {
        if (site.slurm().isPresent()) {
            return run(site, "squeue", "-h", "-o", "%i %j %u %T").lines().map(String::trim).filter(l -> !l.isEmpty())
                    .filter(l -> !l.endsWith(" COMPLETING")).toList();
        }
        return run(site, "qstat", "-u", "*").lines().skip(2).map(String::trim).filter(l -> !l.isEmpty()).toList();
    }

    /** Submits {@code command} to a Slurm site as its agent's account, a local user's job of one core; its id. */
    public static String sbatch(SiteConfig site, String name, String... command) {
        List<String> args = new ArrayList<>(List.of("--parsable", "-J", name, "-o", "/dev/null", "--wrap",
                String.join(" ", command)));
        return run(site, "sbatch", args.toArray(String[]::new)).trim();
    }

    /**
     * The command line that runs one of the cell's client commands ({@code qstat}, {@code qhost}, ...)
     * with the cell's environment, as this process's user, or as {@code user} when not null (which
     * needs root): on a remote site on its head node (entering that host needs root), the one host
     * that reaches its qmaster, as the site's users do when they log in there.
     */
    public static List<String> commandLine(SiteConfig site, String user, String command, List<String> args) {
        List<String> line = new ArrayList<>(site.ssh().map(ssh -> Hosts.enter(ssh.host())).orElse(List.of()));
        if (user != null) {
            line.addAll(List.of("runuser", "-u", user, "--"));
        }
        line.add("/usr/bin/env");
        site.slurm().map(koala.grid.SlurmEnvironment::variables).orElseGet(() -> site.cell().variables())
                .forEach((k, v) -> line.add(k + "=" + v));
        line.add(site.slurm().map(slurm -> slurm.command(command)).orElseGet(() -> site.cell().command(command)).toString());
        line.addAll(args);
        return line;
    }

    private static String runAs(String user, SiteConfig site, String command, String... args) {
        List<String> line = commandLine(site, user, command, List.of(args));
        try {
            Process p = new ProcessBuilder(line).directory(new java.io.File("/")).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new TestbedException(command + " on " + site.name() + " failed: " + out.trim());
            }
            return out;
        } catch (IOException e) {
            throw new TestbedException("cannot run " + command + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted while running " + command);
        }
    }
}
