package koala.scheduler.remote;

import java.io.InputStream;
import java.time.Duration;

/**
 * What {@link RemoteAgent} needs of a head node: commands run by the account's shell, and file
 * copies. {@link HeadNodeSession} is the one over SSH; tests use one that runs {@code sh} here.
 */
interface HeadNodeShell {
    /** What a command printed and how it ended. */
    record Result(int exit, String out, String err) {
        boolean ok() {
            return exit == 0;
        }
    }

    /** Runs {@code command}; at most {@code timeout}, then an {@link SshFailure}. */
    default Result run(String command, Duration timeout) {
        return run(command, timeout, null);
    }

    /** Runs {@code command} with {@code input} (or nothing) on its standard input. */
    Result run(String command, Duration timeout, byte[] input);

    /** Copies {@code content} to {@code path} on the head node, whole or not at all. */
    void upload(InputStream content, String path);
}
