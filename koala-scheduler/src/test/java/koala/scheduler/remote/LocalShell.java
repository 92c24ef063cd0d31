package koala.scheduler.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import koala.process.Completion;

/**
 * A head node's shell for tests: commands run by {@code sh} on this machine, with their input, and
 * copies are plain file copies. It records each command and its input; {@code answer}, if given,
 * answers instead of {@code sh} (a canned head node).
 */
final class LocalShell implements HeadNodeShell {
    /** One command as the shell received it. */
    record Call(String command, byte[] input) {
    }

    final List<Call> calls = new ArrayList<>();
    private final Function<String, Result> answer;

    LocalShell() {
        this(null);
    }

    LocalShell(Function<String, Result> answer) {
        this.answer = answer;
    }

    @Override
    public Result run(String command, Duration timeout, byte[] input) {
        calls.add(new Call(command, input));
        if (answer != null) {
            return answer.apply(command);
        }
        try {
            Process sh = new ProcessBuilder("sh", "-c", command).start();
            try (var in = sh.getOutputStream()) {
                if (input != null) {
                    in.write(input);
                }
            }
            Completion.Output output = Completion.await(sh, timeout, "local-sh").orElseThrow(() ->
                    new SshFailure(Sh.brief(command) + " did not end within " + timeout, null));
            return new Result(sh.exitValue(), output.outText(), output.errText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void upload(InputStream content, String path) {
        try (content) {
            Files.createDirectories(Path.of(path).getParent());
            Files.copy(content, Path.of(path), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
