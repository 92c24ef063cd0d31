package koala.sge;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import koala.grid.CellEnvironment;
import koala.process.Completion;
import koala.resourcemanager.ManagerUnreachable;

/**
 * Runs the cell's client commands ({@code qstat}, {@code qhost}, {@code qacct}) with its
 * environment. Each run ends within the time-out: a command that has not answered by then (its
 * qmaster paused or unreachable) is killed, with anything it started, and reported as such.
 */
public final class SgeCommands {
    private final CellEnvironment cell;
    private final Duration timeout;

    public SgeCommands(CellEnvironment cell, Duration timeout) {
        this.cell = cell;
        this.timeout = timeout;
    }

    /** The same commands with another time-out (the health probe's is short). */
    public SgeCommands withTimeout(Duration other) {
        return new SgeCommands(cell, other);
    }

    public Duration timeout() {
        return timeout;
    }

    /** Every queue instance and job; {@code -r} adds each job's requests, what it holds of the consumables. */
    public String qstatFull() {
        return run("qstat", "-f", "-r", "-xml", "-u", "*");
    }

    /** As {@link #qstatFull}, each task of a parallel job apart ({@code -g t}), its master task marked. */
    public String qstatTasks() {
        return run("qstat", "-f", "-r", "-g", "t", "-xml", "-u", "*");
    }

    public String qhost() {
        return run("qhost", "-xml");
    }

    /** The hosts with every resource and its source ({@code -F}) and their queue instances ({@code -q}). */
    public String qhostResources() {
        return run("qhost", "-F", "-q", "-xml");
    }

    public String qacct(String jobId) {
        return run("qacct", "-j", jobId);
    }

    /** Runs {@code command args}; a non-zero exit or a time-out means the cell did not answer. */
    public String run(String command, String... args) {
        List<String> line = new ArrayList<>();
        line.add(cell.command(command).toString());
        line.addAll(List.of(args));
        String what = String.join(" ", command, String.join(" ", args)).strip();
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().putAll(cell.variables());
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            Completion.Output output = Completion.await(process, timeout, command).orElseThrow(() ->
                    ManagerUnreachable.silent(what, timeout));
            if (process.exitValue() != 0) {
                String stderr = output.errText().trim();
                throw new ManagerUnreachable(lastLine(stderr.isEmpty() ? output.outText() : stderr,
                        command + " exited with " + process.exitValue()));
            }
            return output.outText();
        } catch (IOException e) {
            throw new ManagerUnreachable("cannot run " + line.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ManagerUnreachable("interrupted while running " + what);
        }
    }

    /** SGE's messages often start with "error: "; the last line carries the reason. */
    private static String lastLine(String text, String fallback) {
        String[] lines = text.strip().split("\n");
        String last = lines[lines.length - 1].trim();
        return last.isEmpty() ? fallback : last.replaceFirst("^error: ", "");
    }
}
