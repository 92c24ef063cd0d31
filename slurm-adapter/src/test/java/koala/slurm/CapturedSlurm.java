package koala.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Slurm's commands answering what a real Slurm answered ({@code captures/}): each command line gets the answers
 * given for it, in turn, its last one again after; a command nobody expected fails the test.
 */
final class CapturedSlurm implements SlurmCommands {
    /** A command as it ran: its line and what it was given on its standard input. */
    record Ran(String line, String input) {
    }

    private final Map<String, Deque<Answer>> answers = new HashMap<>();
    private final List<Ran> ran = new ArrayList<>();
    private Runnable during = () -> { };

    /** {@code line} (its words joined by spaces) answers these, in turn. */
    CapturedSlurm on(String line, Answer... given) {
        answers.computeIfAbsent(line, k -> new ArrayDeque<>()).addAll(List.of(given));
        return this;
    }

    /** Runs {@code look} while each command runs, as another thread of the agent would look. */
    CapturedSlurm during(Runnable look) {
        this.during = look;
        return this;
    }

    List<Ran> ran() {
        return List.copyOf(ran);
    }

    List<String> lines() {
        return ran.stream().map(Ran::line).toList();
    }

    @Override
    public Answer run(List<String> command, String input, Duration timeout) {
        String line = String.join(" ", command);
        ran.add(new Ran(line, input));
        during.run();
        Deque<Answer> given = answers.get(line);
        if (given == null || given.isEmpty()) {
            throw new AssertionError("no answer for: " + line);
        }
        return given.size() > 1 ? given.poll() : given.peek();
    }

    /** A capture's text. */
    static String capture(String name) {
        try (InputStream in = CapturedSlurm.class.getResourceAsStream("/captures/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no capture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A command that printed this capture and exited 0. */
    static Answer printed(String name) {
        return Answer.ok(capture(name));
    }

    /** A command that wrote this capture on its standard error and exited with {@code exit}. */
    static Answer failed(int exit, String name) {
        return Answer.failed(exit, capture(name));
    }
}
