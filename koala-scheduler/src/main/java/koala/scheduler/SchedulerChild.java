package koala.scheduler;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import koala.process.JavaCommand;
import koala.process.RuntimeImage;

/**
 * A scheduler started as a child process of this JVM (by a test or a bench that kills it, pauses it
 * or starts a second beside it). {@link #ready} completes with its {@code READY} line once it serves,
 * a standby's once it leads, and fails if the process ends first; what it prints is read to the end,
 * so that it never blocks on a full pipe.
 */
public record SchedulerChild(Process process, CompletableFuture<String> ready) {

    /** Starts {@link SchedulerMain} on {@code config} in {@code /}, its standard error to {@code errors}. */
    public static SchedulerChild start(Path config, ProcessBuilder.Redirect errors) throws IOException {
        return startOn(List.of(), RuntimeImage.currentClasspath(), config, errors);
    }

    /**
     * As {@link #start}, on another host: {@code enter} before the command (the testbed's {@code nsenter}
     * prefix of a host), on {@code classpath}, which that host must see.
     */
    public static SchedulerChild startOn(List<String> enter, List<Path> classpath, Path config,
                                         ProcessBuilder.Redirect errors) throws IOException {
        JavaCommand command = JavaCommand.of(SchedulerMain.class.getName(), classpath, "--config", config.toString());
        List<String> line = new java.util.ArrayList<>(enter);
        line.addAll(command.commandLine());
        Process process = new ProcessBuilder(line).redirectError(errors)
                .directory(new java.io.File("/")).start();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> read(process, ready), "scheduler-" + process.pid() + "-out");
        reader.setDaemon(true);
        reader.start();
        return new SchedulerChild(process, ready);
    }

    private static void read(Process process, CompletableFuture<String> ready) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("READY ")) {
                    ready.complete(line);
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("the scheduler (pid " + process.pid()
                + ") ended before it served" + process.onExit().thenApply(p -> " (exit " + p.exitValue() + ")")
                .getNow("")));
    }
}
