package koala.sge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import koala.common.grid.CellEnvironment;

/** Runs the cell's client commands ({@code qstat}, {@code qhost}, {@code qacct}) with its environment. */
public final class SgeCommands {
    private final CellEnvironment cell;
    private final Duration timeout;

    public SgeCommands(CellEnvironment cell, Duration timeout) {
        this.cell = cell;
        this.timeout = timeout;
    }

    public String qstatFull() {
        return run("qstat", "-f", "-xml", "-u", "*");
    }

    public String qhost() {
        return run("qhost", "-xml");
    }

    public String qacct(String jobId) {
        return run("qacct", "-j", jobId);
    }

    /** Runs {@code command args}; a non-zero exit or a time-out means the cell did not answer. */
    public String run(String command, String... args) {
        List<String> line = new ArrayList<>();
        line.add(cell.command(command).toString());
        line.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().putAll(cell.variables());
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new CellUnreachableException(command + " did not answer within " + timeout.toSeconds() + " s");
            }
            String stderr = new String(err.join(), StandardCharsets.UTF_8).trim();
            if (process.exitValue() != 0) {
                throw new CellUnreachableException(firstLine(stderr.isEmpty()
                        ? new String(out, StandardCharsets.UTF_8) : stderr, command + " exited with " + process.exitValue()));
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CellUnreachableException("cannot run " + line.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CellUnreachableException("interrupted while running " + command);
        }
    }

    private static byte[] readAll(java.io.InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    /** SGE's messages often start with "error: "; the last line carries the reason. */
    private static String firstLine(String text, String fallback) {
        String[] lines = text.strip().split("\n");
        String last = lines[lines.length - 1].trim();
        return last.isEmpty() ? fallback : last.replaceFirst("^error: ", "");
    }
}
